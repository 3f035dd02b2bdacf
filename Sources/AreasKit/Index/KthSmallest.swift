/// The k-th smallest of the values seen so far (infinity until k have been seen), or a lower
/// cap given directly: the nearest search's running upper bound of the k-th distance.
struct KthSmallest: ~Copyable {
    private let k: Int
    /// A max-heap of the k smallest values seen.
    private var heap: [Double] = []
    private var cap = Double.infinity

    init(k: Int) {
        self.k = k
        heap.reserveCapacity(Swift.min(k, 1024))
    }

    var value: Double { Swift.min(cap, heap.count == k ? heap[0] : .infinity) }

    mutating func lower(to bound: Double) {
        cap = Swift.min(cap, bound)
    }

    mutating func insert(_ x: Double) {
        if heap.count < k {
            heap.append(x)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[parent] < heap[child] else { break }
                heap.swapAt(parent, child)
                child = parent
            }
            return
        }
        guard x < heap[0] else { return }
        heap[0] = x
        var parent = 0
        while true {
            var largest = parent
            let left = 2 * parent + 1, right = left + 1
            if left < k && heap[left] > heap[largest] { largest = left }
            if right < k && heap[right] > heap[largest] { largest = right }
            if largest == parent { return }
            heap.swapAt(parent, largest)
            parent = largest
        }
    }
}
