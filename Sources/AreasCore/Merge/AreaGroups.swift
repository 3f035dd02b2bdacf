/// Which records of a table are served as one area: each record's area is named by the
/// position of the area's leading record, the one from the earliest source.
///
/// A table without merged records has no groups at all (`isEmpty`), and everything that asks
/// about groups costs one check then; the data sets most daemons serve are like that.
public struct AreaGroups: Sendable {
    /// `leaders[i]`: the position of the record that leads record i's area (i itself for a
    /// leader). Empty when no record was merged into another's area.
    public let leaders: Column<UInt32>
    /// Leader p's records are `members[memberStarts[p]..<memberStarts[p + 1]]`, leader first,
    /// then by the sources' priority (empty when `leaders` is).
    let memberStarts: [UInt32]
    let members: [UInt32]
    /// How many records lead no area of their own.
    public let mergedCount: Int

    public static let none = AreaGroups(leaders: Column(), memberStarts: [], members: [], mergedCount: 0)

    init(leaders: Column<UInt32>, memberStarts: [UInt32], members: [UInt32], mergedCount: Int) {
        self.leaders = leaders
        self.memberStarts = memberStarts
        self.members = members
        self.mergedCount = mergedCount
    }

    /// Groups read back from a snapshot's `leaders` column (checked: every leader in range and
    /// leading itself), members ordered by `priority` as a merge orders them.
    public init(leaders: Column<UInt32>, table: AreaTable, priority: [String]) {
        guard !leaders.isEmpty else {
            self = .none
            return
        }
        let ranks = Self.ranks(of: table, priority: priority)
        var order = Array(0..<UInt32(table.count))
        order.sort { (ranks[Int($0)], $0) < (ranks[Int($1)], $1) }
        self = Self.grouping(leaders, inOrder: order)
    }

    public var isEmpty: Bool { leaders.isEmpty }

    /// The position of the record leading the area that record `position` belongs to.
    @inlinable
    public func leader(of position: Int) -> Int {
        leaders.isEmpty ? position : Int(leaders[position])
    }

    /// Whether the record at `position` is served only as part of another record's area.
    @inlinable
    public func isMerged(_ position: Int) -> Bool {
        !leaders.isEmpty && Int(leaders[position]) != position
    }

    /// Whether the record at `position` is served as part of an area another source's record
    /// leads (merged across sources, not another row of its own source's place).
    public func isMergedAcrossSources(_ position: Int, in table: AreaTable) -> Bool {
        guard isMerged(position) else { return false }
        let records = table.records
        return !table.strings.equals(records[position].source, records[Int(leaders[position])].source)
    }

    /// Whether the record at `position` is a further row of a place its own source lists
    /// (`SourceRows`): served through the place's first row.
    public func isListedAgain(_ position: Int, in table: AreaTable) -> Bool {
        isMerged(position) && !isMergedAcrossSources(position, in: table)
    }

    /// The records of the area led by `position`, leader first (just `position` when alone).
    public func records(of position: Int) -> [Int] {
        guard !leaders.isEmpty else { return [position] }
        return members[Int(memberStarts[position])..<Int(memberStarts[position + 1])].map { Int($0) }
    }

    /// How many records the area led by `position` has.
    public func recordCount(of position: Int) -> Int {
        leaders.isEmpty ? 1 : Int(memberStarts[position + 1] - memberStarts[position])
    }

    /// Each record's source rank: its place in `priority`, unnamed sources after in name order.
    static func ranks(of table: AreaTable, priority: [String]) -> [Int32] {
        var rankOfName: [String: Int32] = [:]
        for (i, name) in priority.enumerated() where rankOfName[name] == nil { rankOfName[name] = Int32(i) }
        var rankOfRef: [StringArena.Ref: Int32] = [:]
        var unnamed: [String] = []
        let records = table.records
        for record in records where rankOfRef[record.source] == nil {
            let name = table.strings.string(record.source)
            if let rank = rankOfName[name] { rankOfRef[record.source] = rank } else { rankOfRef[record.source] = -1; unnamed.append(name) }
        }
        for (i, name) in unnamed.sorted().enumerated() {
            for (ref, rank) in rankOfRef where rank == -1 && table.strings.equals(ref, name) { rankOfRef[ref] = Int32(priority.count + i) }
        }
        return records.map { rankOfRef[$0.source] ?? 0 }
    }

    /// The member lists of `leaders`, members in the order of `order` (every position once).
    static func grouping(_ leaders: Column<UInt32>, inOrder order: [UInt32]) -> AreaGroups {
        let count = leaders.count
        var starts = [UInt32](repeating: 0, count: count + 1)
        var merged = 0
        for i in 0..<count {
            starts[Int(leaders[i]) + 1] += 1
            if Int(leaders[i]) != i { merged += 1 }
        }
        for i in 0..<count { starts[i + 1] += starts[i] }
        var next = starts
        var members = [UInt32](repeating: 0, count: count)
        // A leader comes before its members in every merge order, so it is listed first.
        for position in order {
            let leader = Int(leaders[Int(position)])
            members[Int(next[leader])] = position
            next[leader] += 1
        }
        return AreaGroups(leaders: leaders, memberStarts: starts, members: members, mergedCount: merged)
    }
}
