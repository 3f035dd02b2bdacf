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
        let before = state
        let refreshed = await store.follow(follow, with: follower, serving: before.dataSet, hasData: before.hasData,
                                           history: before.history, maxShrink: config.maxShrink, force: force, sourceName: Self.followSourceName)
        logger.log(refreshed.notes)
        let report = refreshed.report
        let next: ServingState = switch refreshed.served {
        case .kept: before.with(catalog: before.catalog, report: report, history: refreshed.history)
        case .replaced(let dataSet, let inFile):
            ServingState(dataSet, hasData: true, lastReport: report, snapshotPath: snapshotPath, builtAt: Date().timeIntervalSince1970,
                         history: refreshed.history, inFile: inFile)
        }
        install(next)
        onRefresh(next)
        let source = report.sources[0]
        if source.status == .failed {
            logger.error("following \(follow.name): \(source.error ?? "failed"); still serving \(next.index.count) areas")
        } else if !source.isUnchanged {
            logger.info("following \(follow.name): took the leader's snapshot, \(next.index.count) areas (+\(source.added) -\(source.removed) ~\(source.changed))")
        }
        return report
    }
}
