#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

extension AreaIndex {
    /// An area beside a route: how far along the route its nearest point is, and how far aside.
    public struct RouteMatch: Sendable, Hashable {
        public var position: Int
        public var alongMeters: Double
        public var sideMeters: Double
    }

    /// How much work one route search may do, in units of one candidate area measured against a
    /// leg; each piece of corridor searched costs `pieceWork` more (the walk down the tree), and
    /// each area kept `matchWork` more.
    ///
    /// A route is the one question whose cost the data set's size does not bound: a thousand
    /// legs can each pass through every area. The limit keeps a search under a quarter of a
    /// second of CPU on a million areas (`areas-bench expensive`); past it the request is
    /// refused with what to narrow, before or while searching.
    public static let routeWorkLimit = 500_000
    static let pieceWork = 40
    static let matchWork = 2

    /// A leg is searched in pieces no longer than this, or twice the corridor's width when that
    /// is more: the box around a short piece holds little beyond the corridor, where one box
    /// around a long diagonal leg holds a whole province.
    static let minimumPieceMeters = 1_000.0

    /// Every area within `meters` of the polyline `path` (great-circle segments), ordered by how
    /// far along the route it lies, ties by id; at most `limit`. A zone with a shape is along
    /// the route when its footprint is (`sideMeters` 0 where the route enters it), not its
    /// position. Throws `tooExpensive` when the search would do more than `workLimit` units of
    /// work.
    public func along(_ path: [GeoPoint], meters: Double, kind: KindFilter = .all, region: Region = .anywhere,
                      limit: Int = .max, workLimit: Int = AreaIndex.routeWorkLimit) throws(GeoError) -> [RouteMatch] {
        guard meters.isFinite, meters >= 0 else { throw .invalidDistance(meters) }
        guard limit >= 0 else { throw .invalidCount(limit) }
        guard let first = path.first else { return [] }
        let region = regionNames.resolve(region)
        if region.isEmpty { return [] }
        let legs = path.count == 1 ? [(first, first)] : Array(zip(path, path.dropFirst()))
        let lengths = legs.map { Geodesy.distance($0.0, $0.1) }
        let pieceMeters = Swift.max(2 * meters, Self.minimumPieceMeters)
        let pieceCounts = lengths.map { Swift.max(1, Int(($0 / pieceMeters).rounded(.up))) }
        var work = pieceCounts.reduce(0, +) * Self.pieceWork
        let totalKilometers = Int((lengths.reduce(0, +) / 1000).rounded())
        guard work <= workLimit else {
            throw .tooExpensive("a route of \(totalKilometers) km is more than one request may search with a corridor of \(Int(meters)) m; ask for it in shorter parts")
        }

        var matches: [RouteMatch] = []
        var slots = MatchSlots(capacity: areas.count)
        defer { slots.release() }
        var start = 0.0
        let mask = Self.classMask(of: kind)
        let records = areas.records
        let packed = footprints.packed
        let shapes = footprints.shapes
        let withShapes = shapes.count > 0 && mask & Self.classMask(of: AreaKind.nonsmoking) != 0
        func keep(_ match: RouteMatch) {
            if let slot = slots[match.position] {
                if match.sideMeters < matches[slot].sideMeters { matches[slot] = match }
            } else {
                slots[match.position] = matches.count
                matches.append(match)
                // Kept and then sorted: a match costs about twice what a look does.
                work += Self.matchWork
            }
        }
        for (leg, (a, b)) in legs.enumerated() {
            let segment = GreatCircleSegment(from: a, to: b)
            let pieces = pieceCounts[leg]
            let pieceLength = lengths[leg] / Double(pieces)
            // A great circle bows away from the straight line between its ends; pad for it.
            let pad = meters + pieceLength * pieceLength / (4 * Geodesy.earthRadiusMeters) + 1
            var from = a
            var nearShapes: Set<UInt32> = []
            for piece in 1...pieces {
                let to = piece == pieces ? b : segment.point(at: Double(piece) / Double(pieces))
                let box = try Geodesy.boundingBox(around: from, meters: pad).union(try Geodesy.boundingBox(around: to, meters: pad))
                var exhausted = false
                tree.forEach(intersecting: box, classMask: mask, filter: AdmitAll()) { payload in
                    work += 1
                    if work > workLimit {
                        exhausted = true
                        return false
                    }
                    let position = Int(payload)
                    guard region.isAnywhere || region.admits(records[position]) else { return true }
                    // A shape is measured by its footprint, below.
                    if withShapes && packed[position].isShape { return true }
                    // Measured against the whole leg, so pieces never change an answer.
                    let (side, along) = segment.locate(records[position].coordinate)
                    guard side <= meters else { return true }
                    keep(RouteMatch(position: position, alongMeters: start + along, sideMeters: side))
                    return true
                }
                if withShapes && !exhausted {
                    shapes.tree.forEach(intersecting: box, filter: AdmitAll()) { shape in
                        nearShapes.insert(shape)
                        return true
                    }
                }
                if exhausted {
                    throw .tooExpensive("the corridor of \(Int(meters)) m along this route of \(totalKilometers) km passes more areas than one request may examine; ask with a narrower corridor (meters), a shorter route, or a kind or region")
                }
                from = to
            }
            // The zones' shapes near the leg, each measured against the whole leg.
            for shape in nearShapes.sorted() {
                let owner = Int(shapes.owners[Int(shape)])
                guard region.isAnywhere || region.admits(records[owner]) else { continue }
                guard let (side, along) = shapes.approach(of: Int(shape), from: a, to: b, work: &work, limit: workLimit) else {
                    throw .tooExpensive("the zones' shapes along this route of \(totalKilometers) km have more edges than one request may examine; ask with a narrower corridor (meters), a shorter route, or a kind or region")
                }
                if side <= meters { keep(RouteMatch(position: owner, alongMeters: start + along, sideMeters: side)) }
            }
            start += lengths[leg]
        }
        matches.sort { ($0.alongMeters, $0.position) < ($1.alongMeters, $1.position) }
        if matches.count > limit { matches.removeSubrange(limit...) }
        return matches
    }
}

/// Where each area's match is in a route search's list: a dictionary while the matches are
/// few, a table over every position once they are many (hashing a million matches cost more
/// than measuring them; a table for a short route cost a page fault per match).
struct MatchSlots {
    private var few: [Int: Int] = [:]
    /// Index plus one, 0 for none; `calloc` maps large blocks from the kernel's zero pages.
    private var table: UnsafeMutablePointer<Int32>?
    private let capacity: Int
    static let tableThreshold = 4_096

    init(capacity: Int) { self.capacity = capacity }

    subscript(position: Int) -> Int? {
        get {
            if let table { return table[position] == 0 ? nil : Int(table[position]) - 1 }
            return few[position]
        }
        set {
            guard let newValue else { return }
            if let table {
                table[position] = Int32(truncatingIfNeeded: newValue + 1)
                return
            }
            few[position] = newValue
            if few.count >= Self.tableThreshold, let raw = calloc(Swift.max(capacity, 1), MemoryLayout<Int32>.stride) {
                let table = raw.bindMemory(to: Int32.self, capacity: Swift.max(capacity, 1))
                for (position, slot) in few { table[position] = Int32(truncatingIfNeeded: slot + 1) }
                self.table = table
                few = [:]
            }
        }
    }

    func release() { table.map { free($0) } }
}
