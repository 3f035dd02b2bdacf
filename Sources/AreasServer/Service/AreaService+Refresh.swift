import AreasCore
import AreasIngest
import AreasSystem
import Foundation

extension AreaService {
    /// A refresh to wait on.
    package struct RefreshJobHandle: Sendable {
        let job: RefreshCoordinator.Job
        /// Blocks until the refresh finishes.
        package func wait() -> RefreshReport? { job.wait() }
    }

    /// Starts a refresh, or joins the one already running; returns the job to wait on.
    @discardableResult
    package func startRefresh(force: Bool) -> RefreshJobHandle {
        RefreshJobHandle(job: refreshes.start { [self] in
            let report = await performRefresh(force: force)
            // The refresh's temporaries (pages, per-source tables, the catalog and index built
            // in memory before the file served) are all freed once it has returned: only then
            // can their pages go back.
            FreeMemory.release()
            // And the code and constants only the refresh read (the networking, TLS and XML
            // libraries): the serving path brings back what it uses. Reading the process's
            // mappings takes a moment, which the refresh's waiters do not wait for.
            DispatchQueue.global(qos: .utility).async { FreeMemory.releaseUnwrittenFilePages() }
            return report
        })
    }

    /// Fetches every source, merges what changed into a new catalog, writes it to the snapshot
    /// and serves it; an unchanged refresh only updates the report.
    private func performRefresh(force: Bool) async -> RefreshReport {
        let config = self.config
        if let follow = config.follow { return await performFollow(follow, force: force) }
        let before = state
        logger.info("refresh started: \(config.sources.count) sources" + (force ? " (forced)" : ""))
        var refresher = Refresher(config: config, environment: environment, snapshotPath: snapshotPath, quota: quota)
        refreshProgress.withLock { $0 = (0, config.sources.count) }
        refresher.sourceFinished = { [refreshProgress] in refreshProgress.withLock { $0.finished += 1 } }
        refresher.geocoderPacing = geocoderPacing
        // The administrative map once it has been read (or found missing): a refresh started just
        // after the daemon waits up to a minute for it rather than check no district.
        refresher.regions = await servedRegions.settled(within: 60).map
        refresher.previousRevisions = Dictionary((before.lastReport?.sources ?? []).compactMap { report in report.revision.map { (report.name, $0) } },
                                                 uniquingKeysWith: { _, last in last })
        let refreshed = await store.refresh(with: refresher, serving: before.dataSet, hasData: before.hasData,
                                            history: before.history, force: force)
        logger.log(refreshed.notes)
        let report = refreshed.report
        if let lines = report.overrides { overrideLines.withLock { $0 = lines } }
        let next: ServingState = switch refreshed.served {
        case .kept(let catalog):
            before.with(catalog: catalog, report: report, history: refreshed.history)
        case .replaced(let dataSet, let inFile):
            // Served from the new file once it is written and checked, so the memory the build
            // took goes back and the pages are shared with the kernel's cache and any follower.
            ServingState(dataSet, hasData: true, lastReport: report, snapshotPath: snapshotPath,
                         builtAt: Date().timeIntervalSince1970, history: refreshed.history, inFile: inFile)
        }
        install(next)
        onRefresh(next)
        if !report.sources.isEmpty && report.sources.allSatisfy({ $0.status == .failed }) {
            logger.error("refresh failed: no source could be fetched (\(report.sources.map(\.name).joined(separator: ", "))); still serving the previous \(next.index.count) areas")
        } else {
            logger.info("refresh finished in \(Int(report.durationMilliseconds)) ms: \(next.index.count) areas served" +
                        (report.succeeded ? "" : "; some sources failed or were held back"))
        }
        return report
    }
}
