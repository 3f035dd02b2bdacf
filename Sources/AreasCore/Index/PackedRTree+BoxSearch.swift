extension PackedRTree {
    // MARK: Queries

    /// Payloads of every entry of the given classes whose rectangle meets `box` (edges
    /// inclusive), at most `limit` of them, in no particular order.
    ///
    /// - Complexity: O(log n + m) node visits for m entries found, on data the tiling keeps
    ///   apart; a box that meets every node visits them all.
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
    func depthFirst(classMask: UInt8, descend: (GeoBox) -> Bool,
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
}
