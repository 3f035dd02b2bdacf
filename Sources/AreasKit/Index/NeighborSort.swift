/// Puts a query's neighbours in answer order, nearest first and ties by payload, in about
/// linear time.
///
/// A comparison sort of a hundred neighbours mispredicts a branch at nearly every comparison
/// and used to cost a radius query as much as its search. Neighbours are first distributed
/// into buckets by (distance / farthest)², which spreads points scattered evenly over a disc
/// evenly over the buckets, then the buckets, a handful of neighbours each, are sorted in place.
enum NeighborSort {
    static func sorted(_ input: UnsafeBufferPointer<PackedRTree.Neighbor>) -> [PackedRTree.Neighbor] {
        let n = input.count
        var farthest = 0.0
        if n > 24 {
            for neighbor in input { farthest = Swift.max(farthest, neighbor.distanceMeters) }
        }
        guard farthest > 0, farthest.isFinite else {
            var result = Array(input)
            UnstableSort.sort(&result)
            return result
        }
        let bucketCount = 1 << (Int.bitWidth - n.leadingZeroBitCount)
        let scale = Double(bucketCount) / (farthest * farthest)
        @inline(__always) func bucket(_ neighbor: PackedRTree.Neighbor) -> Int {
            let d = neighbor.distanceMeters
            return Swift.min(Int(d * d * scale), bucketCount - 1)
        }
        return [PackedRTree.Neighbor](unsafeUninitializedCapacity: n) { output, initialized in
            guard let base = output.baseAddress else { return }
            withUnsafeTemporaryAllocation(of: Int.self, capacity: bucketCount + 1) { bounds in
                bounds.initialize(repeating: 0)
                for neighbor in input { bounds[bucket(neighbor)] += 1 }
                for b in 1..<bucketCount { bounds[b] += bounds[b - 1] }
                bounds[bucketCount] = n
                // bounds[b] is one past bucket b's end; filling from the back leaves it at its start.
                for neighbor in input.reversed() {
                    let b = bucket(neighbor)
                    bounds[b] -= 1
                    (base + bounds[b]).initialize(to: neighbor)
                }
                initialized = n
                // Crowded buckets (many neighbours at one distance) get a quicksort of their
                // own; the rest hold a few each and are put in order by one insertion pass over
                // everything, which moves each neighbour only within its bucket.
                for b in 0..<bucketCount where bounds[b + 1] - bounds[b] > 16 {
                    var budget = 64
                    UnstableSort.quicksort(base, bounds[b], bounds[b + 1], budget: &budget)
                }
                UnstableSort.insertionSort(base, 0, n)
            }
        }
    }
}
