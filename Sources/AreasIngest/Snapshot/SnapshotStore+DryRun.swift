import AreasCore
import AreasSystem
import Foundation

extension SnapshotStore {
    /// What a dry run found: the data set a refresh would serve and its report, and what it
    /// was compared with.
    package struct DryRun: Sendable {
        package var dataSet: DataSet
        package var report: RefreshReport
        /// The records of the snapshot it was compared with, nil when there was none to read.
        package var comparedRecords: Int?
    }

    /// A refresh of `config` as it would run against this store's snapshot, fetched,
    /// validated, merged and corrected in a scratch folder and thrown away. Nothing a running
    /// daemon uses is touched: the snapshot and the files beside it stay as they are (the
    /// geocoder's memory is copied, so known positions cost no request, and the positions
    /// this run finds are dropped). Changes are counted against the snapshot, and a source
    /// that would shrink past `maxShrink` is reported held back, as a refresh would.
    package func dryRun(_ config: AreasConfig, environment: [String: String]) async throws(SystemError) -> DryRun {
        let scratch = NSTemporaryDirectory() + "areasd-dry-run-\(CurrentProcess.id)-\(UInt32.random(in: 0...UInt32.max))"
        try WholeFile.createDirectories(scratch)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let snapshot = scratch + "/areas.snapshot"
        let memory = SnapshotFolder(snapshot: path).geocoderMemory
        if FileManager.default.fileExists(atPath: memory) {
            try? FileManager.default.copyItem(atPath: memory, toPath: SnapshotFolder(snapshot: snapshot).geocoderMemory)
        }
        // Compared with what the snapshot holds, read and left as it is, so the report's
        // changes and the shrink guard are the ones a real refresh would meet.
        var served = Catalog()
        var compared: Int?
        if let bytes = try? WholeFile.read(path, limit: SnapshotFile.maximumBytes), let contents = try? SnapshotFile.decode(bytes, path: path) {
            served = contents.catalog
            compared = contents.catalog.table.count
        }
        let (catalog, report) = await Refresher(config: config, environment: environment, snapshotPath: snapshot).refresh(served)
        let dataSet = DataSet.indexing(catalog, nodeSize: nodeSize, footprint: footprint ?? .standard, merge: merge ?? .off, overrides: report.overrides ?? [])
        var counted = report
        let merged = dataSet.mergedBySource
        for i in counted.sources.indices { counted.sources[i].merged = merged[counted.sources[i].name] ?? 0 }
        return DryRun(dataSet: dataSet, report: counted, comparedRecords: compared)
    }

    /// Today's upstream requests, counted beside the snapshot across restarts.
    package var requestQuota: RequestQuota { RequestQuota(path: SnapshotFolder(snapshot: path).requestCounts) }

    /// The administrative map of `folder`, laid out beside the snapshot.
    package func regions(from folder: String) -> RegionStore.Loaded {
        RegionStore.load(folder: folder, prepared: SnapshotFolder(snapshot: path).regions)
    }
}
