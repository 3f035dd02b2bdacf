import AreasCore
import AreasIngest
import AreasSystem
import Foundation

extension Daemon {
    /// `--dry-run`: a refresh of the config as it would run, reported and thrown away
    /// (`SnapshotStore.dryRun`). Exit 0 when every source updated, 1 when one failed or would
    /// be held back, 78 for a bad config.
    package func dryRun() -> (output: String, code: Int32) {
        let (loaded, problems) = loadConfig()
        guard let config = loaded, problems.isEmpty else { return (problems.joined(separator: "\n"), 78) }
        guard config.follow == nil else { return ("areasd: \(options.configPath): a follower fetches no sources; --dry-run tries a config that does", 78) }
        let configured = options.snapshotPath ?? config.snapshot ?? DefaultPaths.snapshot(environment: environment)
        let store = SnapshotStore(path: configured, footprint: config.footprintPolicy, merge: config.merge)
        let environment = self.environment
        let outcome = Self.waitFor { () async -> Result<SnapshotStore.DryRun, SystemError> in
            do throws(SystemError) { return .success(try await store.dryRun(config, environment: environment)) } catch { return .failure(error) }
        }
        let run: SnapshotStore.DryRun
        switch outcome {
        case .success(let finished)?: run = finished
        case .failure(let error)?: return ("areasd: cannot make a scratch folder for the dry run: \(error)", 1)
        case nil: return ("areasd: the refresh did not finish", 1)
        }
        let against = run.comparedRecords.map { "compared with the \($0) records of \(configured)" } ?? "no snapshot at \(configured) to compare with"
        var lines = ["areasd: dry run of \(options.configPath), \(against): nothing is served, written or kept"]
        for source in run.report.sources {
            lines.append("source " + source.summary + (source.merged > 0 ? ", \(source.merged) merged into earlier sources' areas" : ""))
        }
        for problem in run.report.problems + run.dataSet.overrideProblems { lines.append("problem: \(problem)") }
        let index = run.dataSet.index
        lines.append("would serve \(index.count) areas (\(index.count(of: .smoking)) smoking, \(index.count(of: .nonsmoking)) non-smoking)"
                     + (run.report.succeeded ? "" : "; some sources failed or would be held back"))
        return (lines.joined(separator: "\n"), run.report.succeeded ? 0 : 1)
    }
}
