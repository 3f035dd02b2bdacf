
/// A static R-tree packed into flat arrays, built once per data set and never mutated.
///
/// Entries are rectangles (a point is a rectangle of zero size), each with a `UInt32` payload
/// (its position in the caller's array) and an 8-bit class mask used to prune whole subtrees
/// that hold no entry of the classes a query asks for. Entries are ordered by sort-tile-recursive
/// tiling (`TileOrder`) and grouped `nodeSize` at a time, level by level up to one root.
///
/// Layout: positions number every level one after another, the entries first (level 0) and the
/// root last; a node's children are the `nodeSize` positions at the same offset in the level
/// below, so no child pointers are stored. Positions below `count` are entries, kept as two
/// coordinate columns when every entry is a point (16 bytes where a rectangle takes 32, and a
/// leaf is measured four points at a time), the rest are nodes, at `position - count` in
/// `nodeBoxes`.
///
/// Ties in distance are broken by the smaller payload: build from an array sorted by id and
/// results come out in (distance, id) order.
public struct PackedRTree: Sendable {
    public let nodeSize: Int
    /// The number of entries.
    public let count: Int
    /// The entries by column when every entry is a point, else empty; padded so a leaf can be
    /// measured in whole vector steps (`DistanceOrigin.haversines`).
    let entryLatitudes: Column<Double>
    let entryLongitudes: Column<Double>
    /// The entries when some entry is a true rectangle, else empty.
    let entryBoxes: Column<GeoBox>
    let nodeBoxes: Column<GeoBox>
    let classes: Column<UInt8>
    /// Whether some entry has class mask 0, which no query returns. Without such entries, a
    /// leaf whose classes are all asked for admits every entry, and its classes go unread.
    let hasClasslessEntries: Bool
    let payloads: Column<UInt32>
    /// `levelEnds[l]` is one past the last position of level l; the root is the last position.
    let levelEnds: [Int]
    /// `spans[l]` is how many entries a full node of level l covers (nodeSize^l).
    let spans: [Int]
    /// The nodes' rectangles again, in single precision for vector distance bounds; node at
    /// position p is `p - count`. The box searches keep to `nodeBoxes`: a vector window test
    /// over these measured slower than the branch-free double-precision one.
    let nodeBounds: NodeBounds

    /// A neighbour found by a distance query. Ordered nearest first, ties by payload.
    public struct Neighbor: Sendable, Hashable, Comparable, BitwiseCopyable {
        public var payload: UInt32
        public var distanceMeters: Double

        @inlinable
        public init(payload: UInt32, distanceMeters: Double) {
            self.payload = payload
            self.distanceMeters = distanceMeters
        }

        @inlinable
        public static func < (a: Neighbor, b: Neighbor) -> Bool {
            // Distances settle nearly every comparison; the payload is read only on a tie.
            a.distanceMeters < b.distanceMeters || (a.distanceMeters == b.distanceMeters && a.payload < b.payload)
        }
    }

    /// Children per node unless configured otherwise.
    public static let defaultNodeSize = 16

    /// Builds the tree over `entries`; entry i gets payload i and class mask `classes[i]`
    /// (all ones when `classes` is empty). `nodeSize` is clamped to 2...4096.
    public init(entries: [GeoBox], classes entryClasses: [UInt8] = [], nodeSize: Int = PackedRTree.defaultNodeSize) {
        precondition(entries.count < Int(UInt32.max), "a tree holds fewer than 2^32 entries")
        precondition(entryClasses.isEmpty || entryClasses.count == entries.count)
        let nodeSize = Swift.min(Swift.max(nodeSize, 2), 4096)
        self.nodeSize = nodeSize
        self.count = entries.count
        let n = entries.count
        guard n > 0 else {
            entryLatitudes = Column()
            entryLongitudes = Column()
            entryBoxes = Column()
            nodeBoxes = Column()
            classes = Column()
            hasClasslessEntries = false
            payloads = Column()
            levelEnds = []
            spans = []
            nodeBounds = NodeBounds([], reference: GeoPoint(uncheckedLatitude: 0, longitude: 0))
            return
        }

        let order = TileOrder.order(of: entries, nodeSize: nodeSize)

        let (ends, spans) = Self.levels(count: n, nodeSize: nodeSize)
        let total = ends[ends.count - 1]
        // Searches keep a position in 32 bits beside its key or level.
        precondition(total <= Int(UInt32.max), "a tree holds fewer than 2^32 entries and nodes")

        let sorted = order.map { entries[Int($0)] }
        var classes = [UInt8]()
        classes.reserveCapacity(total)
        for position in order {
            classes.append(entryClasses.isEmpty ? 0xFF : entryClasses[Int(position)])
        }
        var nodeBoxes = [GeoBox]()
        nodeBoxes.reserveCapacity(total - n)
        for level in 1..<ends.count {
            let start = level == 1 ? 0 : ends[level - 2]
            let end = ends[level - 1]
            var child = start
            while child < end {
                let last = Swift.min(child + nodeSize, end)
                var box = level == 1 ? sorted[child] : nodeBoxes[child - n]
                var mask = classes[child]
                for c in (child + 1)..<last {
                    box = box.union(level == 1 ? sorted[c] : nodeBoxes[c - n])
                    mask |= classes[c]
                }
                nodeBoxes.append(box)
                classes.append(mask)
                child = last
            }
        }
        let extent = nodeBoxes[nodeBoxes.count - 1]  // the root's box
        self.nodeBounds = NodeBounds(nodeBoxes[...], reference: GeoPoint(
            uncheckedLatitude: (extent.south + extent.north) / 2, longitude: (extent.west + extent.east) / 2))
        if sorted.allSatisfy(\.isPoint) {
            // Padding repeats the last point: measured like any other, never reported.
            let padded = n + DistanceOrigin.haversineLanes - 1
            entryLatitudes = Column(unsafeUninitializedCount: padded) { column in
                for i in 0..<padded { column[i] = sorted[Swift.min(i, n - 1)].south }
            }
            entryLongitudes = Column(unsafeUninitializedCount: padded) { column in
                for i in 0..<padded { column[i] = sorted[Swift.min(i, n - 1)].west }
            }
            entryBoxes = Column()
        } else {
            entryLatitudes = Column()
            entryLongitudes = Column()
            entryBoxes = Column(sorted)
        }
        self.nodeBoxes = Column(nodeBoxes)
        self.classes = Column(classes)
        self.hasClasslessEntries = classes[..<n].contains(0)
        self.payloads = Column(order)
        self.levelEnds = ends
        self.spans = spans
    }

    /// A tree from its columns, checked by the caller (`init(reading:count:payloadLimit:)`).
    init(nodeSize: Int, count: Int, entryLatitudes: Column<Double>, entryLongitudes: Column<Double>, entryBoxes: Column<GeoBox>,
         nodeBoxes: Column<GeoBox>, classes: Column<UInt8>, payloads: Column<UInt32>, levelEnds: [Int], spans: [Int], nodeBounds: NodeBounds) {
        self.nodeSize = nodeSize
        self.count = count
        self.entryLatitudes = entryLatitudes
        self.entryLongitudes = entryLongitudes
        self.entryBoxes = entryBoxes
        self.nodeBoxes = nodeBoxes
        self.classes = classes
        self.hasClasslessEntries = classes[..<count].contains(0)
        self.payloads = payloads
        self.levelEnds = levelEnds
        self.spans = spans
        self.nodeBounds = nodeBounds
    }

    /// Where each level of a tree of `count` entries ends (entries first, the root last), and
    /// how many entries a full node of each level covers.
    static func levels(count: Int, nodeSize: Int) -> (ends: [Int], spans: [Int]) {
        guard count > 0 else { return ([], []) }
        var ends = [count]
        var total = count
        var levelCount = count
        repeat {
            levelCount = (levelCount + nodeSize - 1) / nodeSize
            total += levelCount
            ends.append(total)
        } while levelCount > 1
        var spans = [1]
        for _ in 1..<ends.count { spans.append(spans[spans.count - 1].multipliedReportingOverflow(by: nodeSize).partialValue) }
        return (ends, spans)
    }

    /// Bytes held by the tree's arrays (not the caller's records).
    public var byteCount: Int {
        (entryLatitudes.count + entryLongitudes.count) * 8 + (entryBoxes.count + nodeBoxes.count) * MemoryLayout<GeoBox>.stride
            + classes.count + payloads.count * 4
            + levelEnds.count * 8 + nodeBounds.byteCount
    }

    // MARK: Navigation

    /// The children of node `position`, as a range of positions in the level below.
    @inline(__always)
    func children(of position: Int) -> Range<Int> {
        children(of: position, level: level(of: position))
    }

    @inline(__always)
    func level(of position: Int) -> Int {
        var level = 0
        while position >= levelEnds[level] { level += 1 }
        return level
    }

    @inline(__always)
    func children(of position: Int, level: Int) -> Range<Int> {
        let levelStart = levelEnds[level - 1]
        let childLevelStart = level == 1 ? 0 : levelEnds[level - 2]
        let first = childLevelStart + (position - levelStart) * nodeSize
        return first..<Swift.min(first + nodeSize, levelEnds[level - 1])
    }

    /// How many entries lie under node `position` of `level`.
    @inline(__always)
    func entryCount(under position: Int, level: Int) -> Int {
        let index = position - (level == 0 ? 0 : levelEnds[level - 1])
        let first = index * spans[level]
        return Swift.min(first + spans[level], count) - first
    }

    var root: Int? { count == 0 ? nil : count + nodeBoxes.count - 1 }
}
