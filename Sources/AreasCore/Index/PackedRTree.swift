
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
    private let entryLatitudes: [Double]
    private let entryLongitudes: [Double]
    /// The entries when some entry is a true rectangle, else empty.
    private let entryBoxes: [GeoBox]
    private let nodeBoxes: [GeoBox]
    private let classes: [UInt8]
    /// Whether some entry has class mask 0, which no query returns. Without such entries, a
    /// leaf whose classes are all asked for admits every entry, and its classes go unread.
    private let hasClasslessEntries: Bool
    private let payloads: [UInt32]
    /// `levelEnds[l]` is one past the last position of level l; the root is the last position.
    private let levelEnds: [Int]
    /// `spans[l]` is how many entries a full node of level l covers (nodeSize^l).
    private let spans: [Int]
    /// The nodes' rectangles again, in single precision for vector distance bounds; node at
    /// position p is `p - count`. The box searches keep to `nodeBoxes`: a vector window test
    /// over these measured slower than the branch-free double-precision one.
    private let nodeBounds: NodeBounds

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
            entryLatitudes = []
            entryLongitudes = []
            entryBoxes = []
            nodeBoxes = []
            classes = []
            hasClasslessEntries = false
            payloads = []
            levelEnds = []
            spans = []
            nodeBounds = NodeBounds([], reference: GeoPoint(uncheckedLatitude: 0, longitude: 0))
            return
        }

        let order = TileOrder.order(of: entries, nodeSize: nodeSize)

        var ends = [n]
        var total = n
        var levelCount = n
        repeat {
            levelCount = (levelCount + nodeSize - 1) / nodeSize
            total += levelCount
            ends.append(total)
        } while levelCount > 1
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
        if sorted.allSatisfy({ $0.south == $0.north && $0.west == $0.east }) {
            // Padding repeats the last point: measured like any other, never reported.
            let padded = n + DistanceOrigin.haversineLanes - 1
            entryLatitudes = [Double](unsafeUninitializedCapacity: padded) { column, initialized in
                for i in 0..<padded { column[i] = sorted[Swift.min(i, n - 1)].south }
                initialized = padded
            }
            entryLongitudes = [Double](unsafeUninitializedCapacity: padded) { column, initialized in
                for i in 0..<padded { column[i] = sorted[Swift.min(i, n - 1)].west }
                initialized = padded
            }
            entryBoxes = []
        } else {
            entryLatitudes = []
            entryLongitudes = []
            entryBoxes = sorted
        }
        self.nodeBoxes = nodeBoxes
        self.classes = classes
        self.hasClasslessEntries = classes[..<n].contains(0)
        self.payloads = order
        self.levelEnds = ends
        var spans = [1]
        for _ in 1..<ends.count { spans.append(spans[spans.count - 1].multipliedReportingOverflow(by: nodeSize).partialValue) }
        self.spans = spans
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
    private func children(of position: Int) -> Range<Int> {
        children(of: position, level: level(of: position))
    }

    @inline(__always)
    private func level(of position: Int) -> Int {
        var level = 0
        while position >= levelEnds[level] { level += 1 }
        return level
    }

    @inline(__always)
    private func children(of position: Int, level: Int) -> Range<Int> {
        let levelStart = levelEnds[level - 1]
        let childLevelStart = level == 1 ? 0 : levelEnds[level - 2]
        let first = childLevelStart + (position - levelStart) * nodeSize
        return first..<Swift.min(first + nodeSize, levelEnds[level - 1])
    }

    /// How many entries lie under node `position` of `level`.
    @inline(__always)
    private func entryCount(under position: Int, level: Int) -> Int {
        let index = position - (level == 0 ? 0 : levelEnds[level - 1])
        let first = index * spans[level]
        return Swift.min(first + spans[level], count) - first
    }

    private var root: Int? { count == 0 ? nil : count + nodeBoxes.count - 1 }

    /// The entries, their classes and payloads, read in place.
    private struct EntryView {
        let latitudes: UnsafeBufferPointer<Double>
        let longitudes: UnsafeBufferPointer<Double>
        let boxes: UnsafeBufferPointer<GeoBox>
        let classes: UnsafeBufferPointer<UInt8>
        let payloads: UnsafeBufferPointer<UInt32>

        @inline(__always)
        subscript(position: Int) -> GeoBox {
            boxes.isEmpty
                ? GeoBox(GeoPoint(uncheckedLatitude: latitudes[position], longitude: longitudes[position]))
                : boxes[position]
        }

        /// Writes the smallest haversine term from `origin` to each entry of `positions` into
        /// `terms[0...]` (with up to `haversineLanes - 1` more values after them).
        @inline(__always)
        func haversineLowerBounds(from origin: DistanceOrigin, positions: Range<Int>, into terms: UnsafeMutablePointer<Double>) {
            if boxes.isEmpty {
                origin.haversines(latitudes: latitudes.baseAddress.unsafelyUnwrapped + positions.lowerBound,
                                  longitudes: longitudes.baseAddress.unsafelyUnwrapped + positions.lowerBound,
                                  count: positions.count, into: terms)
            } else {
                for position in positions { terms[position - positions.lowerBound] = origin.haversineLowerBound(to: boxes[position]) }
            }
        }

        /// Calls `body` with the offset of each of the first `count` of `terms` at or below
        /// `limit`, in order, until it returns false (and then returns false).
        ///
        /// Which terms qualify is gathered without a branch, 64 at a time, and only those are
        /// visited: a leaf that a radius cuts in two used to cost a mispredicted branch for
        /// about every other entry.
        @inline(__always)
        static func forEachTerm(_ terms: UnsafePointer<Double>, count: Int, atMost limit: Double, _ body: (Int) -> Bool) -> Bool {
            var chunk = 0
            while chunk < count {
                let end = Swift.min(chunk &+ 64, count)
                var hits: UInt64 = 0
                var term = terms + chunk
                for shift in 0..<UInt64(truncatingIfNeeded: end &- chunk) {
                    hits |= UInt64(truncatingIfNeeded: (term.pointee <= limit).bit) &<< shift
                    term += 1
                }
                while hits != 0 {
                    let offset = chunk &+ hits.trailingZeroBitCount
                    hits &= hits &- 1
                    if !body(offset) { return false }
                }
                chunk = end
            }
            return true
        }

        /// Starts loading the entries of `positions`.
        @inline(__always)
        func prefetch(_ positions: Range<Int>) {
            if let latitudes = latitudes.baseAddress, let longitudes = longitudes.baseAddress {
                MemoryHints.prefetch(latitudes + positions.lowerBound, bytes: positions.count * 8)
                MemoryHints.prefetch(longitudes + positions.lowerBound, bytes: positions.count * 8)
            } else if let boxes = boxes.baseAddress {
                MemoryHints.prefetch(boxes + positions.lowerBound, bytes: positions.count * MemoryLayout<GeoBox>.stride)
            }
            MemoryHints.prefetch(payloads.baseAddress.unsafelyUnwrapped + positions.lowerBound, bytes: positions.count * 4)
        }
    }

    @inline(__always)
    private func withEntries<Result>(_ body: (EntryView) -> Result) -> Result {
        entryLatitudes.withUnsafeBufferPointer { latitudes in
            entryLongitudes.withUnsafeBufferPointer { longitudes in
                entryBoxes.withUnsafeBufferPointer { boxes in
                    classes.withUnsafeBufferPointer { classes in
                        payloads.withUnsafeBufferPointer { payloads in
                            body(EntryView(latitudes: latitudes, longitudes: longitudes, boxes: boxes, classes: classes, payloads: payloads))
                        }
                    }
                }
            }
        }
    }

    /// Room for the terms of one leaf's entries, measured in whole vector steps.
    private var leafTermCapacity: Int {
        (nodeSize + DistanceOrigin.haversineLanes - 1) / DistanceOrigin.haversineLanes * DistanceOrigin.haversineLanes
    }

    /// Whether every entry of leaf `node` is of a class in `classMask`, so none needs its own test.
    @inline(__always)
    private func admitsEveryEntry(ofLeaf node: Int, classMask: UInt8, classes: UnsafeBufferPointer<UInt8>) -> Bool {
        !hasClasslessEntries && classes[node] & ~classMask == 0
    }

    // MARK: Queries

    /// Payloads of every entry of the given classes whose rectangle meets `box` (edges
    /// inclusive), at most `limit` of them, in no particular order.
    public func search(intersecting box: GeoBox, classMask: UInt8 = 0xFF, limit: Int = .max) -> [UInt32] {
        search(intersecting: box, classMask: classMask, limit: limit, filter: AdmitAll())
    }

    public func search<Filter: EntryFilter>(intersecting box: GeoBox, classMask: UInt8 = 0xFF, limit: Int = .max, filter: Filter) -> [UInt32] {
        guard limit > 0 else { return [] }
        var found = ScratchBuffer<UInt32>(capacity: 64)
        forEach(intersecting: box, classMask: classMask, filter: filter) { payload in
            found.append(payload)
            return found.count < limit
        }
        return Array(found.elements)
    }

    /// Calls `visit` with the payload of every entry of the given classes whose rectangle meets
    /// `box` (edges inclusive), until it returns false. Nothing is collected on the way.
    @inline(__always)
    public func forEach<Filter: EntryFilter>(intersecting box: GeoBox, classMask: UInt8 = 0xFF, filter: Filter, _ visit: (UInt32) -> Bool) {
        depthFirst(classMask: classMask, descend: { $0.intersects(box) }) { entries, leaf, admitted in
            for position in leaf where (admitted || entries.classes[position] & classMask != 0) && entries[position].intersects(box) {
                let payload = entries.payloads[position]
                if filter.admits(payload) && !visit(payload) { return false }
            }
            return true
        }
    }

    /// Walks down through every node of the given classes that `descend` accepts and hands the
    /// entries of each leaf it reaches to `visit` (with the entries, so a caller can read a
    /// point as a point), until that returns false. Classes are the caller's to check, unless
    /// `admitted` says every entry of the leaf is of a class asked for.
    @inline(__always)
    private func depthFirst(classMask: UInt8, descend: (GeoBox) -> Bool,
                            _ visit: (_ entries: EntryView, _ leaf: Range<Int>, _ admitted: Bool) -> Bool) {
        guard let root else { return }
        withEntries { entries in
            nodeBoxes.withUnsafeBufferPointer { nodeBoxes in
                // A node waits as its level (upper half) beside its position (lower half).
                var stack = ScratchBuffer<UInt64>(capacity: 64)
                stack.append(UInt64(levelEnds.count - 1) << 32 | UInt64(root))
                while let waiting = stack.popLast() {
                    let node = Int(truncatingIfNeeded: waiting & 0xFFFF_FFFF)
                    let level = Int(truncatingIfNeeded: waiting >> 32)
                    if level == 1 {
                        let admitted = admitsEveryEntry(ofLeaf: node, classMask: classMask, classes: entries.classes)
                        if !visit(entries, children(of: node, level: 1), admitted) { return }
                        continue
                    }
                    for position in children(of: node, level: level)
                    where entries.classes[position] & classMask != 0 && descend(nodeBoxes[position - count]) {
                        stack.append(UInt64(level - 1) << 32 | UInt64(position))
                        // The misses of the nodes just chosen overlap instead of following one another.
                        let grandchildren = children(of: position, level: level - 1)
                        if level == 2 {
                            entries.prefetch(grandchildren)
                        } else {
                            MemoryHints.prefetch(nodeBoxes.baseAddress.unsafelyUnwrapped + (grandchildren.lowerBound - count),
                                          bytes: grandchildren.count * MemoryLayout<GeoBox>.stride)
                        }
                    }
                }
            }
        }
    }

    /// Every entry of the given classes within `meters` of `point`, nearest first, ties by payload;
    /// at most `limit`.
    public func search(within meters: Double, of point: GeoPoint, classMask: UInt8 = 0xFF, limit: Int = .max) -> [Neighbor] {
        search(within: meters, of: point, classMask: classMask, limit: limit, filter: AdmitAll())
    }

    public func search<Filter: EntryFilter>(within meters: Double, of point: GeoPoint, classMask: UInt8 = 0xFF, limit: Int = .max, filter: Filter) -> [Neighbor] {
        guard limit > 0 else { return [] }
        var found = ScratchBuffer<Neighbor>(capacity: 128)
        forEach(within: meters, of: DistanceOrigin(point), classMask: classMask, filter: filter) { payload, distance in
            found.append(Neighbor(payload: payload, distanceMeters: distance))
            return true
        }
        var result = NeighborSort.sorted(found.elements, farthest: meters)
        if result.count > limit { result.removeSubrange(limit...) }
        return result
    }

    /// Calls `visit` with the payload and distance of every entry of the given classes within
    /// `meters` of `origin`, in no particular order, until it returns false.
    @inline(__always)
    func forEach<Filter: EntryFilter>(within meters: Double, of origin: DistanceOrigin, classMask: UInt8 = 0xFF, filter: Filter,
                                      _ visit: (_ payload: UInt32, _ distanceMeters: Double) -> Bool) {
        guard count > 0 else { return }
        let limitH = Self.prunableHaversine(meters: meters)
        // Four comparisons reject most of what lies outside the circle before any trigonometry.
        guard var reach = try? Geodesy.boundingBox(around: origin.point, meters: meters) else { return }
        if reach.west <= -180 || reach.east >= 180 {
            // Clamped at the antimeridian: the circle continues on the far side.
            reach.west = -180
            reach.east = 180
        }
        withUnsafeTemporaryAllocation(of: Double.self, capacity: leafTermCapacity) { terms in
            let terms = terms.baseAddress.unsafelyUnwrapped
            depthFirst(classMask: classMask, descend: { $0.intersects(reach) && origin.quickHaversineLowerBound(to: $0) <= limitH }) { entries, leaf, admitted in
                entries.haversineLowerBounds(from: origin, positions: leaf, into: terms)
                return EntryView.forEachTerm(terms, count: leaf.count, atMost: limitH) { offset in
                    let position = leaf.lowerBound &+ offset
                    guard admitted || entries.classes[position] & classMask != 0 else { return true }
                    let payload = entries.payloads[position]
                    guard filter.admits(payload) else { return true }
                    let distance = Geodesy.meters(haversine: terms[offset])
                    return distance > meters || visit(payload, distance)
                }
            }
        }
    }

    /// The `k` entries of the given classes nearest to `point` (within `maxMeters` if given),
    /// nearest first, ties by payload.
    ///
    /// Best-first branch and bound: nodes wait in one queue keyed by the smallest distance
    /// anything under them could have; a leaf taken from it has its entries measured exactly
    /// into the k best so far, and the search stops when the next node cannot hold anything
    /// nearer than the k-th of those.
    public func nearest(to point: GeoPoint, k: Int, maxMeters: Double? = nil, classMask: UInt8 = 0xFF) -> [Neighbor] {
        nearest(to: point, k: k, maxMeters: maxMeters, classMask: classMask, filter: AdmitAll())
    }

    public func nearest<Filter: EntryFilter>(to point: GeoPoint, k: Int, maxMeters: Double? = nil, classMask: UInt8 = 0xFF, filter: Filter) -> [Neighbor] {
        nearest(from: DistanceOrigin(point), k: k, maxMeters: maxMeters, classMask: classMask, filter: filter)
    }

    /// The same, from an origin whose trigonometry the caller has already done.
    func nearest<Filter: EntryFilter>(from origin: DistanceOrigin, k: Int, maxMeters: Double? = nil, classMask: UInt8 = 0xFF, filter: Filter) -> [Neighbor] {
        guard let root, k > 0 else { return [] }
        let limitMeters = maxMeters ?? .infinity
        let limitH = maxMeters.map(Self.prunableHaversine) ?? .infinity
        var best = NearestCandidates(k: Swift.min(k, count))
        let vectorOrigin = nodeBounds.origin(origin)
        let keyCapacity = (nodeSize + NodeBounds.lanes - 1) / NodeBounds.lanes * NodeBounds.lanes
        // A lower bound per child of the node being opened, an upper bound while the k best are
        // still being gathered, the terms of a leaf's entries, and the children passed over on
        // the first way down.
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * keyCapacity) { keys in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: leafTermCapacity) { terms in
                withUnsafeTemporaryAllocation(of: SearchQueue.Element.self, capacity: levelEnds.count * nodeSize) { passed in
                    withEntries { entries in
                        let keys = keys.baseAddress.unsafelyUnwrapped
                        let ceilings = keys + keyCapacity
                        let terms = terms.baseAddress.unsafelyUnwrapped
                        let classes = entries.classes
                        let payloads = entries.payloads
                        var queue = SearchQueue(capacity: 8 * nodeSize)
                        // Nothing with a haversine term above `bound` can enter the k best. It falls
                        // from maxMeters to the k-th best's term, and before k are found, to the
                        // farthest point of any node that holds k entries that all qualify.
                        var bound = limitH
                        let seekCeilings = filter.admitsAll
                        var passedCount = 0
                        // The node to open next when it is known without asking the queue: first
                        // the leaf the way down reached, then the nearest child of the node just
                        // opened, when nothing waiting is nearer.
                        var next = firstDescent(from: root, origin: vectorOrigin, k: k, classMask: classMask, classes: classes, seekCeilings: seekCeilings,
                                                keys: keys, ceilings: ceilings, passed: passed.baseAddress.unsafelyUnwrapped,
                                                passedCount: &passedCount, bound: &bound)
                        while true {
                            guard let element = next ?? queueFront(&queue, passed: passed.baseAddress.unsafelyUnwrapped,
                                                                   passedCount: &passedCount, bound: bound, entries: entries)
                            else { break }
                            next = nil
                            guard Double(element.key) <= bound else { break }
                            let node = element.position
                            let level = level(of: node)
                            if level == 1 {
                                let leaf = children(of: node, level: 1)
                                entries.haversineLowerBounds(from: origin, positions: leaf, into: terms)
                                let admitted = admitsEveryEntry(ofLeaf: node, classMask: classMask, classes: classes)
                                for position in leaf where terms[position &- leaf.lowerBound] <= bound && (admitted || classes[position] & classMask != 0) {
                                    guard filter.admits(payloads[position]) else { continue }
                                    let distance = Geodesy.meters(haversine: terms[position &- leaf.lowerBound])
                                    guard distance <= limitMeters else { continue }
                                    guard best.insert(Neighbor(payload: payloads[position], distanceMeters: distance)) else { continue }
                                    if best.isFull {
                                        // Padded so an entry as far as the k-th, but with a smaller id, still gets in.
                                        bound = Swift.min(bound, Geodesy.haversine(meters: best.worst.distanceMeters) * (1 + 1e-9) + 1e-300)
                                    }
                                }
                                continue
                            }
                            let children = children(of: node, level: level)
                            let seekingCeiling = !best.isFull && seekCeilings
                            // A child holds k entries when a full one does, unless it is the last, partial one of its level.
                            let childrenHoldK = seekingCeiling && spans[level - 1] >= k
                            let lastOfLevel = levelEnds[level - 1] - 1
                            nodeBounds.bounds(first: children.lowerBound - count, count: children.count, from: vectorOrigin,
                                              lower: keys, upper: seekingCeiling ? ceilings : nil)
                            var nearest: SearchQueue.Element?
                            for position in children where classes[position] & classMask != 0 {
                                let key = keys[position &- children.lowerBound]
                                let h = Double(key)
                                guard h <= bound else { continue }
                                let child = SearchQueue.Element(key: key, position: position)
                                // A leaf that may be opened soon: start loading its entries.
                                if level == 2 { entries.prefetch(self.children(of: position, level: 1)) }
                                if let current = nearest, current.key <= key {
                                    queue.push(child)
                                } else {
                                    if let current = nearest { queue.push(current) }
                                    nearest = child
                                }
                                if childrenHoldK, classes[position] & ~classMask == 0,
                                   position != lastOfLevel || entryCount(under: position, level: level - 1) >= k {
                                    bound = Swift.min(bound, Double(ceilings[position &- children.lowerBound]))
                                }
                            }
                            // The way down to the first leaf then needs no queue at all.
                            if let nearest {
                                if let waiting = queue.minimumKey, waiting < nearest.key {
                                    queue.push(nearest)
                                } else {
                                    next = nearest
                                }
                            }
                        }
                    }
                }
            }
        }
        return best.sorted()
    }

    /// The first way down of a nearest search, from `root` into the nearest child of each node
    /// to a leaf, which it returns unless no child on the way is of a class asked for or the
    /// leaf lies beyond `bound`.
    ///
    /// Every other child it passes goes to `passed` unordered, to join the search's queue only
    /// once that leaf has set a bound: most of them then lie beyond it and never need a place
    /// in the queue. `bound` falls to the farthest point of any child that holds k entries.
    @inline(never)
    private func firstDescent(from root: Int, origin: NodeBounds.Origin, k: Int, classMask: UInt8, classes: UnsafeBufferPointer<UInt8>, seekCeilings: Bool,
                              keys: UnsafeMutablePointer<Float>, ceilings: UnsafeMutablePointer<Float>,
                              passed: UnsafeMutablePointer<SearchQueue.Element>, passedCount: inout Int, bound: inout Double) -> SearchQueue.Element? {
        var node = root
        var key: Float = 0
        // A leaf's worth of k is found by the leaf this reaches, far closer than any ceiling.
        let seekCeilings = seekCeilings && k > nodeSize
        for level in stride(from: levelEnds.count - 1, to: 1, by: -1) {
            let children = children(of: node, level: level)
            let childrenHoldK = seekCeilings && spans[level - 1] >= k
            let lastOfLevel = levelEnds[level - 1] - 1
            nodeBounds.bounds(first: children.lowerBound - count, count: children.count, from: origin,
                              lower: keys, upper: childrenHoldK ? ceilings : nil)
            if !childrenHoldK && classes[node] & ~classMask == 0 {
                // Every child is of a class asked for: the nearest is found, and the others
                // passed, without a branch on which one it is.
                var nearestOffset = 0
                var nearestKey = keys[0]
                for offset in 1..<children.count {
                    let closer = keys[offset] < nearestKey
                    nearestKey = closer ? keys[offset] : nearestKey
                    nearestOffset = closer ? offset : nearestOffset
                }
                for offset in 0..<children.count {
                    passed[passedCount] = SearchQueue.Element(key: keys[offset], position: children.lowerBound &+ offset)
                    passedCount &+= Int(truncatingIfNeeded: (offset != nearestOffset).bit)
                }
                node = children.lowerBound &+ nearestOffset
                key = nearestKey
                continue
            }
            var nearest = -1
            var nearestKey = Float.infinity
            for position in children where classes[position] & classMask != 0 {
                let childKey = keys[position &- children.lowerBound]
                if childKey < nearestKey {
                    if nearest >= 0 { passed[passedCount] = SearchQueue.Element(key: nearestKey, position: nearest); passedCount &+= 1 }
                    nearest = position
                    nearestKey = childKey
                } else {
                    passed[passedCount] = SearchQueue.Element(key: childKey, position: position)
                    passedCount &+= 1
                }
                if childrenHoldK, classes[position] & ~classMask == 0,
                   position != lastOfLevel || entryCount(under: position, level: level - 1) >= k {
                    bound = Swift.min(bound, Double(ceilings[position &- children.lowerBound]))
                }
            }
            guard nearest >= 0 else { return nil }
            node = nearest
            key = nearestKey
        }
        // A sibling passed higher up may be nearer than this leaf: it must wait its turn.
        return Double(key) <= bound ? SearchQueue.Element(key: key, position: node) : nil
    }

    /// The next node of a nearest search from its queue, once the children passed on the first
    /// way down that `bound` has not ruled out have joined it.
    @inline(__always)
    private func queueFront(_ queue: inout SearchQueue, passed: UnsafeMutablePointer<SearchQueue.Element>, passedCount: inout Int,
                            bound: Double, entries: EntryView) -> SearchQueue.Element? {
        if passedCount > 0 {
            for i in 0..<passedCount where Double(passed[i].key) <= bound {
                queue.push(passed[i])
                // A leaf this close is likely opened soon: start loading its entries.
                if passed[i].position < levelEnds[1] { entries.prefetch(children(of: passed[i].position, level: 1)) }
            }
            passedCount = 0
        }
        return queue.pop()
    }

    /// A haversine bound just above `meters`, safe for pruning despite rounding; the exact
    /// comparison is made in meters on each entry.
    private static func prunableHaversine(meters: Double) -> Double {
        Geodesy.haversine(meters: meters) * (1 + 1e-9) + 1e-300
    }
}

extension Bool {
    /// 1 for true, 0 for false, without a branch.
    @inline(__always)
    fileprivate var bit: UInt8 { unsafeBitCast(self, to: UInt8.self) }
}
