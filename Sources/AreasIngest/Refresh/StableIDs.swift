import AreasCore

/// A release's rows matched to the last's, so a place keeps its id while it stays recognisable:
/// an id is made from a row's name and position, so a booth moved, renamed or re-addressed in a
/// new release would otherwise be another area (its id, its first-seen time, every app's
/// bookmark of it). A new row whose id the last release lacks takes the id of a row of the
/// last release the new one lacks, when the two share their name and address (the row moved),
/// or their position and address (it was renamed); a row that changed two of the three is
/// another place. Each old id goes to one new row at most; an address must be given to match.
enum StableIDs {
    /// `table` (a source's new rows, in id order) with ids kept from `previous[range]` (its
    /// last run); `table` itself when no row needs one. The number of rows that kept an id.
    /// `lettingGo`: called as the walk along `previous` goes (`AreaTable.forEachPair`).
    static func keeping(_ table: AreaTable, from previous: AreaTable, _ range: Range<Int>,
                        lettingGo: (() -> Void)? = nil) -> (table: AreaTable, kept: Int) {
        guard !range.isEmpty, !table.isEmpty else { return (table, 0) }
        var oldOnly: [Int] = []
        var newOnly: [Int] = []
        table.forEachPair(from: previous, range, lettingGo: lettingGo) { old, new in
            if let old, new == nil { oldOnly.append(old) }
            if let new, old == nil { newOnly.append(new) }
        }
        guard !oldOnly.isEmpty, !newOnly.isEmpty else { return (table, 0) }
        struct Key: Hashable { var first: String; var address: String }
        func position(_ point: GeoPoint) -> String {
            "\(Int64((point.latitude * 1e6).rounded())),\(Int64((point.longitude * 1e6).rounded()))"
        }
        var byName: [Key: [Int]] = [:]
        var byPosition: [Key: [Int]] = [:]
        for old in oldOnly {
            let area = previous[old]
            guard !area.address.isEmpty else { continue }
            byName[Key(first: area.name, address: area.address), default: []].append(old)
            byPosition[Key(first: position(area.coordinate), address: area.address), default: []].append(old)
        }
        var used = Set<Int>()
        var renamed: [Int: String] = [:]
        func take(_ candidates: [Int]?) -> Int? { candidates?.first { !used.contains($0) } }
        for new in newOnly {
            let area = table[new]
            guard !area.address.isEmpty else { continue }
            guard let old = take(byName[Key(first: area.name, address: area.address)])
                    ?? take(byPosition[Key(first: position(area.coordinate), address: area.address)]) else { continue }
            used.insert(old)
            renamed[new] = previous.id(at: old)
        }
        guard !renamed.isEmpty else { return (table, 0) }
        var builder = AreaTable.Builder(capacity: table.count)
        for position in table.indices {
            var area = table[position]
            if let id = renamed[position] { area.id = id }
            builder.append(area)
        }
        return (builder.buildSortedByID(), renamed.count)
    }
}
