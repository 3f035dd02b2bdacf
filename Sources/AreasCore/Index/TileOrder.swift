/// The order in which a packed tree takes its entries: sort-tile-recursive, from the root down.
///
/// A node's entries are cut into vertical slabs by longitude and each slab into runs by
/// latitude, one run per child, so its children are near-square tiles that do not overlap;
/// each child is then cut the same way for its own children. Over clustered data (cities),
/// grouping consecutive entries along a Hilbert curve gives upper nodes that sprawl across one
/// another, so a query opens many that hold nothing near it; tiles do not overlap, and a query
/// opens about half as many nodes.
///
/// Runs are cut at multiples of what a full child holds, so the tree's fixed grouping (entries
/// `nodeSize` at a time, then nodes `nodeSize` at a time) gives each node exactly its tile.
/// Positions are ranked on a 16-bit grid over the data's extent, so every sort is two counting
/// passes of eight bits.
enum TileOrder {
    /// The positions of `boxes` in packing order, by their centres on a 16-bit grid spanning
    /// their extent.
    static func order(of boxes: [GeoBox], nodeSize: Int) -> [UInt32] {
        var extent = GeoBox.empty
        for box in boxes { extent = extent.union(box) }
        let width = extent.east - extent.west
        let height = extent.north - extent.south
        let scaleX = width > 0 ? Double(UInt16.max) / width : 0
        let scaleY = height > 0 ? Double(UInt16.max) / height : 0
        var xs = [UInt16](repeating: 0, count: boxes.count)
        var ys = [UInt16](repeating: 0, count: boxes.count)
        for (i, box) in boxes.enumerated() {
            xs[i] = UInt16(Swift.min(((box.west + box.east) / 2 - extent.west) * scaleX, Double(UInt16.max)))
            ys[i] = UInt16(Swift.min(((box.south + box.north) / 2 - extent.south) * scaleY, Double(UInt16.max)))
        }
        return order(x: xs, y: ys, nodeSize: nodeSize)
    }

    /// The positions `0..<x.count` in packing order; entry i sits at grid cell (x[i], y[i]).
    static func order(x: [UInt16], y: [UInt16], nodeSize: Int) -> [UInt32] {
        precondition(x.count == y.count && nodeSize >= 2)
        let n = x.count
        // Each entry as one integer: its cell above, its position below, so the sorts move
        // eight bytes and never look anything up.
        var packed = [UInt64](unsafeUninitializedCapacity: n) { buffer, count in
            for i in 0..<n { buffer[i] = UInt64(x[i]) << Tiler.xShift | UInt64(y[i]) << Tiler.yShift | UInt64(i) }
            count = n
        }
        if n > nodeSize {
            // What one child of the root holds when full.
            var childSpan = nodeSize
            while childSpan <= (n - 1) / nodeSize { childSpan *= nodeSize }
            var scratch = [UInt64](repeating: 0, count: n)
            packed.withUnsafeMutableBufferPointer { packed in
                scratch.withUnsafeMutableBufferPointer { scratch in
                    var tiler = Tiler(packed: packed, scratch: scratch, nodeSize: nodeSize)
                    tiler.tile(0, n, childSpan: childSpan)
                }
            }
        }
        return packed.map { UInt32(truncatingIfNeeded: $0) }
    }

    private struct Tiler {
        static let xShift: UInt64 = 48
        static let yShift: UInt64 = 32

        let packed: UnsafeMutableBufferPointer<UInt64>
        /// Room for a counting pass.
        let scratch: UnsafeMutableBufferPointer<UInt64>
        let nodeSize: Int
        /// Counts for the low and the high byte of a 16-bit key.
        var counts = [Int](repeating: 0, count: 512)

        /// Orders `lo..<hi`, the entries of one node whose full children hold `childSpan` each.
        mutating func tile(_ lo: Int, _ hi: Int, childSpan: Int) {
            // The order of entries within a leaf changes nothing.
            guard childSpan > 1 else { return }
            let children = (hi - lo + childSpan - 1) / childSpan
            guard children > 1 else {
                tile(lo, hi, childSpan: childSpan / nodeSize)
                return
            }
            var slabs = 1
            while slabs * slabs < children { slabs += 1 }
            let slabEntries = (children + slabs - 1) / slabs * childSpan
            sort(lo, hi, shift: Self.xShift)
            var slab = lo
            while slab < hi {
                let slabEnd = Swift.min(slab + slabEntries, hi)
                sort(slab, slabEnd, shift: Self.yShift)
                var child = slab
                while child < slabEnd {
                    tile(child, Swift.min(child + childSpan, slabEnd), childSpan: childSpan / nodeSize)
                    child += childSpan
                }
                slab = slabEnd
            }
        }

        /// Sorts `packed[lo..<hi]` by the 16 bits at `shift`.
        private mutating func sort(_ lo: Int, _ hi: Int, shift: UInt64) {
            if hi - lo <= 64 {
                // Insertion sort: cheaper here than two counting passes over 256 buckets.
                var i = lo + 1
                while i < hi {
                    let element = packed[i]
                    let key = (element >> shift) & 0xFFFF
                    var j = i
                    while j > lo && key < (packed[j - 1] >> shift) & 0xFFFF {
                        packed[j] = packed[j - 1]
                        j -= 1
                    }
                    packed[j] = element
                    i += 1
                }
                return
            }
            // Both bytes' counts in one read, then a stable pass by each.
            counts.withUnsafeMutableBufferPointer { counts in
                for b in 0..<512 { counts[b] = 0 }
                for i in lo..<hi {
                    let key = Int(truncatingIfNeeded: (packed[i] >> shift) & 0xFFFF)
                    counts[key & 0xFF] &+= 1
                    counts[256 + (key >> 8)] &+= 1
                }
                Self.pass(lo, hi, shift: shift, counts: counts.baseAddress.unsafelyUnwrapped, from: packed, to: scratch)
                Self.pass(lo, hi, shift: shift + 8, counts: counts.baseAddress.unsafelyUnwrapped + 256, from: scratch, to: packed)
            }
        }

        /// A stable pass of `source[lo..<hi]` into `target[lo..<hi]` by the byte at `shift`,
        /// given how many entries have each value of that byte.
        private static func pass(_ lo: Int, _ hi: Int, shift: UInt64, counts: UnsafeMutablePointer<Int>,
                                 from source: UnsafeMutableBufferPointer<UInt64>, to target: UnsafeMutableBufferPointer<UInt64>) {
            var start = lo
            for b in 0..<256 {
                let count = counts[b]
                counts[b] = start
                start &+= count
            }
            for i in lo..<hi {
                let b = Int(truncatingIfNeeded: (source[i] >> shift) & 0xFF)
                target[counts[b]] = source[i]
                counts[b] &+= 1
            }
        }
    }
}
