/// Whether a whole new data set (a leader's snapshot) may replace the one served: the same
/// guard a source's fetch passes, applied to the set and to each of its sources. A snapshot
/// that is well formed and correctly sealed can still hold nothing, or a leader can lose most
/// of a source; serving that would answer "no zone here" everywhere.
package enum ShrinkGuard {
    /// The most sources a leader's snapshot may name (the country's districts are about 250).
    package static let maximumSources = 1_000

    /// Why `next` is refused in place of `served`, or nil when it may be taken. A set with no
    /// areas is always refused; one that shrinks by more than `maxShrink`, overall or in any
    /// source, only unless `force`.
    package static func refusal(of next: Catalog, replacing served: Catalog, maxShrink: Double, force: Bool) -> String? {
        // Every source is a run of series in the metrics and a row of `stats` and `sources`:
        // a leader naming thousands (all empty, a few hundred kilobytes) would cost each scrape.
        guard next.sources.count <= maximumSources else {
            return "it names \(next.sources.count) sources, more than the \(maximumSources) a follower takes"
        }
        guard next.areaCount > 0 else {
            return "it holds no areas (\(served.areaCount) are served); a leader's snapshot with nothing in it is never taken"
        }
        guard !force else { return nil }
        func shrinks(_ from: Int, _ to: Int) -> Bool { from > 0 && 1 - Double(to) / Double(from) > maxShrink }
        let limit = "more than \(Int((maxShrink * 100).rounded()))%; a forced refresh takes it"
        if shrinks(served.areaCount, next.areaCount) {
            return "it would shrink the data from \(served.areaCount) to \(next.areaCount) areas (\(limit))"
        }
        // A source the new set no longer names was dropped from the leader's config; one it
        // still names but nearly empty lost its data.
        for (name, span) in served.sources.sorted(by: { $0.key < $1.key }) {
            guard let after = next.sources[name]?.range.count else { continue }
            if shrinks(span.range.count, after) {
                return "it would shrink source \(name) from \(span.range.count) to \(after) areas (\(limit))"
            }
        }
        return nil
    }
}
