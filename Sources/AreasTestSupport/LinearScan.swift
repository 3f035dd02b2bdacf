import AreasCore

/// The same queries as `PackedRTree`, answered by looking at every entry.
///
/// The reference the tree is tested and benchmarked against: it shares only the distance
/// function with the tree, none of its pruning, ordering or traversal.
package struct LinearScan: Sendable {
    package let points: [GeoPoint]
    package let classes: [UInt8]

    package init(points: [GeoPoint], classes: [UInt8] = []) {
        self.points = points
        self.classes = classes.isEmpty ? Array(repeating: 0xFF, count: points.count) : classes
    }

    package func search(intersecting box: GeoBox, classMask: UInt8 = 0xFF) -> [UInt32] {
        points.indices.filter { classes[$0] & classMask != 0 && box.contains(points[$0]) }
            .map { UInt32($0) }
    }

    package func search(within meters: Double, of point: GeoPoint, classMask: UInt8 = 0xFF) -> [PackedRTree.Neighbor] {
        var found: [PackedRTree.Neighbor] = []
        let origin = DistanceOrigin(point)
        for i in points.indices where classes[i] & classMask != 0 {
            let distance = Geodesy.distance(from: origin, to: points[i])
            if distance <= meters { found.append(.init(payload: UInt32(i), distanceMeters: distance)) }
        }
        return found.sorted()
    }

    /// Keeps the k best seen so far in a sorted array: one comparison per point once it is full.
    package func nearest(to point: GeoPoint, k: Int, maxMeters: Double? = nil, classMask: UInt8 = 0xFF) -> [PackedRTree.Neighbor] {
        guard k > 0 else { return [] }
        let limit = maxMeters ?? .infinity
        var best: [PackedRTree.Neighbor] = []
        let origin = DistanceOrigin(point)
        for i in points.indices where classes[i] & classMask != 0 {
            let distance = Geodesy.distance(from: origin, to: points[i])
            guard distance <= limit else { continue }
            let candidate = PackedRTree.Neighbor(payload: UInt32(i), distanceMeters: distance)
            if best.count == k {
                guard let last = best.last, candidate < last else { continue }
                best.removeLast()
            }
            let slot = best.firstIndex { candidate < $0 } ?? best.count
            best.insert(candidate, at: slot)
        }
        return best
    }
}

extension LinearScan {
    /// What a table's string arena holds when every distinct string is stored once: each
    /// string of `areas` (and the empty string) counted once, as its LEB128 length and its bytes.
    package static func distinctStringBytes(of areas: some Sequence<Area>) -> Int {
        var distinct: Set<String> = [""]
        for area in areas {
            for text in [area.id, area.name, area.roadAddress, area.lotAddress, area.province, area.district, area.source] { distinct.insert(text) }
            for field in area.fields {
                distinct.insert(field.key)
                distinct.insert(field.value)
            }
        }
        return distinct.reduce(0) { total, text in
            var length = text.utf8.count, prefix = 1
            while length >= 0x80 { length >>= 7; prefix += 1 }
            return total + prefix + text.utf8.count
        }
    }

    /// Whether every string `table`'s records name starts before every string only its fields
    /// name (`AreaTable(concatenating:)`'s layout), found by looking at every reference.
    package static func answerTextComesFirst(in table: AreaTable) -> Bool {
        var named = Set<StringArena.Ref>(), fieldOnly = Set<StringArena.Ref>()
        for record in table.records {
            named.formUnion([record.id, record.name, record.roadAddress, record.lotAddress, record.province, record.district, record.source])
        }
        table.withBuffers { buffers in
            for position in table.indices {
                buffers.forEachFieldRef(of: position) { key, value in
                    for ref in [key, value] where !named.contains(ref) { fieldOnly.insert(ref) }
                }
            }
        }
        named.remove(StringArena.empty)
        fieldOnly.remove(StringArena.empty)
        return (named.max() ?? 0) < (fieldOnly.min() ?? .max)
    }
}
