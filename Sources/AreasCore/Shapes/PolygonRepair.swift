/// A publisher's polygon made into one a GIS reads as it was meant: the check every polygon
/// meets before it is indexed, and the repair of the ones that touch or cross themselves.
///
/// Positions repeated one after another are dropped (no GIS counts them). What is left is
/// valid when no ring touches or crosses itself, no ring doubles back on itself, and two rings
/// meet at most at single points; a hole must then lie inside its shell. Otherwise the polygon
/// is repaired as `ST_MakeValid` and shapely's `make_valid` repair it: its outline is cut where
/// it meets itself, the stretches drawn an even number of times (a spike and its way back) set
/// aside, and the area it covers is what the rest encloses by the even-odd rule (which is also
/// how `ShapeIndex` tests a point), as simple rings: shells, and the holes inside them. A
/// figure-eight becomes two polygons, a ring that touches itself a shell and a hole, a
/// pentagram its five points. (Where `make_valid`'s floating point and these exact fixed-point
/// vertices see a different picture, three positions on one line to the last bit, they may
/// differ by a sliver.) A ring drawn twice over, which would cancel out whole, is taken once.
///
/// Finding where edges meet is a sweep (`SegmentSweep`), so the work is bounded by the edges
/// and the contacts, not by their square; the repair's steps are counted against the same
/// budget, and a polygon whose repair would take more (a million self-crossings) is refused.
public enum PolygonRepair {
    public enum Outcome: Sendable, Equatable {
        /// The polygon as published, repeated positions dropped: its shell and holes.
        case valid([[ShapeVertex]])
        /// The polygon repaired: polygons, each a shell (counter-clockwise) and its holes.
        case repaired([[[ShapeVertex]]])
        case refused(Refusal)
    }

    public enum Refusal: Sendable, Equatable {
        /// A ring of fewer than three distinct positions.
        case tooFewPositions
        /// A hole that lies outside its shell, touching it nowhere.
        case holeOutsideShell
        /// Repaired, nothing encloses any area.
        case noArea
        /// Checking or repairing would take more work than the budget.
        case tooComplex
        /// The repair's rings still cross (positions rounded to the centimetre can do that).
        case unrepairable
    }

    /// Work one feature's polygons may take: node visits of the sweep, edges compared and
    /// walked, about 20 per edge for a real ring and bounded however the ring is drawn.
    public static let maximumWork = 20_000_000
    /// Crossings a repair may cut a polygon at.
    public static let maximumCrossings = 100_000

    /// Checks, and where it must repairs, one polygon: `rings[0]` its shell, the rest its holes,
    /// each not closed (the first position not repeated at the end).
    public static func check(_ rings: [[ShapeVertex]], budget: inout Int) -> Outcome {
        var cleaned: [[ShapeVertex]] = []
        for ring in rings {
            var kept: [ShapeVertex] = []
            kept.reserveCapacity(ring.count)
            for vertex in ring where kept.last != vertex { kept.append(vertex) }
            while kept.count > 1 && kept.first == kept.last { kept.removeLast() }
            guard kept.count >= 3 else { return .refused(.tooFewPositions) }
            cleaned.append(kept)
        }
        guard !cleaned.isEmpty else { return .refused(.tooFewPositions) }
        let edges = Edges(cleaned)
        var touchingRings = Set<Int>()
        var isValid = true
        var contacts: [(Int, Int, SegmentContact)] = []
        let finished = edges.sweep.forEachOverlappingPair(budget: &budget) { i, j in
            let contact = edges.contact(i, j)
            // Consecutive edges meet at their shared vertex by design.
            if contact == .none || (edges.areConsecutive(i, j) && edges.isAllowed(contact, i, j)) { return true }
            if edges.ring[i] != edges.ring[j] { touchingRings.insert(Int(edges.ring[i]) * cleaned.count + Int(edges.ring[j])) }
            if !edges.isAllowed(contact, i, j) { isValid = false }
            contacts.append((i, j, contact))
            return contacts.count <= maximumCrossings
        }
        guard finished, contacts.count <= maximumCrossings else { return .refused(.tooComplex) }
        // A hole that meets its shell nowhere must lie inside it.
        for hole in cleaned.indices.dropFirst() where !touchingRings.contains(hole * cleaned.count) && !touchingRings.contains(hole) {
            budget -= cleaned[0].count
            guard budget >= 0 else { return .refused(.tooComplex) }
            let (x, y) = midpoint(cleaned[hole][0], cleaned[hole][1])
            guard crossingsWest(ofX: x, y: y, ring: cleaned[0]) % 2 == 1 else { return .refused(.holeOutsideShell) }
        }
        if isValid { return .valid(cleaned) }
        return repair(edges, contacts, budget: &budget)
    }

    /// The point halfway along a segment, in doubled fixed point.
    static func midpoint(_ a: ShapeVertex, _ b: ShapeVertex) -> (Int64, Int64) {
        (Int64(a.longitude) + Int64(b.longitude), Int64(a.latitude) + Int64(b.latitude))
    }

    /// How many of `ring`'s edges cross the ray running west from the point (`x`, `y`) in doubled
    /// fixed point: odd when the ring holds the point.
    static func crossingsWest(ofX x: Int64, y: Int64, ring: [ShapeVertex]) -> Int {
        var count = 0
        for i in ring.indices {
            let (a, b) = (ring[i], ring[(i + 1) % ring.count])
            if crossesWest(a, b, x: x, y: y) { count += 1 }
        }
        return count
    }

    /// Whether segment ab crosses the ray west of (`x`, `y`) (doubled fixed point), its ends
    /// counted half-open so a vertex on the ray counts once.
    static func crossesWest(_ a: ShapeVertex, _ b: ShapeVertex, x: Int64, y: Int64) -> Bool {
        let (ay, by) = (2 * Int64(a.latitude), 2 * Int64(b.latitude))
        guard (ay > y) != (by > y) else { return false }
        let (ax, bx) = (2 * Int64(a.longitude), 2 * Int64(b.longitude))
        // The crossing's x is ax + (y - ay) (bx - ax) / (by - ay); is it west of x?
        let lhs = Int128(ax - x) * Int128(by - ay) + Int128(y - ay) * Int128(bx - ax)
        return by > ay ? lhs < 0 : lhs > 0
    }

    /// Every ring's edges, numbered one ring after another.
    struct Edges {
        let rings: [[ShapeVertex]]
        var ring: [Int32] = []
        var index: [Int32] = []
        var segments: [SegmentSweep.Segment] = []

        init(_ rings: [[ShapeVertex]]) {
            self.rings = rings
            for (r, vertices) in rings.enumerated() {
                for i in vertices.indices {
                    ring.append(Int32(r))
                    index.append(Int32(i))
                    segments.append(SegmentSweep.Segment(a: vertices[i], b: vertices[(i + 1) % vertices.count]))
                }
            }
        }

        var sweep: SegmentSweep { SegmentSweep(segments) }

        func contact(_ i: Int, _ j: Int) -> SegmentContact {
            SegmentContact(segments[i].a, segments[i].b, segments[j].a, segments[j].b)
        }

        /// Whether edges i and j of one ring follow each other.
        func areConsecutive(_ i: Int, _ j: Int) -> Bool {
            guard ring[i] == ring[j] else { return false }
            let count = Int32(rings[Int(ring[i])].count)
            let d = abs(index[i] - index[j])
            return d == 1 || d == count - 1
        }

        /// Whether a valid polygon's edges may meet so: consecutive edges at their shared vertex,
        /// two rings at single points.
        func isAllowed(_ contact: SegmentContact, _ i: Int, _ j: Int) -> Bool {
            switch contact {
            case .none: return true
            case .overlapping, .crossing: return false
            case .touching: return areConsecutive(i, j) || ring[i] != ring[j]
            }
        }
    }

    /// The polygon its edges enclose by the even-odd rule, as simple rings (see the type's
    /// description); `contacts` are every pair of edges that meet.
    static func repair(_ edges: Edges, _ contacts: [(Int, Int, SegmentContact)], budget: inout Int) -> Outcome {
        // Each edge cut where others meet it.
        var cuts = [[ShapeVertex]](repeating: [], count: edges.segments.count)
        for (i, j, contact) in contacts {
            switch contact {
            case .none: break
            case .crossing(let p), .touching(let p):
                cuts[i].append(p)
                cuts[j].append(p)
            case .overlapping(let p, let q):
                cuts[i] += [p, q]
                cuts[j] += [p, q]
            }
        }
        // The pieces of outline, each counted as often as it is drawn: drawn an even number of
        // times, a piece divides nothing (a spike and its way back, a stretch two loops share).
        // An outline that so cancels out whole was drawn twice over: it is taken once.
        var drawn: [SegmentKey: Int] = [:]
        for (e, segment) in edges.segments.enumerated() {
            // From one end to the other through the cuts in order along it (a cut rounded to
            // the centimetre stays between the ends, so the ring stays one chain).
            var inner = cuts[e].filter { $0 != segment.a && $0 != segment.b }
            let (dx, dy) = (Double(segment.b.longitude) - Double(segment.a.longitude), Double(segment.b.latitude) - Double(segment.a.latitude))
            func along(_ p: ShapeVertex) -> Double { (Double(p.longitude) - Double(segment.a.longitude)) * dx + (Double(p.latitude) - Double(segment.a.latitude)) * dy }
            if inner.count > 1 { inner.sort { along($0) < along($1) } }
            let points = [segment.a] + inner + [segment.b]
            for k in 1..<points.count where points[k] != points[k - 1] {
                drawn[SegmentKey(points[k - 1], points[k]), default: 0] += 1
            }
        }
        budget -= drawn.count * 8
        guard budget >= 0 else { return .refused(.tooComplex) }
        var pieces = drawn.compactMap { $0.value % 2 == 1 ? $0.key : nil }
        if pieces.isEmpty && drawn.values.allSatisfy({ $0 == 2 }) { pieces = Array(drawn.keys) }
        // In a fixed order, so the rings come out the same in every process (a refresh that
        // reads the same file must find the same shape).
        pieces.sort { ($0.a.latitude, $0.a.longitude, $0.b.latitude, $0.b.longitude) < ($1.a.latitude, $1.a.longitude, $1.b.latitude, $1.b.longitude) }
        let graph = PlanarGraph(pieces)
        let polygons: [[[ShapeVertex]]]
        switch graph.evenOddPolygons(budget: &budget) {
        case .overBudget: return .refused(.tooComplex)
        case .inconsistent: return .refused(.unrepairable)
        case .polygons(let traced): polygons = traced
        }
        guard !polygons.isEmpty else { return .refused(.noArea) }
        // The rings made must meet only as a valid polygon's do.
        let made = Edges(polygons.flatMap { $0 })
        var crossing = false
        let finished = made.sweep.forEachOverlappingPair(budget: &budget) { i, j in
            if !made.isAllowed(made.contact(i, j), i, j) { crossing = true; return false }
            return true
        }
        guard finished else { return .refused(.tooComplex) }
        return crossing ? .refused(.unrepairable) : .repaired(polygons)
    }

    /// An undirected piece of outline, its ends in a fixed order.
    struct SegmentKey: Hashable {
        var a: ShapeVertex
        var b: ShapeVertex

        init(_ p: ShapeVertex, _ q: ShapeVertex) {
            (a, b) = (p.latitude, p.longitude) < (q.latitude, q.longitude) ? (p, q) : (q, p)
        }
    }
}

/// The pieces of a repaired outline as a plane graph: every vertex has an even number of them,
/// and each separates an area the polygon covers from one it does not.
struct PlanarGraph {
    var vertices: [ShapeVertex] = []
    /// Half-edges by their origin, counter-clockwise around it: `targets[starts[v]..<starts[v + 1]]`.
    var starts: [Int] = []
    var targets: [Int32] = []
    /// Each half-edge's reverse.
    var twin: [Int32] = []

    init(_ pieces: [PolygonRepair.SegmentKey]) {
        var number: [ShapeVertex: Int32] = [:]
        func id(_ v: ShapeVertex) -> Int32 {
            if let n = number[v] { return n }
            number[v] = Int32(vertices.count)
            vertices.append(v)
            return Int32(vertices.count - 1)
        }
        var ends: [(Int32, Int32)] = []
        for piece in pieces { ends.append((id(piece.a), id(piece.b))) }
        var degree = [Int](repeating: 0, count: vertices.count + 1)
        for (u, v) in ends { degree[Int(u) + 1] += 1; degree[Int(v) + 1] += 1 }
        for v in 0..<vertices.count { degree[v + 1] += degree[v] }
        starts = degree
        // Half-edges 2e and 2e + 1 of piece e, placed by origin, then sorted by angle.
        var slot = starts
        var halfAt = [Int32](repeating: 0, count: 2 * ends.count)
        var order = [Int32](repeating: 0, count: 2 * ends.count)
        for (e, (u, v)) in ends.enumerated() {
            order[slot[Int(u)]] = Int32(2 * e); slot[Int(u)] += 1
            order[slot[Int(v)]] = Int32(2 * e + 1); slot[Int(v)] += 1
        }
        func target(_ half: Int32) -> Int32 { half % 2 == 0 ? ends[Int(half / 2)].1 : ends[Int(half / 2)].0 }
        for v in 0..<vertices.count {
            let from = vertices[v]
            order[starts[v]..<starts[v + 1]].sort { Self.isBefore(from, vertices[Int(target($0))], vertices[Int(target($1))]) }
        }
        targets = order.map(target)
        for (position, half) in order.enumerated() { halfAt[Int(half)] = Int32(position) }
        twin = order.map { halfAt[Int($0 ^ 1)] }
    }

    /// Whether the direction from `o` to `p` comes before the one to `q`, counter-clockwise
    /// from east.
    static func isBefore(_ o: ShapeVertex, _ p: ShapeVertex, _ q: ShapeVertex) -> Bool {
        let (px, py) = (Int64(p.longitude) - Int64(o.longitude), Int64(p.latitude) - Int64(o.latitude))
        let (qx, qy) = (Int64(q.longitude) - Int64(o.longitude), Int64(q.latitude) - Int64(o.latitude))
        func half(_ x: Int64, _ y: Int64) -> Int { y < 0 || (y == 0 && x < 0) ? 1 : 0 }
        let (hp, hq) = (half(px, py), half(qx, qy))
        if hp != hq { return hp < hq }
        return Int128(px) * Int128(qy) - Int128(py) * Int128(qx) > 0
    }

    /// The origin of each half-edge, by position.
    private var origins: [Int32] {
        var origins = [Int32](repeating: 0, count: targets.count)
        for v in 0..<vertices.count { for h in starts[v]..<starts[v + 1] { origins[h] = Int32(v) } }
        return origins
    }

    /// The half-edge that follows `h` around the face on its left: at its target, the next
    /// half-edge clockwise from the way back.
    private func next(_ h: Int) -> Int {
        let back = Int(twin[h])
        let v = Int(targets[h])
        let (first, count) = (starts[v], starts[v + 1] - starts[v])
        return first + (back - first - 1 + count) % count
    }

    enum Traced {
        case polygons([[[ShapeVertex]]])
        case overBudget
        /// A hole no shell holds: the outline, rounded, no longer divides the plane cleanly.
        case inconsistent
    }

    /// The covered faces' boundaries as polygons (shell counter-clockwise, then its holes),
    /// widest first.
    func evenOddPolygons(budget: inout Int) -> Traced {
        let halfCount = targets.count
        guard halfCount > 0 else { return .polygons([]) }
        let origins = self.origins
        // The faces: cycles of half-edges, each face on the left of its own.
        var cycleOf = [Int32](repeating: -1, count: halfCount)
        var cycles: [[Int32]] = []
        for start in 0..<halfCount where cycleOf[start] < 0 {
            var cycle: [Int32] = []
            var h = start
            repeat {
                cycleOf[h] = Int32(cycles.count)
                cycle.append(Int32(h))
                h = next(h)
                budget -= 1
            } while h != start && budget >= 0
            guard budget >= 0 else { return .overBudget }
            cycles.append(cycle)
        }
        // Which faces are covered: the face around each connected piece of outline is found
        // by a ray from its westernmost vertex across the other pieces; across every half-edge
        // the cover changes.
        var component = [Int32](repeating: -1, count: vertices.count)
        var components: [Int32] = []  // a vertex of each, its westernmost
        for v in 0..<vertices.count where component[v] < 0 {
            var stack = [v]
            component[v] = Int32(components.count)
            var west = v
            while let u = stack.popLast() {
                let (a, b) = (vertices[u], vertices[west])
                if (a.longitude, a.latitude) < (b.longitude, b.latitude) { west = u }
                for h in starts[u]..<starts[u + 1] where component[Int(targets[h])] < 0 {
                    component[Int(targets[h])] = Int32(components.count)
                    stack.append(Int(targets[h]))
                }
            }
            components.append(Int32(west))
        }
        var covered = [Int8](repeating: -1, count: cycles.count)
        var queue: [Int32] = []
        for (c, west) in components.enumerated() {
            let m = Int(west)
            // The half-edge from the westernmost vertex turning furthest counter-clockwise has
            // the surrounding face on its left.
            var top = starts[m]
            for h in starts[m]..<starts[m + 1] where SegmentContact.orientation(vertices[m], vertices[Int(targets[top])], vertices[Int(targets[h])]) > 0 {
                top = h
            }
            budget -= halfCount
            guard budget >= 0 else { return .overBudget }
            var crossings = 0
            let (x, y) = (2 * Int64(vertices[m].longitude), 2 * Int64(vertices[m].latitude))
            for h in 0..<halfCount where h < Int(twin[h]) && component[Int(origins[h])] != Int32(c) {
                if PolygonRepair.crossesWest(vertices[Int(origins[h])], vertices[Int(targets[h])], x: x, y: y) { crossings += 1 }
            }
            let outer = Int(cycleOf[top])
            guard covered[outer] < 0 else { continue }
            covered[outer] = Int8(crossings % 2)
            queue.append(Int32(outer))
        }
        while let c = queue.popLast() {
            for h in cycles[Int(c)] {
                let other = Int(cycleOf[Int(twin[Int(h)])])
                if covered[other] < 0 {
                    covered[other] = 1 - covered[Int(c)]
                    queue.append(Int32(other))
                }
            }
        }
        // The covered faces' boundaries, each walk cut where it passes a vertex twice.
        var shells: [(ring: [ShapeVertex], area: Int128)] = []
        var holes: [(ring: [ShapeVertex], area: Int128)] = []
        var seenAt: [Int32: Int] = [:]
        for (c, cycle) in cycles.enumerated() where covered[c] == 1 {
            var stack: [Int32] = []
            seenAt.removeAll(keepingCapacity: true)
            func emit(_ loop: ArraySlice<Int32>) {
                guard loop.count >= 3 else { return }
                let ring = loop.map { vertices[Int($0)] }
                let area = Self.twiceArea(ring)
                if area > 0 { shells.append((ring, area)) } else if area < 0 { holes.append((ring, -area)) }
            }
            for h in cycle {
                let v = origins[Int(h)]
                if let at = seenAt[v] {
                    emit(stack[at...])
                    for u in stack[(at + 1)...] { seenAt[u] = nil }
                    stack.removeSubrange((at + 1)...)
                } else {
                    seenAt[v] = stack.count
                    stack.append(v)
                }
            }
            emit(stack[...])
        }
        // Each hole in the smallest shell that holds it.
        shells.sort { ($0.area, $0.ring[0].latitude, $0.ring[0].longitude) > ($1.area, $1.ring[0].latitude, $1.ring[0].longitude) }
        var polygons = shells.map { [$0.ring] }
        let boxes = shells.map { shell in
            shell.ring.reduce((Int32.max, Int32.max, Int32.min, Int32.min)) { box, v in
                (Swift.min(box.0, v.longitude), Swift.min(box.1, v.latitude), Swift.max(box.2, v.longitude), Swift.max(box.3, v.latitude))
            }
        }
        for hole in holes {
            let (x, y) = PolygonRepair.midpoint(hole.ring[0], hole.ring[1])
            var holder: Int?
            for s in shells.indices.reversed() {
                let box = boxes[s]
                guard 2 * Int64(box.0) <= x, x <= 2 * Int64(box.2), 2 * Int64(box.1) <= y, y <= 2 * Int64(box.3), shells[s].area > hole.area else { continue }
                budget -= shells[s].ring.count
                guard budget >= 0 else { return .overBudget }
                if PolygonRepair.crossingsWest(ofX: x, y: y, ring: shells[s].ring) % 2 == 1 { holder = s; break }
            }
            guard let holder else { return .inconsistent }
            polygons[holder].append(hole.ring)
        }
        return .polygons(polygons)
    }

    /// Twice the signed area a ring encloses: positive counter-clockwise.
    static func twiceArea(_ ring: [ShapeVertex]) -> Int128 {
        let origin = ring[0]
        var sum: Int128 = 0
        for i in ring.indices {
            let (a, b) = (ring[i], ring[(i + 1) % ring.count])
            let (ax, ay) = (Int128(a.longitude) - Int128(origin.longitude), Int128(a.latitude) - Int128(origin.latitude))
            let (bx, by) = (Int128(b.longitude) - Int128(origin.longitude), Int128(b.latitude) - Int128(origin.latitude))
            sum += ax * by - bx * ay
        }
        return sum
    }
}
