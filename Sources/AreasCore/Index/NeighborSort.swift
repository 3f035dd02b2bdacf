/// Puts a query's neighbours in answer order, nearest first and ties by payload, in about
/// linear time.
///
/// A comparison sort of a hundred neighbours mispredicts a branch at nearly every comparison
/// and costs a radius query as much as its search. Neighbours are first distributed
/// into buckets by (distance / farthest)², which spreads points scattered evenly over a disc
/// evenly over the buckets, one or fewer to a bucket; then one insertion pass puts everything in
/// order, moving each neighbour only within its bucket. Crowded buckets (many neighbours at
/// one distance) get a quicksort of their own first. Fewer buckets would mean more of the
/// insertion pass's moves, each a mispredicted branch.
enum NeighborSort {
    /// Below this many, one insertion pass alone is cheaper than bucketing.
    static let bucketingThreshold = 24

    /// The integer nearest `x`, for 0 ≤ x < 2^31 (0 for NaN): adding 2^52 leaves it in the
    /// significand's low bits. `Int(x)` checks its range with two branches per call and traps on
    /// NaN; only the order of the buckets matters here, which rounding keeps as truncating would.
    @inline(__always)
    private static func nearestInteger(_ x: Double) -> Int {
        Int(truncatingIfNeeded: (x + 0x1p52).bitPattern & 0xFFFF_FFFF)
    }

    /// `farthest`, when the caller knows it, is a distance no neighbour exceeds (a radius).
    static func sorted(_ input: UnsafeBufferPointer<PackedRTree.Neighbor>, farthest known: Double? = nil) -> [PackedRTree.Neighbor] {
        let n = input.count
        return [PackedRTree.Neighbor](unsafeUninitializedCapacity: n) { output, initialized in
            guard let base = output.baseAddress, let source = input.baseAddress else { return }
            var farthest = 0.0
            if n > bucketingThreshold {
                if let known {
                    farthest = known
                } else {
                    for neighbor in input { farthest = Swift.max(farthest, neighbor.distanceMeters) }
                }
            }
            guard farthest > 0, farthest.isFinite else {
                base.initialize(from: source, count: n)
                initialized = n
                var budget = 2 * (Int.bitWidth - n.leadingZeroBitCount)
                UnstableSort.quicksort(base, 0, n, budget: &budget)
                return
            }
            let bucketCount = 1 << (Int.bitWidth - n.leadingZeroBitCount)
            let scale = Double(bucketCount) / (farthest * farthest)
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: bucketCount + 1 + n) { scratch in
                let bounds = scratch.baseAddress.unsafelyUnwrapped
                let buckets = bounds + bucketCount + 1
                bounds.initialize(repeating: 0, count: bucketCount + 1)
                for i in 0..<n {
                    let d = source[i].distanceMeters
                    let b = Self.nearestInteger(Swift.min(d * d * scale, Double(bucketCount - 1)))
                    buckets[i] = UInt32(truncatingIfNeeded: b)
                    bounds[b + 1] &+= 1
                }
                // bounds[b] becomes bucket b's start; note whether any bucket is crowded.
                var largest: UInt32 = 0
                for b in 0..<bucketCount {
                    largest = Swift.max(largest, bounds[b + 1])
                    bounds[b + 1] &+= bounds[b]
                }
                for i in 0..<n {
                    let b = Int(buckets[i])
                    (base + Int(bounds[b])).initialize(to: source[i])
                    bounds[b] &+= 1
                }
                initialized = n
                // Each bounds[b] is now bucket b's end.
                if largest > 16 {
                    var start = 0
                    for b in 0..<bucketCount {
                        let end = Int(bounds[b])
                        if end - start > 16 {
                            var budget = 64
                            UnstableSort.quicksort(base, start, end, budget: &budget)
                        }
                        start = end
                    }
                }
                UnstableSort.insertionSort(base, 0, n)
            }
        }
    }
}
