import Synchronization

/// Per node of the area tree, how many served areas of each kind lie under it and the sums of
/// their coordinates: what a map's clusters need of a subtree that falls in one cell, so
/// `clusters` adds the node whole instead of visiting its areas.
///
/// Built on the first `clusters` of an index, in one pass up the levels; the trees and their
/// files stay as they are.
struct TreeSummary: Sendable {
    /// Two per node position (`position - tree.count`): smoking, non-smoking.
    let counts: [UInt32]
    /// Four per node: latitude and longitude sums of the smoking areas, then of the zones.
    let sums: [Double]

    init(_ tree: PackedRTree) {
        let nodes = tree.levelEnds.last.map { $0 - tree.count } ?? 0
        var counts = [UInt32](repeating: 0, count: 2 * nodes)
        var sums = [Double](repeating: 0, count: 4 * nodes)
        tree.withEntries { entries in
            for level in 1..<max(1, tree.levelEnds.count) {
                for position in tree.levelEnds[level - 1]..<tree.levelEnds[level] {
                    let node = position - tree.count
                    for child in tree.children(of: position, level: level) {
                        if level == 1 {
                            // Class 1 smoking, 2 a zone, 0 a record served within another's area.
                            let kind = Int(entries.classes[child]) - 1
                            guard kind == 0 || kind == 1 else { continue }
                            let point = entries[child]
                            counts[2 * node + kind] += 1
                            sums[4 * node + 2 * kind] += point.south
                            sums[4 * node + 2 * kind + 1] += point.west
                        } else {
                            let below = child - tree.count
                            for i in 0..<2 { counts[2 * node + i] += counts[2 * below + i] }
                            for i in 0..<4 { sums[4 * node + i] += sums[4 * below + i] }
                        }
                    }
                }
            }
        }
        self.counts = counts
        self.sums = sums
    }
}

/// An index's summary, made once when first asked for.
final class TreeSummaryCache: Sendable {
    private let summary = Mutex<TreeSummary?>(nil)

    func summary(of tree: PackedRTree) -> TreeSummary {
        summary.withLock { cached in
            if let cached { return cached }
            let made = TreeSummary(tree)
            cached = made
            return made
        }
    }
}
