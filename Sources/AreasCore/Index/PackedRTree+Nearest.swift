extension PackedRTree {
    /// The `k` entries of the given classes nearest to `point` (within `maxMeters` if given),
    /// nearest first, ties by payload.
    ///
    /// Best-first branch and bound (`NearestSearch`): nodes wait in one queue keyed by the
    /// smallest distance anything under them could have; a leaf taken from it has its entries
    /// measured exactly into the k best so far, and the search stops when the next node cannot
    /// hold anything nearer than the k-th of those.
    ///
    /// - Complexity: O(log n + k log k) node visits on well-spread data: the way down to the
    ///   nearest leaf, then only the nodes whose bound beats the k-th best. A far `maxMeters`
    ///   with a rare class can visit every node.
    public func nearest(to point: GeoPoint, k: Int, maxMeters: Double? = nil, classMask: UInt8 = 0xFF) -> [Neighbor] {
        nearest(to: point, k: k, maxMeters: maxMeters, classMask: classMask, filter: AdmitAll())
    }

    public func nearest<Filter: EntryFilter>(to point: GeoPoint, k: Int, maxMeters: Double? = nil, classMask: UInt8 = 0xFF, filter: Filter) -> [Neighbor] {
        nearest(from: DistanceOrigin(point), k: k, maxMeters: maxMeters, classMask: classMask, filter: filter)
    }

    /// The same, from an origin whose trigonometry the caller has already done.
    func nearest<Filter: EntryFilter>(from origin: DistanceOrigin, k: Int, maxMeters: Double? = nil, classMask: UInt8 = 0xFF, filter: Filter) -> [Neighbor] {
        guard let root, k > 0 else { return [] }
        // The scratch memory lives on the stack for the search's lifetime, in pieces small
        // enough for that (a larger request goes to the heap, and a heap block per query costs
        // more than the rest of the set-up).
        let layout = NearestSearch.Layout(self)
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * layout.keyCapacity) { keys in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: layout.termCapacity) { terms in
                withUnsafeTemporaryAllocation(of: SearchQueue.Element.self, capacity: layout.passedCapacity) { passed in
                    var search = NearestSearch(
                        tree: self, keys: keys, terms: terms, passed: passed, origin: origin, k: k, maxMeters: maxMeters,
                        classMask: classMask, seekCeilings: filter.admitsAll)
                    withEntries { entries in
                        search.run(in: self, from: root, entries: entries, filter: filter)
                    }
                    return search.finish()
                }
            }
        }
    }
}

/// One nearest-neighbour search over a `PackedRTree`: its bound, its queue, the k best so far,
/// and the scratch memory every step reuses, sized for the tree at the start and lent by the
/// caller for the search's lifetime. It cannot be copied: two copies would share that memory.
struct NearestSearch: ~Copyable {
    let origin: DistanceOrigin
    let vectorOrigin: NodeBounds.Origin
    let k: Int
    let classMask: UInt8
    let limitMeters: Double
    /// Whether a node that holds k entries of the classes asked for sets a bound by its
    /// farthest point: only when no filter can refuse them.
    let seekCeilings: Bool
    /// Nothing with a haversine term above this can enter the k best. It falls from maxMeters
    /// to the k-th best's term and, before k are found, to the farthest point of any node that
    /// holds k entries that all qualify.
    var bound: Double
    var best: NearestCandidates
    var queue: SearchQueue
    /// The node to open next when it is known without asking the queue: first the leaf the way
    /// down reached, then the nearest child of the node just opened, when nothing waiting is
    /// nearer.
    var next: SearchQueue.Element?

    /// A lower bound per child of the node being opened (`keyCapacity` of them).
    let keys: UnsafeMutablePointer<Float>
    /// An upper bound per child, while the k best are still being gathered (`keyCapacity`).
    let ceilings: UnsafeMutablePointer<Float>
    /// The haversine terms of one leaf's entries (`leafTermCapacity`).
    let terms: UnsafeMutablePointer<Double>
    /// The children passed over on the first way down, one level's siblings per level.
    let passed: UnsafeMutablePointer<SearchQueue.Element>
    var passedCount = 0

    /// The scratch memory's sizes: bounds for a node's children (whole vector lanes), terms for
    /// a leaf's entries (whole vector steps), and every level's passed siblings.
    struct Layout {
        let keyCapacity: Int
        let termCapacity: Int
        let passedCapacity: Int

        init(_ tree: borrowing PackedRTree) {
            keyCapacity = (tree.nodeSize + NodeBounds.lanes - 1) / NodeBounds.lanes * NodeBounds.lanes
            termCapacity = tree.leafTermCapacity
            passedCapacity = tree.levelEnds.count * tree.nodeSize
        }
    }

    /// A search over `tree` working in memory lent for its lifetime: `keys` holds two bounds per
    /// child of a node, `terms` one per entry of a leaf, `passed` every level's siblings, each
    /// at least as `Layout` says.
    init(tree: borrowing PackedRTree, keys: UnsafeMutableBufferPointer<Float>, terms: UnsafeMutableBufferPointer<Double>,
         passed: UnsafeMutableBufferPointer<SearchQueue.Element>, origin: DistanceOrigin, k: Int,
         maxMeters: Double?, classMask: UInt8, seekCeilings: Bool) {
        let layout = Layout(tree)
        // Vector steps read and write whole lanes: each buffer is a multiple of them.
        precondition(layout.keyCapacity >= tree.nodeSize && layout.keyCapacity % NodeBounds.lanes == 0)
        precondition(layout.termCapacity >= tree.nodeSize && layout.termCapacity % DistanceOrigin.haversineLanes == 0)
        precondition(keys.count >= 2 * layout.keyCapacity && terms.count >= layout.termCapacity && passed.count >= layout.passedCapacity,
                     "a nearest search's scratch memory is smaller than its layout")
        self.origin = origin
        vectorOrigin = tree.nodeBounds.origin(origin)
        self.k = k
        self.classMask = classMask
        limitMeters = maxMeters ?? .infinity
        bound = maxMeters.map(PackedRTree.prunableHaversine) ?? .infinity
        self.seekCeilings = seekCeilings
        best = NearestCandidates(k: Swift.min(k, tree.count))
        queue = SearchQueue(capacity: 8 * tree.nodeSize)
        self.keys = keys.baseAddress.unsafelyUnwrapped
        ceilings = self.keys + layout.keyCapacity
        self.terms = terms.baseAddress.unsafelyUnwrapped
        self.passed = passed.baseAddress.unsafelyUnwrapped
    }

    /// The neighbours found, nearest first.
    mutating func finish() -> [PackedRTree.Neighbor] {
        best.sorted()
    }

    /// Opens nodes nearest first until none left can beat the k-th best.
    mutating func run<Filter: EntryFilter>(in tree: borrowing PackedRTree, from root: Int, entries: PackedRTree.EntryView, filter: Filter) {
        next = firstDescent(in: tree, from: root, classes: entries.classes)
        while true {
            guard let element = next ?? queueFront(in: tree, entries: entries) else { return }
            next = nil
            guard Double(element.key) <= bound else { return }
            let node = element.position
            let level = tree.level(of: node)
            if level == 1 {
                openLeaf(node, in: tree, entries: entries, filter: filter)
            } else {
                openNode(node, level: level, in: tree, entries: entries)
            }
        }
    }

    /// Measures the entries of leaf `node` into the k best.
    @inline(__always)
    private mutating func openLeaf<Filter: EntryFilter>(_ node: Int, in tree: borrowing PackedRTree, entries: PackedRTree.EntryView, filter: Filter) {
        let leaf = tree.children(of: node, level: 1)
        entries.haversineLowerBounds(from: origin, positions: leaf, into: terms)
        let admitted = tree.admitsEveryEntry(ofLeaf: node, classMask: classMask, classes: entries.classes)
        for position in leaf where terms[position &- leaf.lowerBound] <= bound && (admitted || entries.classes[position] & classMask != 0) {
            guard filter.admits(entries.payloads[position]) else { continue }
            let distance = Geodesy.meters(haversine: terms[position &- leaf.lowerBound])
            guard distance <= limitMeters else { continue }
            guard best.insert(PackedRTree.Neighbor(payload: entries.payloads[position], distanceMeters: distance)) else { continue }
            if best.isFull {
                // Padded so an entry as far as the k-th, but with a smaller id, still gets in.
                bound = Swift.min(bound, Geodesy.haversine(meters: best.worst.distanceMeters) * (1 + 1e-9) + 1e-300)
            }
        }
    }

    /// Bounds the children of inner node `node`: the nearest becomes `next` unless something
    /// waiting is nearer, the rest wait in the queue.
    @inline(__always)
    private mutating func openNode(_ node: Int, level: Int, in tree: borrowing PackedRTree, entries: PackedRTree.EntryView) {
        let children = tree.children(of: node, level: level)
        let classes = entries.classes
        let seekingCeiling = !best.isFull && seekCeilings
        // A child holds k entries when a full one does, unless it is the last, partial one of its level.
        let childrenHoldK = seekingCeiling && tree.spans[level - 1] >= k
        let lastOfLevel = tree.levelEnds[level - 1] - 1
        tree.nodeBounds.bounds(first: children.lowerBound - tree.count, count: children.count, from: vectorOrigin,
                               lower: keys, upper: seekingCeiling ? ceilings : nil)
        var nearest: SearchQueue.Element?
        for position in children where classes[position] & classMask != 0 {
            let key = keys[position &- children.lowerBound]
            guard Double(key) <= bound else { continue }
            let child = SearchQueue.Element(key: key, position: position)
            // A leaf that may be opened soon: start loading its entries.
            if level == 2 { entries.prefetch(tree.children(of: position, level: 1)) }
            if let current = nearest, current.key <= key {
                queue.push(child)
            } else {
                if let current = nearest { queue.push(current) }
                nearest = child
            }
            if childrenHoldK, classes[position] & ~classMask == 0,
               position != lastOfLevel || tree.entryCount(under: position, level: level - 1) >= k {
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

    /// The first way down, from `root` into the nearest child of each node to a leaf, which it
    /// returns unless no child on the way is of a class asked for or the leaf lies beyond
    /// `bound`.
    ///
    /// Every other child it passes goes to `passed` unordered, to join the queue only once
    /// that leaf has set a bound: most of them then lie beyond it and never need a place in
    /// the queue. `bound` falls to the farthest point of any child that holds k entries.
    @inline(never)
    private mutating func firstDescent(in tree: borrowing PackedRTree, from root: Int, classes: UnsafeBufferPointer<UInt8>) -> SearchQueue.Element? {
        var node = root
        var key: Float = 0
        // A leaf's worth of k is found by the leaf this reaches, far closer than any ceiling.
        let seekCeilings = seekCeilings && k > tree.nodeSize
        for level in stride(from: tree.levelEnds.count - 1, to: 1, by: -1) {
            let children = tree.children(of: node, level: level)
            let childrenHoldK = seekCeilings && tree.spans[level - 1] >= k
            let lastOfLevel = tree.levelEnds[level - 1] - 1
            tree.nodeBounds.bounds(first: children.lowerBound - tree.count, count: children.count, from: vectorOrigin,
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
                    if nearest >= 0 {
                        passed[passedCount] = SearchQueue.Element(key: nearestKey, position: nearest)
                        passedCount &+= 1
                    }
                    nearest = position
                    nearestKey = childKey
                } else {
                    passed[passedCount] = SearchQueue.Element(key: childKey, position: position)
                    passedCount &+= 1
                }
                if childrenHoldK, classes[position] & ~classMask == 0,
                   position != lastOfLevel || tree.entryCount(under: position, level: level - 1) >= k {
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

    /// The next node from the queue, once the children passed on the first way down that
    /// `bound` has not ruled out have joined it.
    @inline(__always)
    private mutating func queueFront(in tree: borrowing PackedRTree, entries: PackedRTree.EntryView) -> SearchQueue.Element? {
        if passedCount > 0 {
            for i in 0..<passedCount where Double(passed[i].key) <= bound {
                queue.push(passed[i])
                // A leaf this close is likely opened soon: start loading its entries.
                if passed[i].position < tree.levelEnds[1] { entries.prefetch(tree.children(of: passed[i].position, level: 1)) }
            }
            passedCount = 0
        }
        return queue.pop()
    }
}

extension PackedRTree {
    /// A haversine bound just above `meters`, safe for pruning despite rounding; the exact
    /// comparison is made in meters on each entry.
    static func prunableHaversine(meters: Double) -> Double {
        Geodesy.haversine(meters: meters) * (1 + 1e-9) + 1e-300
    }
}
