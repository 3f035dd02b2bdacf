/// The best-first search's priority queue: tree nodes keyed by a lower bound of the haversine
/// term to anything under them, smallest first.
///
/// A binary heap in a `ScratchBuffer`, with no copy-on-write checks: it sits on the hot path
/// of every nearest query.
struct SearchQueue: ~Copyable {
    struct Element {
        var key: Double
        var position: UInt32
        /// The node's level, carried along (it fits in the padding) so a pop need not look it up.
        var level: UInt32
    }

    private var heap: ScratchBuffer<Element>

    init(capacity: Int) {
        heap = ScratchBuffer(capacity: capacity)
    }

    var count: Int { heap.count }

    /// The smallest key waiting, if any.
    var minimumKey: Double? { heap.count > 0 ? heap.base[0].key : nil }

    @inline(__always)
    private static func precedes(_ a: Element, _ b: Element) -> Bool {
        a.key < b.key
    }

    mutating func push(_ element: Element) {
        heap.append(element)
        let storage = heap.base
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) >> 1
            guard Self.precedes(element, storage[parent]) else { break }
            storage[child] = storage[parent]
            child = parent
        }
        storage[child] = element
    }

    mutating func pop() -> Element? {
        guard let last = heap.popLast() else { return nil }
        let count = heap.count
        guard count > 0 else { return last }
        let storage = heap.base
        let first = storage[0]
        var parent = 0
        while true {
            var child = 2 * parent + 1
            if child >= count { break }
            if child + 1 < count && Self.precedes(storage[child + 1], storage[child]) { child += 1 }
            guard Self.precedes(storage[child], last) else { break }
            storage[parent] = storage[child]
            parent = child
        }
        storage[parent] = last
        return first
    }
}
