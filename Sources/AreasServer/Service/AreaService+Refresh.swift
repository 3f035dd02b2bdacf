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

    /// The administrative map once it has been read (or found missing): a refresh started just
    /// after the daemon waits up to a minute for it rather than check no district.
    private func regionsRead() async -> ServedRegions {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while clock.now < deadline {
            let regions = servedRegions.withLock { $0 }
            if case .loading = regions { try? await Task.sleep(for: .milliseconds(20)) } else { return regions }
        }
        return servedRegions.withLock { $0 }
    }

    /// Fetches every source, merges what changed into a new catalog, writes it to the snapshot
    /// and serves it; an unchanged refresh only updates the report.
    private func performRefresh(force: Bool) async -> RefreshReport {
        let config = self.config
        if let follow = config.follow { return await performFollow(follow, force: force) }
        let before = state
        logger.info("refresh started: \(config.sources.count) sources" + (force ? " (forced)" : ""))
        // Whatever questions read of the served file before need not stay through the refresh.
        before.catalog.releaseMappedPages()
        var refresher = Refresher(config: config, environment: environment, snapshotPath: snapshotPath, quota: quota)
        refreshProgress.withLock { $0 = (0, config.sources.count) }
        refresher.sourceFinished = { [refreshProgress] in refreshProgress.withLock { $0.finished += 1 } }
        refresher.geocoderPacing = geocoderPacing
        refresher.regions = await regionsRead().map
        refresher.previousRevisions = Dictionary((before.lastReport?.sources ?? []).compactMap { report in report.revision.map { (report.name, $0) } },
                                                 uniquingKeysWith: { _, last in last })
        let (catalog, report) = await refresher.refresh(before.catalog, force: force)
        // Comparing and merging read the whole served set; its pages need not stay while the
        // new set is indexed, written and checked.
        before.catalog.releaseMappedPages()
        for source in report.sources {
            if source.status == .updated {
                logger.info("source " + source.summary)
            } else {
                logger.warning("source " + source.summary)
            }
        }
        for problem in report.problems { logger.warning(problem) }
        if let lines = report.overrides { overrideLines.withLock { $0 = lines } }
        let store = self.store
        var notes: [SnapshotStore.Note] = []
        let history = SourceHistory.after(report, previous: before.history, configured: config.sources.map(\.name), now: Date().timeIntervalSince1970)
        func withMerged(_ dataSet: DataSet) -> RefreshReport {
            var report = report
            let merged = dataSet.mergedBySource
            for i in report.sources.indices { report.sources[i].merged = merged[report.sources[i].name] ?? 0 }
            report.problems += dataSet.overrideProblems
            return report
        }
        let next: ServingState
        let serving = DataSet(catalog: before.catalog, index: before.index)
        let settled = store.settle(consume catalog, report: report, serving: serving, hasData: before.hasData, notes: &notes)
        switch settled {
        case .unchanged(let refreshed):
            next = before.with(catalog: refreshed, report: withMerged(serving), history: history)
        case .notInstalled(let reason):
            var kept = withMerged(serving)
            kept.problems.append(reason)
            next = before.with(catalog: before.catalog, report: kept, history: history)
        case .replaced(let dataSet, let inFile):
            // Served from the new file once it is written and checked, so the memory the build
            // took goes back and the pages are shared with the kernel's cache and any follower.
            for problem in dataSet.overrideProblems { notes.append(.warning(problem)) }
            if !dataSet.index.overrides.isEmpty {
                notes.append(.info("overrides: \(dataSet.index.overrides.positions.count) areas corrected, \(dataSet.index.overrides.hiddenCount) of them hidden"))
            }
            let merged = dataSet.mergedBySource.filter { $0.value > 0 }
            if !merged.isEmpty {
                notes.append(.info("merged \(merged.values.reduce(0, +)) records into earlier sources' areas (" +
                                   merged.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"))
            }
            next = ServingState(dataSet, hasData: true, lastReport: withMerged(dataSet), snapshotPath: snapshotPath,
                                builtAt: Date().timeIntervalSince1970, history: history, inFile: inFile)
        }
        store.keep(history, notes: &notes)
        if let kept = next.lastReport { store.keep(kept, notes: &notes) }
        logger.log(notes)
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
