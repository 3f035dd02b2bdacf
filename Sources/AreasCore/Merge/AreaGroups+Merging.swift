import Glibc

extension AreaGroups {
    /// The areas `table`'s records make under `policy`: records taken source by source in
    /// priority order, each joining the nearest area within `policy.meters` that has the
    /// same kind, no record of its own source yet and a leader whose name names the same place
    /// (`PlaceName`); a record that finds none leads an area of its own.
    ///
    /// Leaders are kept in a grid of cells at least `meters` wide, so each record looks at
    /// the nine cells around its own: a pass over the table with a few distance checks per
    /// record, and names compared only for records that are close and of one kind.
    public static func merging(_ table: AreaTable, policy: MergePolicy) -> AreaGroups {
        guard !policy.isOff, policy.meters.isFinite, table.count > 1 else { return .none }
        let records = table.records
        let ranks = ranks(of: table, priority: policy.priority)
        guard let firstRank = ranks.first, ranks.contains(where: { $0 != firstRank }) else { return .none }

        // Priority order: by rank, then by position (each source's run is in id order).
        let rankCount = Int(ranks.max() ?? 0) + 1
        var byRank = [[UInt32]](repeating: [], count: rankCount)
        for position in 0..<records.count { byRank[Int(ranks[position])].append(UInt32(position)) }
        let order = byRank.flatMap { $0 }

        // Cells at least `meters` on a side at the table's highest latitude.
        let highest = min(records.reduce(0) { max($0, abs($1.coordinate.latitude)) }, 89)
        let latitudeCell = policy.meters / 110_000
        let longitudeCell = min(360, latitudeCell / cos(highest * Geodesy.radiansPerDegree))
        func cell(_ point: GeoPoint) -> (Int64, Int64) {
            (Int64((point.latitude / latitudeCell).rounded(.down)), Int64((point.longitude / longitudeCell).rounded(.down)))
        }
        func key(_ y: Int64, _ x: Int64) -> Int64 { (y << 32) ^ (x & 0xFFFF_FFFF) }

        var heads = CellTable(capacity: records.count)
        var next = [Int32](repeating: -1, count: records.count)
        var leaders = [UInt32](repeating: 0, count: records.count)
        // Per leader, the sources its area already has (a bit per rank, modulo 64: with more
        // sources than that, two may share a bit, which only keeps some records apart).
        var sourcesOf = [UInt64](repeating: 0, count: records.count)
        var keys = [[UInt8]?](repeating: nil, count: records.count)
        var keyer = PlaceName.Keyer()
        // The region words of each province and district pair, made once.
        var regions: [UInt64: [[UInt32]]] = [:]
        func nameKey(_ position: Int) -> [UInt8] {
            if let key = keys[position] { return key }
            let record = records[position]
            let key = table.strings.bytes.withUnsafeBufferPointer { arena in
                let pair = UInt64(record.province) << 32 | UInt64(record.district)
                let regional = regions[pair] ?? PlaceName.regionalWords(province: StringArena.utf8(record.province, in: arena),
                                                                      district: StringArena.utf8(record.district, in: arena))
                regions[pair] = regional
                return keyer.key(StringArena.utf8(record.name, in: arena), regional: regional)
            }
            keys[position] = key
            return key
        }
        var merged = 0
        for position32 in order {
            let position = Int(position32)
            let record = records[position]
            let bit = UInt64(1) << UInt64(ranks[position] % 64)
            let (y, x) = cell(record.coordinate)
            let origin = DistanceOrigin(record.coordinate)
            var best = -1
            var bestDistance = Double.infinity
            for dy in -1...1 {
                for dx in -1...1 {
                    var candidate = heads.value(key(y + Int64(dy), x + Int64(dx)))
                    while candidate >= 0 {
                        let other = Int(candidate)
                        candidate = next[other]
                        guard records[other].kind == record.kind, sourcesOf[other] & bit == 0 else { continue }
                        let distance = Geodesy.distance(from: origin, to: records[other].coordinate)
                        guard distance <= policy.meters else { continue }
                        // Nearest first; at one distance, the earlier area (lower rank, then position).
                        if distance < bestDistance || (distance == bestDistance && (ranks[other], other) < (ranks[best], best)) {
                            guard PlaceName.samePlace(nameKey(other), nameKey(position)) else { continue }
                            best = other
                            bestDistance = distance
                        }
                    }
                }
            }
            if best >= 0 {
                leaders[position] = UInt32(best)
                sourcesOf[best] |= bit
                merged += 1
                keys[position] = nil
            } else {
                leaders[position] = position32
                sourcesOf[position] = bit
                next[position] = heads.replace(key(y, x), with: Int32(position))
            }
        }
        guard merged > 0 else { return .none }
        return grouping(Column(leaders), inOrder: order)
    }
}
