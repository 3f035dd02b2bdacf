/// How one run of areas became another: the areas only in the new run, only in the old, and in
/// both but different in any field.
public struct AreaDifference: Sendable, Equatable {
    public var added = 0
    public var removed = 0
    public var changed = 0

    public init(added: Int = 0, removed: Int = 0, changed: Int = 0) {
        self.added = added
        self.removed = removed
        self.changed = changed
    }

    public var isEmpty: Bool { added == 0 && removed == 0 && changed == 0 }
}

extension AreaTable {
    /// What changed from `old[oldRange]` to `self[range]`. Both runs are in id order, so one walk
    /// along the two finds every pair: a refresh compares a source's new areas with its last
    /// run, a follower the leader's whole table with its own.
    public func difference(_ range: Range<Int>, from old: AreaTable, _ oldRange: Range<Int>) -> AreaDifference {
        var difference = AreaDifference()
        var i = oldRange.lowerBound
        var j = range.lowerBound
        while i < oldRange.upperBound || j < range.upperBound {
            if i == oldRange.upperBound {
                difference.added += range.upperBound - j
                break
            }
            if j == range.upperBound {
                difference.removed += oldRange.upperBound - i
                break
            }
            let order = old.strings.withUTF8(old.records[i].id) { strings.compare(records[j].id, $0) }
            if order == 0 {
                if !sameArea(at: j, as: old, at: i) { difference.changed += 1 }
                i += 1
                j += 1
            } else if order > 0 {
                difference.removed += 1
                i += 1
            } else {
                difference.added += 1
                j += 1
            }
        }
        return difference
    }
}

extension AreaTable {
    /// Walks `old[oldRange]` (all of it by default) and this table together by id (both in id
    /// order): `pair` gets each id's position in `old` and in this table, nil where it has none.
    public func forEachPair(from old: AreaTable, _ oldRange: Range<Int>? = nil, _ pair: (_ old: Int?, _ new: Int?) -> Void) {
        let oldRange = oldRange ?? 0..<old.count
        var i = oldRange.lowerBound
        var j = 0
        while i < oldRange.upperBound || j < count {
            if i == oldRange.upperBound { pair(nil, j); j += 1; continue }
            if j == count { pair(i, nil); i += 1; continue }
            let order = old.strings.withUTF8(old.records[i].id) { strings.compare(records[j].id, $0) }
            if order == 0 {
                pair(i, j)
                i += 1
                j += 1
            } else if order > 0 {
                pair(i, nil)
                i += 1
            } else {
                pair(nil, j)
                j += 1
            }
        }
    }
}
