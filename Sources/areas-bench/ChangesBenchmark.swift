import AreasCore
import AreasIngest
import AreasServer
import AreasSystem
import AreasTestSupport
import Foundation

/// `areas-bench changes`: what keeping the versions' changes costs a refresh, against the index
/// build every refresh that changes data makes anyway, in the same run: `versions` releases of
/// `points` areas, each with `percent` of them changed (a third moved 40 m, a third renamed, a
/// third removed and as many new); then the log's bytes after them against one version's, and
/// `changes` since the oldest kept version.
struct ChangesBenchmark {
    var points = 1_000_000
    var versions = 30
    var percent = 1.0

    init(arguments: inout ArgumentList) throws {
        points = try arguments.value("--points", as: { Int($0) }) ?? points
        versions = try arguments.value("--versions", as: { Int($0) }) ?? versions
        percent = try arguments.value("--percent", as: { Double($0) }) ?? percent
        _ = try arguments.positionals()
    }

    func run() throws {
        var areas = BenchData.areas(count: points)
        var random = SplitMix64(seed: 71)
        var catalog = Catalog(areas: areas, fetchedAt: ["bench": 1.7e9])
        var index = catalog.index()
        var at = 1.7e9
        var version = DataSet.version(writtenAt: at, records: areas.count)
        var log = ChangeLog.first(records: areas.count, at: at)
        var indexMs: [Double] = []
        var logMs: [Double] = []
        var indexCPUMs: [Double] = []
        var logCPUMs: [Double] = []
        var indexPeak: [Double] = []
        var logPeak: [Double] = []
        var oneVersionBytes = 0
        var oldest = version
        var next = points
        for round in 0..<versions {
            let touched = Int(Double(points) * percent / 100)
            for k in 0..<touched {
                let i = Int.random(in: 0..<areas.count, using: &random)
                switch k % 3 {
                case 0: areas[i].coordinate = GeoPoint(uncheckedLatitude: areas[i].coordinate.latitude + 0.00036, longitude: areas[i].coordinate.longitude)
                case 1: areas[i].name += " 흡연부스"
                default:
                    areas[i] = Area(id: "b:" + String(next, radix: 36), kind: .smoking, name: "새 흡연구역 \(next)", coordinate: areas[i].coordinate,
                                    roadAddress: "서울특별시 용산구 한강대로 \(next % 500)", province: "서울특별시", district: "용산구", source: "bench", fields: [])
                    next += 1
                }
            }
            areas.sort { $0.id < $1.id }
            let newCatalog = Catalog(areas: areas, fetchedAt: ["bench": at + 86_400])
            Measure.resetPeakResident()
            var resident = Measure.residentBytes
            var start = Measure.clock.now
            var cpu = Measure.processCPUMilliseconds
            let newIndex = newCatalog.index()
            indexMs.append((Measure.clock.now - start).milliseconds)
            indexCPUMs.append(Measure.processCPUMilliseconds - cpu)
            indexPeak.append(Double(Measure.peakResidentBytes - resident) / 1_048_576)
            let newAt = at + 86_400
            let newVersion = DataSet.version(writtenAt: newAt, records: areas.count)
            Measure.resetPeakResident()
            resident = Measure.residentBytes
            start = Measure.clock.now
            cpu = Measure.processCPUMilliseconds
            log = log.next(from: (catalog.table, index, version, at), to: (newCatalog.table, newIndex), version: newVersion, at: newAt)
            logMs.append((Measure.clock.now - start).milliseconds)
            logCPUMs.append(Measure.processCPUMilliseconds - cpu)
            logPeak.append(Double(Measure.peakResidentBytes - resident) / 1_048_576)
            if round == 0 { oneVersionBytes = log.stepsText.count }
            (catalog, index, at, version) = (newCatalog, newIndex, newAt, newVersion)
            if round == versions - ChangeLog.keptVersions { oldest = log.steps.first?.since ?? oldest }
        }
        oldest = log.steps.first?.since ?? oldest
        let bytes = log.stepsText.count + 16 * points
        // All of them at once, then as `changes` pages them at the default `maxResults`: the
        // first page, and every page in turn from the cursor of the one before.
        var wholeMs: [Double] = []
        var listed = 0
        for _ in 0..<5 {
            let start = Measure.clock.now
            listed = log.changes(since: oldest, current: version, index: index)?.changes.count ?? 0
            wholeMs.append((Measure.clock.now - start).milliseconds)
        }
        let pageSize = 10_000
        var firstPageMs: [Double] = []
        for _ in 0..<5 {
            let start = Measure.clock.now
            _ = log.changes(since: oldest, current: version, index: index, limit: pageSize)
            firstPageMs.append((Measure.clock.now - start).milliseconds)
        }
        var pageMs: [Double] = []
        var paged = 0
        var after: String?
        repeat {
            let start = Measure.clock.now
            let page = log.changes(since: oldest, current: version, index: index, after: after, limit: pageSize)
            pageMs.append((Measure.clock.now - start).milliseconds)
            paged += page?.changes.count ?? 0
            after = page?.more == true ? page?.changes.last?.id : nil
        } while after != nil
        // What a start reads of them: the steps' text parsed back, as a snapshot's load does.
        let text = log.stepsText
        var start = Measure.clock.now
        let read = ChangeLog.steps(from: text)?.count ?? 0
        let readMs = (Measure.clock.now - start).milliseconds
        start = Measure.clock.now
        let written = log.stepsText.count
        let writeMs = (Measure.clock.now - start).milliseconds
        // A start on the snapshot holding them: the file mapped and checked, then the first
        // page of `changes` (which waits for the steps read on their own thread).
        let path = NSTemporaryDirectory() + "areas-bench-changes-\(getpid()).snapshot"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(SnapshotFile.encode(catalog, index: index, createdAt: at, changes: log)).write(to: URL(fileURLWithPath: path))
        start = Measure.clock.now
        let loaded = try SnapshotFile.load(path: path)
        let loadMs = (Measure.clock.now - start).milliseconds
        start = Measure.clock.now
        let firstAfterLoad = loaded.flatMap { contents in contents.index.flatMap { contents.changes.changes(since: oldest, current: version, index: $0, limit: 10_000) } }
        let firstAfterLoadMs = (Measure.clock.now - start).milliseconds
        // What else a refresh counts beside the build: `stats`' counts, laid out in the file.
        start = Measure.clock.now
        let counted = ServedCounts(catalog, index: index).byProvince.values.reduce(0, +)
        let countMs = (Measure.clock.now - start).milliseconds
        let index50 = Measure.percentile(indexMs, 0.5), log50 = Measure.percentile(logMs, 0.5)
        print("\(points) areas, \(versions) releases of \(Measure.format(percent, 1))% changed:")
        print("  a refresh's index build \(Measure.format(index50, 0)) ms (median); the change log's step beside it \(Measure.format(log50, 0)) ms: "
              + "\(Measure.format((index50 + log50) / index50, 3))x the build alone (goal: at most 1.1x); "
              + "CPU \(Measure.format(Measure.percentile(logCPUMs, 0.5), 0)) ms against the build's \(Measure.format(Measure.percentile(indexCPUMs, 0.5), 0)) ms (every core)")
        print("  the served areas counted for stats and the metrics (\(counted) areas): \(Measure.format(countMs, 1)) ms")
        print("  peak memory the index build added \(Measure.format(Measure.percentile(indexPeak, 0.5), 1)) MiB (median); the step added \(Measure.format(Measure.percentile(logPeak, 0.5), 1)) MiB")
        print("  the log's steps after \(log.steps.count) versions: \(log.stepsText.count) bytes, \(Measure.format(Double(log.stepsText.count) / Double(max(1, oneVersionBytes)), 1))x one version's "
              + "(\(oneVersionBytes) bytes); with each record's two times, \(Measure.format(Double(bytes) / 1_048_576, 1)) MiB in the snapshot")
        print("  the steps written as the snapshot keeps them in \(Measure.format(writeMs, 0)) ms (\(written) bytes), read back at a start in \(Measure.format(readMs, 0)) ms (\(read) steps)")
        print("  a start on the snapshot with them: loaded in \(Measure.format(loadMs, 0)) ms (the steps read after, on their own thread); "
              + "the first page of changes since the oldest then \(Measure.format(firstAfterLoadMs, 0)) ms (\(firstAfterLoad?.changes.count ?? 0) listed)")
        print("  changes since the oldest kept version, all at once: \(listed) areas in \(Measure.format(Measure.percentile(wholeMs, 0.5), 1)) ms (median of 5)")
        print("  paged at \(pageSize) (maxResults): the first page \(Measure.format(Measure.percentile(firstPageMs, 0.5), 1)) ms (median of 5; goal: under 50 ms); "
              + "\(pageMs.count) pages from each one's cursor, \(paged) areas, slowest \(Measure.format(pageMs.max() ?? 0, 1)) ms, all \(Measure.format(pageMs.reduce(0, +), 0)) ms")
    }
}
