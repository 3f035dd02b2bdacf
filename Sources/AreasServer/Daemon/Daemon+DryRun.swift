import AreasCore
import AreasIngest
import AreasSystem
import Foundation

extension Daemon {
    /// `--dry-run`: a refresh of the config as it would run, fetched, validated, merged and
    /// corrected, reported and thrown away. Nothing a running daemon uses is touched: the
    /// snapshot, the socket and the geocoder's memory stay as they are (the memory is read,
    /// so known positions cost no request, and the positions this run finds are dropped).
    /// Changes are counted against the configured snapshot, and a source that would shrink
    /// past `maxShrink` is reported held back, as a refresh would. Exit 0 when every source
    /// updated, 1 when one failed or would be held back, 78 for a bad config.
    package func dryRun() -> (output: String, code: Int32) {
        let (loaded, problems) = loadConfig()
        guard let config = loaded, problems.isEmpty else { return (problems.joined(separator: "\n"), 78) }
        guard config.follow == nil else { return ("areasd: \(options.configPath): a follower fetches no sources; --dry-run tries a config that does", 78) }
        let scratch = NSTemporaryDirectory() + "areasd-dry-run-\(CurrentProcess.id)-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        do throws(SystemError) { try WholeFile.createDirectories(scratch) } catch {
            return ("areasd: cannot make a scratch folder \(scratch): \(error)", 1)
        }
        let snapshot = scratch + "/areas.snapshot"
        let configured = options.snapshotPath ?? config.snapshot ?? DefaultPaths.snapshot(environment: environment)
        let memory = SnapshotFolder(snapshot: configured).geocoderMemory
        if FileManager.default.fileExists(atPath: memory) {
            try? FileManager.default.copyItem(atPath: memory, toPath: SnapshotFolder(snapshot: snapshot).geocoderMemory)
        }

        // Compared with what the configured snapshot holds, read and left as it is, so the
        // report's changes and the shrink guard are the ones a real refresh would meet.
        var served = Catalog()
        var against = "no snapshot at \(configured) to compare with"
        if let bytes = try? WholeFile.read(configured, limit: SnapshotFile.maximumBytes),
           let contents = try? SnapshotFile.decode(bytes, path: configured) {
            served = contents.catalog
            against = "compared with the \(contents.catalog.table.count) records of \(configured)"
        }
        let before = served
        let environment = self.environment
        guard let (catalog, result) = Self.waitFor({ await Refresher(config: config, environment: environment, snapshotPath: snapshot).refresh(before) }) else {
            return ("areasd: the refresh did not finish", 1)
        }
        var report = result
        let dataSet = DataSet.indexing(catalog, footprint: config.footprint, merge: config.merge ?? .off, overrides: report.overrides ?? [])
        let merged = dataSet.mergedBySource
        var lines = ["areasd: dry run of \(options.configPath), \(against): nothing is served, written or kept"]
        for i in report.sources.indices {
            report.sources[i].merged = merged[report.sources[i].name] ?? 0
            let source = report.sources[i]
            lines.append("source " + source.summary + (source.merged > 0 ? ", \(source.merged) merged into earlier sources' areas" : ""))
        }
        for problem in report.problems + dataSet.overrideProblems { lines.append("problem: \(problem)") }
        let index = dataSet.index
        lines.append("would serve \(index.count) areas (\(index.count(of: .smoking)) smoking, \(index.count(of: .nonsmoking)) non-smoking)"
                     + (report.succeeded ? "" : "; some sources failed or would be held back"))
        return (lines.joined(separator: "\n"), report.succeeded ? 0 : 1)
    }
}
