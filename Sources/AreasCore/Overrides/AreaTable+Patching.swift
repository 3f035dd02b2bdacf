extension AreaTable {
    /// The same table with some records moved or renamed (the operator's corrections); every
    /// other byte as it was, new names appended to a copy of the arena.
    package func patching(_ patches: [Int: (coordinate: GeoPoint?, name: String?)]) -> AreaTable {
        guard !patches.isEmpty else { return self }
        var records = Array(self.records)
        var strings = StringArena.Builder(continuing: self.strings)
        for (position, patch) in patches {
            if let coordinate = patch.coordinate { records[position].coordinate = coordinate }
            if var name = patch.name { records[position].name = name.withUTF8 { strings.append($0) } }
        }
        return AreaTable(records: Column(records), fields: fields, strings: strings.build())
    }
}

extension AppliedOverrides {
    /// Applies `lines` to the areas of `table` as `groups` forms them: a line names an area by
    /// its id or by any of its records' (an `add` line by the id its record was given,
    /// `overrides:ID`); `hide` marks the area, `move` and `rename` change its leading record.
    /// Lines whose id the data lacks, and repeats, are reported by line and skipped.
    package static func apply(_ lines: [AreaOverride], to table: AreaTable, groups: AreaGroups, addedSource: String)
        -> (table: AreaTable, applied: AppliedOverrides, problems: [String]) {
        guard !lines.isEmpty else { return (table, .none, []) }
        var touched: [Int: (Flags, [String])] = [:]
        var patches: [Int: (coordinate: GeoPoint?, name: String?)] = [:]
        var problems: [String] = []
        var seen: [String: Int] = [:]
        for line in lines {
            let id = line.action == .add ? "\(addedSource):\(line.id)" : line.id
            let key = "\(line.action.rawValue) \(id)"
            if let first = seen[key] {
                problems.append("overrides line \(line.line): repeats line \(first) (\(line.action.rawValue) \(line.id)); skipped")
                continue
            }
            seen[key] = line.line
            guard let record = table.position(of: id) else {
                problems.append("overrides line \(line.line): no area or record has the id '\(line.id)' (\(line.action.rawValue)); skipped")
                continue
            }
            let leader = groups.leader(of: record)
            var entry = touched[leader] ?? ([], [])
            switch line.action {
            case .hide: entry.0.insert(.hidden)
            case .add: entry.0.insert(.added)
            case .move:
                entry.0.insert(.moved)
                patches[leader, default: (nil, nil)].coordinate = line.coordinate
            case .rename:
                entry.0.insert(.renamed)
                patches[leader, default: (nil, nil)].name = line.name
            }
            entry.1.append(line.note)
            touched[leader] = entry
        }
        return (table.patching(patches), AppliedOverrides(touched, fingerprint: AreaOverride.fingerprint(lines)), problems)
    }
}
