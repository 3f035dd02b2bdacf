import AreasCore
import AreasIngest
import AreasSystem
import Foundation

extension AreaService {
    /// The name a follower's one "source" has in reports, `stats` and the metrics.
    static let followSourceName = "leader"

    /// A follower's refresh: ask for the leader's snapshot, and serve it when it changed and
    /// passed every check; on any failure keep serving what is served, and say why.
    func performFollow(_ follow: FollowConfig, force: Bool) async -> RefreshReport {
        let startedAt = Date().timeIntervalSince1970
        let clock = ContinuousClock()
        let start = clock.now
        let before = state
        var source = SourceReport(name: Self.followSourceName, status: .updated)
        source.pages = 1
        var taken: (dataSet: DataSet, inFile: Bool)?
        let maxShrink = config.maxShrink
        let served = before.catalog
        let judge = { (contents: SnapshotFile.Contents) in ShrinkGuard.refusal(of: contents.catalog, replacing: served, maxShrink: maxShrink, force: force) }
        switch await follower.poll(follow, into: store, force: force, judge: judge) {
        case .unchanged:
            source.accepted = before.index.count
            source.serving = before.index.count
        case .changed(let dataSet, let notKept):
            let table = dataSet.catalog.table
            let difference = before.hasData ? table.difference(table.indices, from: before.catalog.table, before.catalog.table.indices)
                                            : AreaDifference(added: table.count)
            (source.added, source.removed, source.changed) = (difference.added, difference.removed, difference.changed)
            source.accepted = table.count
            source.serving = table.count
            taken = (dataSet, notKept == nil)
            if let notKept { logger.error("\(notKept); serving the leader's data without a local copy") }
        case .failed(let reason):
            source.status = .failed
            source.error = reason
            source.serving = before.index.count
        }
        source.durationMilliseconds = (clock.now - start).milliseconds
        let report = RefreshReport(startedAt: startedAt, durationMilliseconds: source.durationMilliseconds, forced: force, sources: [source])
        let history = SourceHistory.after(report, previous: before.history, configured: [Self.followSourceName], now: Date().timeIntervalSince1970)
        let next = taken.map {
            ServingState($0.dataSet, hasData: true, lastReport: report, snapshotPath: snapshotPath, builtAt: Date().timeIntervalSince1970,
                         history: history, inFile: $0.inFile)
        } ?? before.with(catalog: before.catalog, report: report, history: history)
        var notes: [SnapshotStore.Note] = []
        store.keep(history, notes: &notes)
        logger.log(notes)
        install(next)
        onRefresh(next)
        if source.status == .failed {
            logger.error("following \(follow.name): \(source.error ?? "failed"); still serving \(next.index.count) areas")
        } else if !source.isUnchanged {
            logger.info("following \(follow.name): took the leader's snapshot, \(next.index.count) areas (+\(source.added) -\(source.removed) ~\(source.changed))")
        }
        return report
    }
}
