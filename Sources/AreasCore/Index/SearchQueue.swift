/// The best-first search's priority queue: tree nodes keyed by a lower bound of the haversine
/// term to anything under them, smallest first.
///
/// A binary heap of single integers in a `ScratchBuffer`, with no copy-on-write checks: it
/// sits on the hot path of every nearest query, and one integer comparison per step is what
/// keeps its sifting cheap.
struct SearchQueue: ~Copyable {
    /// A node and its key in one integer that orders them by key: a non-negative `Float`
    /// orders as its bit pattern, which fills the upper half; the node's position the lower.
    struct Element {
        fileprivate var bits: UInt64

        @inline(__always)
        init(key: Float, position: Int) {
            bits = UInt64(key.bitPattern) << 32 | UInt64(truncatingIfNeeded: position)
        }

        var key: Float { Float(bitPattern: UInt32(truncatingIfNeeded: bits >> 32)) }
        var position: Int { Int(UInt32(truncatingIfNeeded: bits)) }
    }

    private var heap: ScratchBuffer<UInt64>

    init(capacity: Int) {
        heap = ScratchBuffer(capacity: capacity)
    }

    var count: Int { heap.count }

    /// The smallest key waiting, if any.
    var minimumKey: Float? { heap.count > 0 ? Element(bits: heap.base[0]).key : nil }

    @inline(__always)
    mutating func push(_ element: Element) {
        heap.append(element.bits)
        let storage = heap.base
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) >> 1
            guard element.bits < storage[parent] else { break }
            storage[child] = storage[parent]
            child = parent
        }
        storage[child] = element.bits
    }

    mutating func pop() -> Element? {
        guard let last = heap.popLast() else { return nil }
        let count = heap.count
        guard count > 0 else { return Element(bits: last) }
        let storage = heap.base
        let first = storage[0]
        var parent = 0
        while true {
            var child = 2 * parent + 1
            if child >= count { break }
            if child + 1 < count && storage[child + 1] < storage[child] { child += 1 }
            guard storage[child] < last else { break }
            storage[parent] = storage[child]
            parent = child
        }
        storage[parent] = last
        return Element(bits: first)
    }
}

extension SearchQueue.Element {
    fileprivate init(bits: UInt64) { self.bits = bits }
}
