import Glibc

extension AreaGroups {
    /// The areas `table`'s records make under `policy`: a source's further rows of one place
    /// with their first (`SourceRows`); then records taken source by source in priority order,
    /// each joining the nearest area within `policy.meters` that has the same kind, no record
    /// of its own source yet and a leader that names the same place (`PlaceKeys.samePlace`:
    /// by name, or by one's name or address being the other's address); a record that finds
    /// none leads an area of its own.
    ///
    /// Leaders are kept in a grid of cells at least `meters` wide, so each record looks at
    /// the nine cells around its own: a pass over the table with a few distance checks per
    /// record, and names compared only for records that are close and of one kind.
    ///
    /// A crowd, more than `crowdLimit` records in the nine cells around a record's own (a file
    /// whose rows all got its district office's coordinates), would make that quadratic: each
    /// record would compare its name with every area there. A record in a crowd joins only an
    /// area that one of its keys finds (the same name key, its name as the area's address, its
    /// address as the area's name, one address with the same numbers), looked up by key in
    /// each cell, and areas its own source already has are skipped without being looked at;
    /// one name inside another does not merge there, where it is more often two places than one.
    public static func merging(_ table: AreaTable, policy: MergePolicy, crowdLimit: Int = defaultCrowdLimit) -> AreaGroups {
        var looked = 0
        return merging(table, policy: policy, crowdLimit: crowdLimit, looked: &looked)
    }

    /// The same, counting in `looked` the earlier areas the records were measured against: the
    /// merge's work, whatever the machine. Without `matchingAddresses`, records are compared by
    /// name alone (what the address tests cost is measured against it).
    package static func merging(_ table: AreaTable, policy: MergePolicy, crowdLimit: Int, matchingAddresses: Bool = true,
                                looked: inout Int) -> AreaGroups {
        // A source's further rows of one place follow its first (`SourceRows`), merging or not.
        let places = placesWithinSources(table)
        let records = table.records
        let ranks = ranks(of: table, priority: policy.priority)
        guard !policy.isOff, policy.meters.isFinite, table.count > 1, let firstRank = ranks.first, ranks.contains(where: { $0 != firstRank }) else {
            guard let places else { return .none }
            return grouping(Column(places), inOrder: Array(0..<UInt32(records.count)))
        }

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
        func key(_ y: Int64, _ x: Int64) -> Int64 { cellKey(y, x) }
        let crowds = Crowds(count: records.count, cell: { cell(records[$0].coordinate) }, limit: crowdLimit)

        var heads = CellTable(capacity: records.count)
        var next = [Int32](repeating: -1, count: records.count)
        var leaders = [UInt32](repeating: 0, count: records.count)
        // Per leader, the sources its area already has (a bit per rank, modulo 64: with more
        // sources than that, two may share a bit, which only keeps some records apart).
        var sourcesOf = [UInt64](repeating: 0, count: records.count)
        var keys = PlaceKeys(table, matchingAddresses: matchingAddresses)
        // Areas near a crowd, by cell, kind and key: for each key, the groups of areas that
        // have it as their name, as their name without notes, or as their address (and then by
        // their name's numbers).
        var byKey: [NameCell: KeyedGroups] = [:]
        var groups: [NameGroup] = []
        func look(_ group: Int32?, _ position: Int, _ origin: DistanceOrigin, _ bit: UInt64, _ best: inout Int, _ bestDistance: inout Double) {
            guard let group, group >= 0 else { return }
            looked += groups[Int(group)].nearestOpen(to: origin, rank: ranks[position], bit: bit, within: policy.meters, sourcesOf: sourcesOf,
                                                     records: records, ranks: ranks, best: &best, bestDistance: &bestDistance)
        }
        func join(_ group: inout Int32, _ position32: UInt32) {
            if group >= 0 {
                groups[Int(group)].members.append(position32)
            } else {
                group = Int32(groups.count)
                groups.append(NameGroup(first: position32))
            }
        }
        var merged = 0
        for position32 in order {
            let position = Int(position32)
            // A further row of a source's place goes where its first goes, below.
            if let places, places[position] != position32 { continue }
            let record = records[position]
            let bit = UInt64(1) << UInt64(ranks[position] % 64)
            let (y, x) = cell(record.coordinate)
            let origin = DistanceOrigin(record.coordinate)
            var best = -1
            var bestDistance = Double.infinity
            let inCrowd = crowds.isCrowded(y, x)
            // Made once, for the lookups in a crowd and the entries near one.
            let crowdKeys = crowds.isNearCrowd(y, x) ? keys.crowdKeys(position) : nil
            if inCrowd, let lookup = crowdKeys {
                // Its name among names, and (without its notes) among addresses; its address
                // among names without notes, and among addresses with its name's numbers.
                for dy in -1...1 {
                    for dx in -1...1 {
                        let around = key(y + Int64(dy), x + Int64(dx))
                        if let name = lookup.name {
                            let found = byKey[NameCell(cell: around, kind: record.kind, key: name)]
                            look(found?.byName, position, origin, bit, &best, &bestDistance)
                            if lookup.mainName == nil { look(found?.byAddress, position, origin, bit, &best, &bestDistance) }
                        }
                        if let main = lookup.mainName {
                            look(byKey[NameCell(cell: around, kind: record.kind, key: main)]?.byAddress, position, origin, bit, &best, &bestDistance)
                        }
                        if let address = lookup.address {
                            let found = byKey[NameCell(cell: around, kind: record.kind, key: address)]
                            look(found?.byMainName, position, origin, bit, &best, &bestDistance)
                            look(found?.byAddressAndNumbers?[lookup.numbers], position, origin, bit, &best, &bestDistance)
                        }
                    }
                }
            }
            for dy in -1...1 where !inCrowd {
                for dx in -1...1 {
                    var candidate = heads.value(key(y + Int64(dy), x + Int64(dx)))
                    while candidate >= 0 {
                        looked += 1
                        let other = Int(candidate)
                        candidate = next[other]
                        guard records[other].kind == record.kind, sourcesOf[other] & bit == 0 else { continue }
                        let distance = Geodesy.distance(from: origin, to: records[other].coordinate)
                        guard distance <= policy.meters else { continue }
                        // Nearest first; at one distance, the earlier area (lower rank, then position).
                        if distance < bestDistance || (distance == bestDistance && (ranks[other], other) < (ranks[best], best)) {
                            guard keys.samePlace(other, position) else { continue }
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
                keys.forget(position)
            } else {
                leaders[position] = position32
                sourcesOf[position] = bit
                next[position] = heads.replace(key(y, x), with: Int32(position))
                if let entry = crowdKeys {
                    if let name = entry.name {
                        let named = NameCell(cell: key(y, x), kind: record.kind, key: name)
                        func kept(_ found: inout KeyedGroups) {
                            join(&found.byName, position32)
                            if entry.mainName == nil { join(&found.byMainName, position32) }
                        }
                        kept(&byKey[named, default: KeyedGroups()])
                    }
                    if let main = entry.mainName {
                        join(&byKey[NameCell(cell: key(y, x), kind: record.kind, key: main), default: KeyedGroups()].byMainName, position32)
                    }
                    if let address = entry.address {
                        func kept(_ found: inout KeyedGroups) {
                            join(&found.byAddress, position32)
                            var numbered = found.byAddressAndNumbers ?? [:]
                            found.byAddressAndNumbers = nil
                            join(&numbered[entry.numbers, default: -1], position32)
                            found.byAddressAndNumbers = numbered
                        }
                        kept(&byKey[NameCell(cell: key(y, x), kind: record.kind, key: address), default: KeyedGroups()])
                    }
                }
            }
        }
        if let places {
            for position in 0..<records.count where places[position] != UInt32(position) {
                leaders[position] = leaders[Int(places[position])]
                merged += 1
            }
        }
        guard merged > 0 else { return .none }
        return grouping(Column(leaders), inOrder: order)
    }

    /// Each record's first row of its place within its source (`SourceRows`): a record whose
    /// id is another record's id followed by `~` is a further row of that record's place. The
    /// table is in id order, so those rows come right after it. Nil when no row follows another.
    static func placesWithinSources(_ table: AreaTable) -> [UInt32]? {
        var places: [UInt32]?
        table.withBuffers { areas in
            var first = -1
            for position in 0..<areas.records.count {
                let id = areas.utf8(areas.records[position].id)
                // An id begins with its source's name, so a record named after another is of its source.
                if first >= 0 {
                    let lead = areas.utf8(areas.records[first].id)
                    if id.count > lead.count + 1, id[lead.count] == SourceRows.recordMark, id.prefix(lead.count).elementsEqual(lead) {
                        if places == nil { places = (0..<UInt32(areas.records.count)).map { $0 } }
                        places?[position] = UInt32(first)
                        continue
                    }
                }
                first = position
            }
        }
        return places
    }
}

/// The keys a merge compares records by, made once a record: its name's (`PlaceName`), its
/// address's, and from them the ways one record may name another's place.
struct PlaceKeys {
    private let table: AreaTable
    private let matchingAddresses: Bool
    private var names: [[UInt8]?]
    private var addresses: [[UInt8]?]
    private var keyer = PlaceName.Keyer()
    /// The region words of each province and district pair, made once.
    private var regions: [UInt64: [[UInt32]]] = [:]

    init(_ table: AreaTable, matchingAddresses: Bool = true) {
        self.table = table
        self.matchingAddresses = matchingAddresses
        names = [[UInt8]?](repeating: nil, count: table.count)
        addresses = [[UInt8]?](repeating: nil, count: table.count)
    }

    private mutating func key(_ text: StringArena.Ref, of record: AreaTable.Record) -> [UInt8] {
        table.strings.bytes.withUnsafeBufferPointer { arena in
            let pair = UInt64(record.province) << 32 | UInt64(record.district)
            let regional = regions[pair] ?? PlaceName.regionalWords(province: StringArena.utf8(record.province, in: arena),
                                                                  district: StringArena.utf8(record.district, in: arena))
            regions[pair] = regional
            return keyer.key(StringArena.utf8(text, in: arena), regional: regional)
        }
    }

    mutating func name(_ position: Int) -> [UInt8] {
        if let key = names[position] { return key }
        let record = table.records[position]
        let key = key(record.name, of: record)
        names[position] = key
        return key
    }

    /// The address's key without unnumbered notes; empty without an address.
    mutating func address(_ position: Int) -> [UInt8] {
        if let key = addresses[position] { return key }
        let record = table.records[position]
        let key = record.address == StringArena.empty || !matchingAddresses ? [] : PlaceName.mainPart(key(record.address, of: record))
        addresses[position] = key
        return key
    }

    /// A record merged into another's area is compared no more.
    mutating func forget(_ position: Int) {
        names[position] = nil
        addresses[position] = nil
    }

    /// Whether records `a` and `b` name one place: by their names (`PlaceName.samePlace`); by
    /// one's name being the other's address; or by one address, with the same numbers in both
    /// names (two exits of one station share its address). `MergeReason` says which.
    mutating func samePlace(_ a: Int, _ b: Int) -> Bool {
        let (nameA, nameB) = (name(a), name(b))
        if PlaceName.samePlace(nameA, nameB) { return true }
        let (addressA, addressB) = (address(a), address(b))
        if !addressA.isEmpty, addressA.elementsEqual(nameB.prefix { $0 != 0 }) { return true }
        if !addressB.isEmpty, addressB.elementsEqual(nameA.prefix { $0 != 0 }) { return true }
        return !addressA.isEmpty && addressA == addressB && PlaceName.digits(nameA) == PlaceName.digits(nameB)
    }

    /// The keys a record is looked up by and kept under near a crowd: its name's key (nil when
    /// it names no place), that key without its notes when it has some, its address's, and
    /// the numbers in its name.
    struct CrowdKeys {
        var name: [UInt8]?
        var mainName: [UInt8]?
        var address: [UInt8]?
        var numbers: [UInt8]
    }

    mutating func crowdKeys(_ position: Int) -> CrowdKeys {
        let name = name(position)
        let address = address(position)
        // A key that names no place (no letter or digit outside notes) joins nothing.
        let names = PlaceName.samePlace(name, name)
        let hasNotes = name.contains(0)
        return CrowdKeys(name: names ? name : nil, mainName: names && hasNotes ? PlaceName.mainPart(name) : nil,
                         address: address.isEmpty ? nil : address, numbers: address.isEmpty ? [] : PlaceName.digits(name))
    }
}

extension AreaGroups {
    /// Records in the nine cells around a record's own past which it is in a crowd.
    public static let defaultCrowdLimit = 256

    /// A grid cell's key in a `CellTable`.
    static func cellKey(_ y: Int64, _ x: Int64) -> Int64 { (y << 32) ^ (x & 0xFFFF_FFFF) }

    /// Which cells of the merge's grid hold a crowd around them, counted once over every
    /// record of the table (whatever their source or kind), so whether a record is in a crowd
    /// does not depend on the order records are taken in.
    struct Crowds {
        /// Cells whose nine cells hold more than the limit, and cells next to one (whose areas
        /// a record in the crowd may join, so they are kept by name too).
        private var crowded = CellTable(capacity: 0)
        private var nearCrowd = CellTable(capacity: 0)
        let any: Bool

        init(count: Int, cell: (Int) -> (Int64, Int64), limit: Int) {
            let key = AreaGroups.cellKey
            guard count > limit else { any = false; return }
            var counts = CellTable(capacity: count)
            for position in 0..<count {
                let (y, x) = cell(position)
                let k = key(y, x)
                _ = counts.replace(k, with: max(0, counts.value(k)) + 1)
            }
            // Each cell once: its count is marked as looked at.
            let looked: Int32 = 1 << 30
            func records(_ k: Int64) -> Int { Int(max(0, counts.value(k)) & ~looked) }
            var crowdedCells: [(Int64, Int64)] = []
            for position in 0..<count {
                let (y, x) = cell(position)
                let k = key(y, x)
                let value = counts.value(k)
                guard value & looked == 0 else { continue }
                _ = counts.replace(k, with: value | looked)
                var around = 0
                for dy in -1...1 { for dx in -1...1 { around += records(key(y + Int64(dy), x + Int64(dx))) } }
                if around > limit { crowdedCells.append((y, x)) }
            }
            any = !crowdedCells.isEmpty
            guard any else { return }
            crowded = CellTable(capacity: crowdedCells.count)
            nearCrowd = CellTable(capacity: crowdedCells.count * 9)
            for (y, x) in crowdedCells {
                _ = crowded.replace(key(y, x), with: 1)
                for dy in -1...1 { for dx in -1...1 { _ = nearCrowd.replace(key(y + Int64(dy), x + Int64(dx)), with: 1) } }
            }
        }

        func isCrowded(_ y: Int64, _ x: Int64) -> Bool { any && crowded.value(AreaGroups.cellKey(y, x)) > 0 }
        func isNearCrowd(_ y: Int64, _ x: Int64) -> Bool { any && nearCrowd.value(AreaGroups.cellKey(y, x)) > 0 }
    }

    /// Areas of one kind and one key (`PlaceKeys`) in one cell.
    struct NameCell: Hashable {
        var cell: Int64
        var kind: AreaKind
        var key: [UInt8]
    }

    /// The groups (`NameGroup`, by number; -1 for none) of the areas of one `NameCell` that
    /// have its key as their name, as their name without notes, or as their address (then by
    /// the numbers in their names).
    struct KeyedGroups {
        var byName: Int32 = -1
        var byMainName: Int32 = -1
        var byAddress: Int32 = -1
        var byAddressAndNumbers: [[UInt8]: Int32]?
    }

    /// The areas of one `NameCell`, in the order they were formed (priority order), with the
    /// ones the source now being merged already has skipped over: each record of a source
    /// takes at most one, so the source's records together look at each area about once.
    struct NameGroup {
        var members: [UInt32]
        /// `skip[i]`: the first member at or after `i` that may still be open; `i` when not
        /// known to be taken. Valid for `rank`'s records only.
        private var skip: [Int32] = [0]
        private var rank: Int32 = -1

        init(first: UInt32) { members = [first] }

        private mutating func open(from start: Int) -> Int {
            var i = start
            while i < skip.count, Int(skip[i]) != i { i = Int(skip[i]) }
            // Path compression: every member passed points at the first open one.
            var j = start
            while j < skip.count, Int(skip[j]) != j { let next = Int(skip[j]); skip[j] = Int32(i); j = next }
            return i
        }

        /// Makes `best` the nearest member within `meters` of `origin` that the record's
        /// source (`bit`) has not joined, if it is nearer than `best` (or as near and earlier).
        /// Returns how many members it looked at.
        mutating func nearestOpen(to origin: DistanceOrigin, rank: Int32, bit: UInt64, within meters: Double, sourcesOf: [UInt64],
                                  records: Column<AreaTable.Record>, ranks: [Int32], best: inout Int, bestDistance: inout Double) -> Int {
            if self.rank != rank {
                skip = (0..<Int32(members.count)).map { $0 }
                self.rank = rank
            }
            // Areas formed since (the record's own source's) are not known to be taken yet.
            while skip.count < members.count { skip.append(Int32(skip.count)) }
            var looked = 0
            var i = open(from: 0)
            while i < members.count {
                looked += 1
                let other = Int(members[i])
                if sourcesOf[other] & bit != 0 {
                    skip[i] = Int32(i + 1)
                    i = open(from: i + 1)
                    continue
                }
                let distance = Geodesy.distance(from: origin, to: records[other].coordinate)
                if distance <= meters && (distance < bestDistance || (distance == bestDistance && (ranks[other], other) < (ranks[best], best))) {
                    best = other
                    bestDistance = distance
                }
                // Members come in priority order: none after the first at distance 0 is better.
                if distance == 0 { break }
                i = open(from: i + 1)
            }
            return looked
        }
    }
}
