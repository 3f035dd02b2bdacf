import AreasCore
import Foundation

extension SnapshotStore {
    /// What a refresh came to, finished: what to serve, the report as the daemon answers it
    /// (merged counts and the overrides' problems in it), each source's history, and what to
    /// log. The store has kept the history and the report beside the snapshot already.
    package struct Refreshed: Sendable {
        package enum Served: Sendable {
            /// The served areas stay, with the sources' later fetch times (`catalog`).
            case kept(Catalog)
            /// New areas; `inFile` when they are served from the written file.
            case replaced(DataSet, inFile: Bool)
        }

        package var served: Served
        package var report: RefreshReport
        package var history: [String: SourceHistory]
        package var notes: [Note]
    }

    /// Runs `refresher` against the data set served now and settles what it brings: one hop from
    /// the serving process, which only logs the notes and serves the outcome.
    /// `hasData`: whether anything was served yet; `history`: each source's history until now.
    package func refresh(with refresher: Refresher, serving: DataSet, hasData: Bool, history previous: [String: SourceHistory],
                         force: Bool) async -> Refreshed {
        // Whatever questions read of the served file before need not stay through the refresh.
        serving.catalog.releaseMappedPages()
        let (catalog, report) = await refresher.refresh(serving.catalog, force: force)
        // Comparing and merging read the whole served set; its pages need not stay while the
        // new set is indexed, written and checked.
        serving.catalog.releaseMappedPages()
        // The operator's corrections as this refresh read them: the data is built with them.
        let store = overrides != nil ? report.overrides.map { SnapshotStore(path: path, nodeSize: nodeSize, footprint: footprint, merge: merge, overrides: $0) } ?? self : self
        var notes: [Note] = report.sources.map { source in source.status == .updated ? .info("source " + source.summary) : .warning("source " + source.summary) }
            + report.problems.map(Note.warning)
        let history = SourceHistory.after(report, previous: previous, configured: refresher.config.sources.map(\.name), now: Date().timeIntervalSince1970)
        func finished(merging dataSet: DataSet) -> RefreshReport {
            var report = report
            let merged = dataSet.mergedBySource
            for i in report.sources.indices { report.sources[i].merged = merged[report.sources[i].name] ?? 0 }
            report.problems += dataSet.overrideProblems
            return report
        }
        var refreshed: Refreshed
        switch store.settle(consume catalog, report: report, serving: serving, hasData: hasData, notes: &notes) {
        case .unchanged(let confirmed):
            refreshed = Refreshed(served: .kept(confirmed), report: finished(merging: serving), history: history, notes: [])
        case .notInstalled(let reason):
            var kept = finished(merging: serving)
            kept.problems.append(reason)
            refreshed = Refreshed(served: .kept(serving.catalog), report: kept, history: history, notes: [])
        case .replaced(let dataSet, let inFile):
            for problem in dataSet.overrideProblems { notes.append(.warning(problem)) }
            if !dataSet.index.overrides.isEmpty {
                notes.append(.info("overrides: \(dataSet.index.overrides.positions.count) areas corrected, \(dataSet.index.overrides.hiddenCount) of them hidden"))
            }
            let merged = dataSet.mergedBySource.filter { $0.value > 0 }
            if !merged.isEmpty {
                notes.append(.info("merged \(merged.values.reduce(0, +)) records into earlier sources' areas (" +
                                   merged.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"))
            }
            refreshed = Refreshed(served: .replaced(dataSet, inFile: inFile), report: finished(merging: dataSet), history: history, notes: [])
        }
        store.keep(history, notes: &notes)
        store.keep(refreshed.report, notes: &notes)
        refreshed.notes = notes
        return refreshed
    }

    /// A follower's refresh: asks the leader with `follower` and takes a changed snapshot once it
    /// passed every check a start-up load makes and would not shrink the data past `maxShrink`
    /// (unless `force`), reported as the one source `sourceName`.
    package func follow(_ follow: FollowConfig, with follower: SnapshotFollower, serving: DataSet, hasData: Bool,
                        history previous: [String: SourceHistory], maxShrink: Double, force: Bool, sourceName: String) async -> Refreshed {
        let startedAt = Date().timeIntervalSince1970
        let clock = ContinuousClock()
        let start = clock.now
        var source = SourceReport(name: sourceName, status: .updated)
        source.pages = 1
        var notes: [Note] = []
        var served = Refreshed.Served.kept(serving.catalog)
        let before = serving.catalog
        let judge = { (contents: SnapshotFile.Contents) in ShrinkGuard.refusal(of: contents.catalog, replacing: before, maxShrink: maxShrink, force: force) }
        switch await follower.poll(follow, into: self, force: force, judge: judge) {
        case .unchanged:
            source.accepted = serving.index.count
            source.serving = serving.index.count
        case .changed(let dataSet, let notKept):
            let table = dataSet.catalog.table
            let difference = hasData ? table.difference(table.indices, from: before.table, before.table.indices) : AreaDifference(added: table.count)
            (source.added, source.removed, source.changed) = (difference.added, difference.removed, difference.changed)
            source.accepted = table.count
            source.serving = table.count
            served = .replaced(dataSet, inFile: notKept == nil)
            if let notKept { notes.append(.error("\(notKept); serving the leader's data without a local copy")) }
        case .failed(let reason):
            source.status = .failed
            source.error = reason
            source.serving = serving.index.count
        }
        source.durationMilliseconds = (clock.now - start).milliseconds
        let report = RefreshReport(startedAt: startedAt, durationMilliseconds: source.durationMilliseconds, forced: force, sources: [source])
        let history = SourceHistory.after(report, previous: previous, configured: [sourceName], now: Date().timeIntervalSince1970)
        keep(history, notes: &notes)
        return Refreshed(served: served, report: report, history: history, notes: notes)
    }
}
