/// What an area says of where it comes from: its date and its sources, from every record it
/// was merged from. Every answer that shows an area (`Answers.area`) asks here.
extension AreaIndex {
    /// The newest day any of the area's records states (`ReferenceDate`'s day; 0 for none):
    /// an area is as recent as its newest record.
    public func referenceDay(ofArea position: Int, in areas: AreaTable.Buffers) -> UInt16 {
        var day = areas.records[position].referenceDay
        if !groups.isEmpty, groups.recordCount(of: position) > 1 {
            for member in groups.records(of: position) { day = max(day, areas.records[member].referenceDay) }
        }
        return day
    }

    /// The sources of a merged area's records, each once, in the records' order; empty for an
    /// area of one record, whose `source` says it all.
    public func mergedSources(ofArea position: Int, in areas: AreaTable.Buffers) -> [StringArena.Ref] {
        guard !groups.isEmpty, groups.recordCount(of: position) > 1 else { return [] }
        var named: [StringArena.Ref] = []
        for member in groups.records(of: position) where !named.contains(areas.records[member].source) {
            named.append(areas.records[member].source)
        }
        return named
    }
}

extension AreaIndex.Check {
    /// The zones this check's point is in and `before`'s was not (`entered`), and the other
    /// way round (`exited`), each nearest first as its check lists them: what a person walking
    /// from `before`'s point to this one crossed.
    public func changes(since before: AreaIndex.Check) -> (entered: [Int], exited: [Int]) {
        let now = Set(zones.map(\.position)), then = Set(before.zones.map(\.position))
        return (zones.map(\.position).filter { !then.contains($0) }, before.zones.map(\.position).filter { !now.contains($0) })
    }
}
