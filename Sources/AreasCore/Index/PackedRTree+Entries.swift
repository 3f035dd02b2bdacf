extension PackedRTree {
    /// The entries, their classes and payloads, read in place.
    struct EntryView {
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
        /// visited: a leaf that a radius cuts in two would otherwise cost a mispredicted
        /// branch for about every other entry.
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
    func withEntries<Result>(_ body: (EntryView) -> Result) -> Result {
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
    var leafTermCapacity: Int {
        (nodeSize + DistanceOrigin.haversineLanes - 1) / DistanceOrigin.haversineLanes * DistanceOrigin.haversineLanes
    }

    /// Whether every entry of leaf `node` is of a class in `classMask`, so none needs its own test.
    @inline(__always)
    func admitsEveryEntry(ofLeaf node: Int, classMask: UInt8, classes: UnsafeBufferPointer<UInt8>) -> Bool {
        !hasClasslessEntries && classes[node] & ~classMask == 0
    }
}

extension Bool {
    /// 1 for true, 0 for false, without a branch.
    @inline(__always)
    var bit: UInt8 { unsafeBitCast(self, to: UInt8.self) }
}
