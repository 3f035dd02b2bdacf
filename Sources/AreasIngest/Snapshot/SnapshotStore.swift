import AreasCore
import AreasSystem
import Foundation

/// A data set ready to serve: a catalog and its table's index, built as configured.
package struct DataSet: Sendable {
    package var catalog: Catalog
    package var index: AreaIndex
    /// Lines of the operator's corrections the build could not apply (an index read back from
    /// its file no longer knows them).
    package var overrideProblems: [String] = []
    /// When this data was made (the snapshot file's time, or the build's when it could not be
    /// written); nil for data this store did not make. A file's data keeps its version across
    /// restarts and on every follower that takes the file.
    package var writtenAt: Double?
    /// What changed between the versions of this data, and when each record was first seen.
    package var changes = ChangeLog()

    /// The data's version, nil for data this store did not make.
    package var version: String? { writtenAt.map { Self.version(writtenAt: $0, records: catalog.table.records.count) } }

    /// The version of data made at `writtenAt`: the time to the microsecond and the record
    /// count, in base 36.
    package static func version(writtenAt: Double, records: Int) -> String {
        String(UInt64(Swift.max(0, writtenAt) * 1_000_000), radix: 36) + "-" + String(records, radix: 36)
    }

    /// What `stats`, `sources` and the metrics count of its served areas.
    package var counts: ServedCounts

    /// `counts`: the counts as its snapshot holds them; without, they are counted here.
    package init(catalog: Catalog, index: AreaIndex, counts: ServedCounts? = nil) {
        precondition(index.areas.count == catalog.table.count, "the index of the catalog's table")
        self.catalog = catalog
        self.index = index
        self.overrideProblems = index.overrideProblems
        self.counts = counts ?? ServedCounts(catalog, index: index)
    }

    /// `catalog` with its table merged and indexed now (for data that no snapshot holds).
    /// `keepingSearch`: see `AreaIndex.init(sortedTable:)`.
    package static func indexing(_ catalog: Catalog, nodeSize: Int = PackedRTree.defaultNodeSize, footprint: FootprintPolicy = .standard,
                                 merge: MergePolicy = .off, overrides: [AreaOverride] = [],
                                 keepingSearch: (SearchIndex) -> SearchIndex = { $0 }) -> DataSet {
        DataSet(catalog: catalog, index: catalog.index(nodeSize: nodeSize, footprint: footprint, merge: merge, overrides: overrides,
                                                       keepingSearch: keepingSearch))
    }

    /// How many of each source's records are served as part of an earlier source's area.
    package var mergedBySource: [String: Int] {
        let groups = index.groups
        guard !groups.isEmpty else { return [:] }
        // Merged, not hidden: a hidden area's records are counted by `overridden`.
        let table = index.areas
        return catalog.sources.mapValues { span in span.range.reduce(0) { $0 + (groups.isMergedAcrossSources($1, in: table) ? 1 : 0) } }
    }

    /// No areas.
    package static func empty(nodeSize: Int = PackedRTree.defaultNodeSize, footprint: FootprintPolicy = .standard) -> DataSet {
        indexing(Catalog(), nodeSize: nodeSize, footprint: footprint)
    }
}

/// The one owner of a data set's life on disk: what a daemon serves at start, what a refresh
/// puts in place, what a follower takes from its leader, and the fetch times that refreshes
/// which changed nothing confirmed beside the file.
///
/// Everything it hands back is indexed as configured and, whenever the file could be written,
/// served from the mapped file itself: what is served is then exactly what a restart would
/// load. Nothing it refuses is served or kept, and the file in place stays as it was.
package struct SnapshotStore: Sendable {
    package let path: String
    package let nodeSize: Int
    /// How zones' footprints are drawn; nil takes a file's as they are (a follower serves its
    /// leader's).
    package let footprint: FootprintPolicy?
    /// How records are merged into areas; nil takes a file's merging as it is (a follower
    /// serves its leader's areas).
    package let merge: MergePolicy?
    /// The operator's corrections to apply; nil takes a file's as they are (a follower, or
    /// an overrides file that cannot be read now).
    package let overrides: [AreaOverride]?

    package init(path: String, nodeSize: Int = PackedRTree.defaultNodeSize, footprint: FootprintPolicy? = .standard, merge: MergePolicy? = nil,
                 overrides: [AreaOverride]? = nil) {
        self.path = path
        self.nodeSize = nodeSize
        self.footprint = footprint
        self.merge = merge
        self.overrides = overrides
    }

    /// What the store did, for the daemon's log.
    package enum Note: Sendable, Equatable {
        case info(String)
        case warning(String)
        case error(String)
    }

    // MARK: At start

    /// The data set in the snapshot, with the later fetch times confirmed beside it; nil when
    /// there is none or it is unreadable (a corrupt file is moved aside for inspection). A file
    /// in an older format, or laid out with other footprints or merging than configured, is
    /// indexed and written again, so the next start serves it in place.
    package func load(notes: inout [Note]) -> DataSet? {
        let clock = ContinuousClock()
        let start = clock.now
        let contents: SnapshotFile.Contents
        do throws(SnapshotFile.Failure) {
            guard let loaded = try SnapshotFile.load(path: path) else {
                notes.append(.info("no snapshot at \(path); serving nothing until the first refresh finishes"))
                return nil
            }
            contents = loaded
        } catch {
            if case .corrupt = error {
                // Kept for inspection, and out of the way of the next start.
                let moved = SnapshotFile.quarantine(path: path).map { "moved it to \($0)" } ?? "could not move it aside"
                notes.append(.error("\(error); \(moved); starting empty, fetching now"))
            } else {
                notes.append(.error("\(error); starting empty, fetching now"))
            }
            return nil
        }
        let catalog = Self.confirming(contents.catalog, FetchTimes.read(beside: path))
        let inPlace = contents.index.map(isBuilt) ?? false
        var dataSet = served(contents, catalog: catalog)
        notes.append(.info("loaded snapshot \(path) (format \(contents.version), \(inPlace ? "served in place" : "indexed")): \(dataSet.index.count) areas from \(contents.fetchedAt.count) sources in \(Int((clock.now - start).milliseconds)) ms"))
        // An older format is written again even when its index is served as it is: its areas'
        // fields, read into this build's layout, are held in memory until then.
        if !inPlace || contents.version < SnapshotFile.version {
            do throws(SnapshotFile.Failure) {
                // The confirmed fetch times go into the file, so the file beside it goes.
                dataSet = try write(dataSet)
                notes.append(.info("rewrote snapshot \(path) in format \(SnapshotFile.version)"))
            } catch {
                notes.append(.warning("cannot rewrite snapshot \(path) in format \(SnapshotFile.version): \(error); serving it from memory"))
            }
        }
        return dataSet
    }

    // MARK: After a refresh

    /// What a refresh's data came to.
    package enum Settled: Sendable {
        /// No area changed: the served areas stay, with the sources' later fetch times (`catalog`).
        case unchanged(Catalog)
        /// New areas, indexed as configured; `inFile` when they were written in place (else
        /// served from memory, the file in place left as it was).
        case replaced(DataSet, inFile: Bool)
        /// New areas that were written but failed the check of the file (the reason): nothing
        /// changed, and the next refresh tries again.
        case notInstalled(String)
    }

    /// Puts a refresh's `refreshed` catalog in place of `serving` (`hasData`: whether anything
    /// was served yet). Only a source whose areas changed, or one dropped from the config,
    /// changes the data; then the index is rebuilt and the file rewritten. Sources fetched again
    /// with the same areas only move their fetch times, kept beside the file. A served index
    /// built otherwise than this store builds one (a config changed by SIGHUP) is rebuilt too.
    package func settle(_ refreshed: consuming Catalog, report: RefreshReport, serving: DataSet, hasData: Bool, notes: inout [Note]) -> Settled {
        let changed = report.sources.contains { $0.status == .updated && (!$0.isUnchanged || !hasData) }
            || Set(refreshed.sources.keys) != Set(serving.catalog.sources.keys)
            || (hasData && !isBuilt(serving.index))
        if changed { return install(consume refreshed, after: hasData ? serving : nil, notes: &notes) }
        var confirmed: [String: Double] = [:]
        for source in report.sources where source.isUnchanged { confirmed[source.name] = refreshed.sources[source.name]?.fetchedAt }
        let catalog = serving.catalog.with(fetchedAt: confirmed)
        if !confirmed.isEmpty && hasData { confirm(catalog, notes: &notes) }
        return .unchanged(catalog)
    }

    /// A refresh's new data: indexed, written, mapped, checked and renamed into place. When the
    /// file cannot be written (a full disk) the new data is served from memory and the file in
    /// place is left as it was.
    ///
    /// The data set built in memory is let go once written, before the file is read back to
    /// check it: a refresh's peak memory would otherwise hold the data twice, built and mapped.
    private func install(_ catalog: consuming Catalog, after serving: DataSet?, notes: inout [Note]) -> Settled {
        let clock = ContinuousClock()
        let start = clock.now
        // What the fetch and the sources' tables freed goes back first, and the code only the
        // fetch ran (networking, TLS, the decoders): the index build's own memory then adds to
        // what the new data holds, not to what the allocator kept free or the fetch touched.
        FreeMemory.release()
        FreeMemory.releaseUnwrittenFilePages()
        // The search index, the largest part of the index, waits in a file of the snapshot's
        // folder while the trees are built and until the file's layout copies it.
        let folder = SnapshotFolder(snapshot: path).folder
        var movedBytes = 0
        func movingPostings(of search: SearchIndex) -> SearchIndex {
            search.movingPostings { postings in
                let moved = ColumnOnDisk.moving(postings, into: folder)
                if moved != nil { movedBytes = postings.byteCount }
                return moved
            }
        }
        var built = DataSet.indexing(consume catalog, nodeSize: nodeSize, footprint: footprint ?? .standard, merge: merge ?? .off,
                                     overrides: overrides ?? [], keepingSearch: movingPostings(of:))
        let milliseconds = (clock.now - start).milliseconds
        // And the code only the build ran (sorting, packing trees), before the change log and
        // the file's layout add to what the new data holds.
        FreeMemory.releaseUnwrittenFilePages()
        built.index.buildMilliseconds = milliseconds
        let waited = movedBytes == 0 ? ""
            : "; its search postings (\(String(format: "%.1f", Double(movedBytes) / 1_048_576)) MiB) waited in a file of \(folder) while the trees were built"
        notes.append(.info("index built: \(built.index.count) areas in \(Int(milliseconds)) ms" + waited))
        // The new version's step: what it changed from the one served.
        let at = Date().timeIntervalSince1970
        let version = DataSet.version(writtenAt: at, records: built.catalog.table.records.count)
        built.changes = Self.changes(from: serving, to: built.catalog.table, built.index, version: version, at: at)
        built.writtenAt = at
        let temporary: String
        do throws(SnapshotFile.Failure) {
            temporary = try SnapshotFile.writeUnchecked(built.catalog, index: built.index, for: path, createdAt: at, changes: built.changes,
                                                         counts: built.counts)
        } catch {
            notes.append(.error("\(error); the previous snapshot is unchanged, and the new data is served from memory"))
            return .replaced(built, inFile: false)
        }
        let overrideProblems = built.index.overrideProblems
        // Let go (an empty set in its place), before the file is read back.
        built = .empty(nodeSize: nodeSize)
        do throws(SnapshotFile.Failure) {
            var written = inFile(try SnapshotFile.install(temporary, at: path))
            written.overrideProblems = overrideProblems
            // The file's index is the one just built, read back: the time is the build's.
            written.index.buildMilliseconds = milliseconds
            return .replaced(written, inFile: true)
        } catch {
            let reason = "\(error); the new data was not installed and the previous data is still served (the next refresh tries again)"
            notes.append(.error(reason))
            return .notInstalled(reason)
        }
    }

    /// The change log of `table` (indexed as `index`), version `version` made at `at`, after
    /// `old` (nil: the first data served).
    private static func changes(from old: DataSet?, to table: AreaTable, _ index: AreaIndex, version: String, at: Double) -> ChangeLog {
        guard let old else { return .first(records: table.count, at: at) }
        return old.changes.next(from: (old.catalog.table, old.index, old.version ?? version, old.writtenAt ?? at), to: (table, index), version: version, at: at)
    }

    /// A refresh that changed no area: the sources' later fetch times, kept beside the file
    /// (which is not rewritten), so a restart knows how fresh the data is.
    private func confirm(_ catalog: Catalog, notes: inout [Note]) {
        do throws(SystemError) {
            try FetchTimes.write(catalog.sources.mapValues(\.fetchedAt), beside: path)
        } catch {
            notes.append(.warning("cannot record the fetch times beside \(path): \(error.reason); after a restart the data will look as old as the snapshot"))
        }
    }

    // MARK: The refreshes' history

    /// Each configured source's refreshes, as last kept beside the snapshot.
    package func history(configured: [String]) -> [String: SourceHistory] {
        SourceHistory.load(from: SnapshotFolder(snapshot: path).sourceHistory, configured: configured)
    }

    /// Keeps `history` beside the snapshot, so a restart neither forgets a failing source nor
    /// calls its data healthy without knowing how the last refresh went.
    package func keep(_ history: [String: SourceHistory], notes: inout [Note]) {
        if let problem = SourceHistory.save(history, to: SnapshotFolder(snapshot: path).sourceHistory) { notes.append(.warning(problem)) }
    }

    /// What the last refresh read, as kept beside the snapshot; nil when none was kept or the
    /// file is not one this build wrote (the next refresh writes it again).
    package func lastReport() -> RefreshReport? {
        guard let bytes = try? WholeFile.read(SnapshotFolder(snapshot: path).lastReport, limit: 16 << 20) else { return nil }
        var report = try? JSONDecoder().decode(RefreshReport.self, from: Data(bytes))
        report?.isFromBeforeRestart = true
        return report
    }

    /// Keeps `report` beside the snapshot, so that after a restart `sources` and `stats` still
    /// say what the last refresh read.
    package func keep(_ report: RefreshReport, notes: inout [Note]) {
        do {
            try WholeFile.replace(SnapshotFolder(snapshot: path).lastReport, with: Array(try JSONEncoder().encode(report)))
        } catch {
            notes.append(.warning("cannot keep the last refresh's report beside \(path): \(error); after a restart sources shows no counts until the next refresh"))
        }
    }

    /// Served from the file from now on: written with its index, mapped and checked.
    private func write(_ dataSet: DataSet) throws(SnapshotFile.Failure) -> DataSet {
        inFile(try SnapshotFile.writeMapped(dataSet.catalog, index: dataSet.index, to: path, createdAt: dataSet.writtenAt, changes: dataSet.changes))
    }

    /// The data set of the file just put in place, which holds the fetch times kept beside it.
    private func inFile(_ written: SnapshotFile.Contents) -> DataSet {
        FetchTimes.remove(beside: path)
        return served(written, catalog: written.catalog)
    }

    // MARK: A leader's snapshot

    /// What taking a leader's snapshot came to.
    package enum Adoption: Sendable {
        /// The leader's data, with the later fetch times its refreshes confirmed; `notKept`
        /// says why it could not be kept as the local snapshot (it is served from memory).
        case taken(DataSet, notKept: String?)
        case refused(String)
    }

    /// The leader's snapshot file (on a shared folder), taken once it passed every check a
    /// start makes: as a second name of the same file when both are on one file system (so the
    /// daemons mapping it share its pages), else as a copy.
    /// `confirmed`: the fetch times the leader confirmed, when they did not come beside its
    /// file (a download's came in its answer's header).
    package func adopt(file leader: String, confirmed: [String: Double]? = nil, judge: (SnapshotFile.Contents) -> String? = { _ in nil }) -> Adoption {
        taking({ () throws(SnapshotFile.Failure) in try SnapshotFile.adopt(file: leader, as: path, judge: judge) },
               orServing: { () throws(SnapshotFile.Failure) in try SnapshotFile.load(path: leader) },
               judge: judge, confirmed: confirmed ?? FetchTimes.read(beside: leader))
    }

    /// A leader's snapshot fetched from `url`, with the fetch times its header confirmed.
    package func adopt(_ bytes: [UInt8], from url: String, confirmed: [String: Double],
                       judge: (SnapshotFile.Contents) -> String? = { _ in nil }) -> Adoption {
        taking({ () throws(SnapshotFile.Failure) in try SnapshotFile.adopt(bytes, as: path, judge: judge) },
               orServing: { () throws(SnapshotFile.Failure) in try SnapshotFile.decode(bytes, path: url) },
               judge: judge, confirmed: confirmed)
    }

    /// Takes a leader's snapshot with `adopt` (in place at the local path, checked); when the
    /// local path cannot be written, serves it with `read` instead and says why.
    private func taking(
        _ adopt: () throws(SnapshotFile.Failure) -> SnapshotFile.Contents,
        orServing read: () throws(SnapshotFile.Failure) -> SnapshotFile.Contents?,
        judge: (SnapshotFile.Contents) -> String?,
        confirmed: [String: Double]
    ) -> Adoption {
        do throws(SnapshotFile.Failure) {
            let contents = try adopt()
            let taken = served(contents, catalog: Self.confirming(contents.catalog, confirmed))
            // The leader's later confirmations go beside it, as the leader keeps them.
            try? FetchTimes.write(taken.catalog.sources.mapValues(\.fetchedAt), beside: path)
            return .taken(taken, notKept: nil)
        } catch {
            guard case .unwritable = error else { return .refused("refused the leader's snapshot: \(error)") }
            do throws(SnapshotFile.Failure) {
                guard let contents = try read() else { return .refused("the leader's snapshot is not there") }
                if let reason = judge(contents) { return .refused("refused the leader's snapshot: \(reason)") }
                return .taken(served(contents, catalog: Self.confirming(contents.catalog, confirmed)), notKept: error.description)
            } catch {
                return .refused("refused the leader's snapshot: \(error)")
            }
        }
    }

    // MARK: Pieces

    /// Whether `index` was built as this store is configured to build one.
    package func isBuilt(_ index: AreaIndex) -> Bool {
        index.isBuilt(nodeSize: nodeSize, footprint: footprint, merge: merge, overrides: overrides.map(AreaOverride.fingerprint))
    }

    /// A file's areas, served with `catalog` (its catalog, with fetch times confirmed since):
    /// with the file's own index when built as configured, else one built now (an older
    /// format, or a leader's laid out with other footprints).
    private func served(_ contents: SnapshotFile.Contents, catalog: Catalog) -> DataSet {
        var dataSet = if let index = contents.index, isBuilt(index) {
            DataSet(catalog: catalog, index: index, counts: contents.counts)
        } else {
            DataSet.indexing(catalog, nodeSize: nodeSize, footprint: footprint ?? contents.index?.footprintPolicy ?? .standard,
                             merge: merge ?? contents.index?.mergePolicy ?? .off,
                             overrides: overrides ?? [])
        }
        dataSet.writtenAt = contents.createdAt
        dataSet.changes = contents.changes.firstSeen.count == catalog.table.count ? contents.changes
            : .first(records: catalog.table.count, at: contents.createdAt)
        return dataSet
    }

    /// `catalog` with the later fetch times confirmed since it was written.
    static func confirming(_ catalog: Catalog, _ confirmed: [String: Double]) -> Catalog {
        catalog.with(fetchedAt: confirmed.filter { $0.value > catalog.sources[$0.key]?.fetchedAt ?? .infinity })
    }
}
