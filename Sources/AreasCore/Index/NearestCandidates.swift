/// The k best neighbours seen so far by a nearest search, in (distance, payload) order, with
/// the worst of them where a newcomer is compared with it first.
///
/// In a `ScratchBuffer`, with no copy-on-write checks: every entry of every leaf a nearest
/// search opens passes through `insert`. A few (k up to `sortedLimit`, as apps ask) are kept
/// in order, worst last: a newcomer moves the worse ones up by one, and the answer is then
/// already sorted. More are a max-heap, worst on top, and are sorted at the end.
struct NearestCandidates: ~Copyable {
    private let k: Int
    private var heap: ScratchBuffer<PackedRTree.Neighbor>
    private let keptInOrder: Bool

    /// The most kept in order. An insertion moves half of them on average; a heap's sifting
    /// and final sort cost more below this, with a mispredicted branch at most of their steps.
    static let sortedLimit = 32

    init(k: Int) {
        self.k = k
        keptInOrder = k <= Self.sortedLimit
        heap = ScratchBuffer(capacity: Swift.min(k, 1_024))
    }

    var count: Int { heap.count }

    var isFull: Bool { heap.count == k }

    /// The worst kept neighbour; only meaningful when the set is not empty.
    var worst: PackedRTree.Neighbor { keptInOrder ? heap.base[heap.count - 1] : heap.base[0] }

    /// Keeps `candidate` if fewer than k are kept or it beats the worst; true when kept.
    @inline(__always)
    mutating func insert(_ candidate: PackedRTree.Neighbor) -> Bool {
        if keptInOrder {
            var slot = heap.count
            if slot == k {
                // The worst falls off the end.
                guard candidate < heap.base[slot - 1] else { return false }
                slot -= 1
            } else {
                heap.append(candidate)
            }
            let storage = heap.base
            while slot > 0 && candidate < storage[slot - 1] {
                storage[slot] = storage[slot - 1]
                slot -= 1
            }
            storage[slot] = candidate
            return true
        }
        if heap.count < k {
            heap.append(candidate)
            let storage = heap.base
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) >> 1
                guard storage[parent] < candidate else { break }
                storage[child] = storage[parent]
                child = parent
            }
            storage[child] = candidate
            return true
        }
        guard candidate < heap.base[0] else { return false }
        Self.replaceTop(with: candidate, in: heap.base, count: heap.count)
        return true
    }

    /// Puts `element` in place of the largest of the max-heap `storage[0..<count]` and sifts
    /// it down to where it belongs.
    @inline(__always)
    private static func replaceTop(with element: PackedRTree.Neighbor, in storage: UnsafeMutablePointer<PackedRTree.Neighbor>, count: Int) {
        var parent = 0
        while true {
            var child = 2 * parent + 1
            if child >= count { break }
            if child + 1 < count && storage[child] < storage[child + 1] { child += 1 }
            guard element < storage[child] else { break }
            storage[parent] = storage[child]
            parent = child
        }
        storage[parent] = element
    }

    /// The kept neighbours, nearest first, ties by payload.
    ///
    /// Kept in order, they are copied. Kept as a heap and few (fewer found than a large k asked
    /// for), a heapsort's second half puts them in order (the worst goes to the end, the rest
    /// sift back into a heap one shorter); an insertion sort would meet them in nearly the worst
    /// order there is. Many are bucketed instead, in linear time.
    mutating func sorted() -> [PackedRTree.Neighbor] {
        if keptInOrder { return Array(heap.elements) }
        guard heap.count <= NeighborSort.bucketingThreshold else { return NeighborSort.sorted(heap.elements) }
        let storage = heap.base
        var end = heap.count - 1
        while end > 0 {
            let last = storage[end]
            storage[end] = storage[0]
            Self.replaceTop(with: last, in: storage, count: end)
            end -= 1
        }
        return Array(heap.elements)
    }
}
