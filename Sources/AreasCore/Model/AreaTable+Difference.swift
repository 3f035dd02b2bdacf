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
    /// run, a follower the leader's whole table with its own. `lettingGo` as `forEachPair`.
    public func difference(_ range: Range<Int>, from old: AreaTable, _ oldRange: Range<Int>,
                           lettingGo: (() -> Void)? = nil) -> AreaDifference {
        var difference = AreaDifference()
        forEachPair(from: old, oldRange, within: range, lettingGo: lettingGo) { i, j in
            if let i, let j {
                if !sameArea(at: j, as: old, at: i, idsMatch: true) { difference.changed += 1 }
            } else if j == nil {
                difference.removed += 1
            } else {
                difference.added += 1
            }
        }
        return difference
    }
}

extension AreaTable {
    /// Walks `old[oldRange]` and `self[range]` (all of each by default) together by id (both
    /// in id order): `pair` gets each id's position in `old` and in this table, nil where it
    /// has none.
    ///
    /// `lettingGo`, when given, is called after every `lettingGoStride` records of `old`
    /// walked: a walk over a mapped table lets the pages it has read go as it goes, so that
    /// comparing with a whole served file never holds all of it resident.
    public func forEachPair(from old: AreaTable, _ oldRange: Range<Int>? = nil, within range: Range<Int>? = nil,
                            lettingGo: (() -> Void)? = nil, _ pair: (_ old: Int?, _ new: Int?) -> Void) {
        let oldRange = oldRange ?? 0..<old.count
        let range = range ?? 0..<count
        var i = oldRange.lowerBound
        var j = range.lowerBound
        var nextLetGo = lettingGo == nil ? Int.max : i + Self.lettingGoStride
        while i < oldRange.upperBound || j < range.upperBound {
            if i >= nextLetGo {
                lettingGo?()
                nextLetGo = i + Self.lettingGoStride
            }
            if i == oldRange.upperBound { pair(nil, j); j += 1; continue }
            if j == range.upperBound { pair(i, nil); i += 1; continue }
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

    /// The records of an old table `forEachPair` walks between calls of its `lettingGo`: about
    /// 1.5 MiB of a mapped file's records, names and fields.
    public static let lettingGoStride = 8_192

    /// This table and `old` cut into `parts` pairs of runs holding the same ids, the table's
    /// runs of about equal length: walked apart (`forEachPair`), they pair every id once.
    package func pairedRuns(_ parts: Int, from old: AreaTable) -> [(old: Range<Int>, new: Range<Int>)] {
        let parts = Swift.max(parts, 1)
        let cuts = (1..<parts).map { count * $0 / parts }
        var runs: [(old: Range<Int>, new: Range<Int>)] = []
        var (oldStart, newStart) = (0, 0)
        for cut in cuts where cut > newStart {
            let oldCut = old.position(of: id(at: cut), from: oldStart).next
            runs.append((oldStart..<oldCut, newStart..<cut))
            (oldStart, newStart) = (oldCut, cut)
        }
        runs.append((oldStart..<old.count, newStart..<count))
        return runs
    }
}
