import AreasCore
import AreasIngest
import AreasServer
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc

/// `areas-bench merge`: the first refresh of overlapping sources with merging on beside the
/// same refresh with it off, in the same run: 20 CSV sources (16 of zones, 4 of smoking areas)
/// in which a place is published by one to three of them, a few meters apart and its name
/// written differently, as the city, the districts and the national data re-publish each
/// other. Each refresh (decode, validate, merge, index, encode the snapshot) runs in a child
/// process of its own, so its time and peak memory are its alone; runs alternate off, on.
/// Beside it, the merge alone on the first scale's data with its address tests and without
/// (names only), alternating in this process: what matching a booth named by another
/// source's address costs.
struct MergeBenchmark {
    var scales = [85_000, 1_000_000]
    var runs = 2
    var sources = 20
    /// The child's part: one refresh of the files in `folder` with `meters`.
    var childFolder: String?
    var childMeters = 0.0
    /// Only write the files of the first scale into this folder (to profile a child on them).
    var writeOnly: String?
    /// Rows of each of two sources at one position, merged beside the same rows spread out
    /// (`--one-point N`; 0 leaves it out).
    var onePointRows = 50_000

    init(arguments: inout ArgumentList) throws {
        if let records = try arguments.value("--records") {
            scales = records.split(separator: ",").compactMap { Int($0) }
            guard !scales.isEmpty, scales.allSatisfy({ $0 >= 1_000 }) else { throw UsageError.invalidValue("--records", records) }
        }
        runs = try arguments.value("--runs", as: { Int($0) }) ?? runs
        childFolder = try arguments.value("--child")
        childMeters = try arguments.value("--meters", as: { Double($0) }) ?? childMeters
        writeOnly = try arguments.value("--write-only")
        onePointRows = try arguments.value("--one-point", as: { Int($0) }) ?? onePointRows
        _ = try arguments.positionals()
    }

    func run() throws {
        if let childFolder { return try refreshOnce(folder: childFolder, meters: childMeters) }
        if let writeOnly {
            try FileManager.default.createDirectory(atPath: writeOnly, withIntermediateDirectories: true)
            _ = try Self.writeSources(records: scales[0], sources: sources, folder: writeOnly)
            return
        }
        if onePointRows > 0 { try Self.atOnePoint(rows: onePointRows, runs: runs) }
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).path
        for records in scales {
            let folder = NSTemporaryDirectory() + "areas-bench-merge-\(getpid())-\(records)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let places = try Self.writeSources(records: records, sources: sources, folder: folder)
            print("\(records) records of \(places) places in \(sources) overlapping CSV sources (\(records * 16 / 17) zones, \(records / 17) smoking areas)")
            var results: [Double: [[String: Double]]] = [:]
            for _ in 0..<runs {
                for meters in [0.0, 15.0] {
                    let result = try Self.child(me, ["merge", "--child", folder, "--meters", String(meters)])
                    results[meters, default: []].append(result)
                    print("  merge.meters \(Int(meters)): \(Measure.format(result["ms"] ?? 0)) ms, peak \(Int(result["peak_mib"] ?? 0)) MiB, \(Int(result["areas"] ?? 0)) areas (\(Int(result["merged"] ?? 0)) records merged, merging itself \(Measure.format(result["merge_ms"] ?? 0)) ms)")
                }
            }
            func best(_ meters: Double, _ key: String) -> Double { results[meters]?.compactMap { $0[key] }.min() ?? 0 }
            print("  best of \(runs): refresh \(Measure.format(best(15, "ms") / best(0, "ms")))x with merging, peak memory \(Measure.format(best(15, "peak_mib") / best(0, "peak_mib")))x")
            if records == scales[0] { try addressTests(folder: folder) }
            print(Measure.json(["records": Double(records), "refresh_ms_off": best(0, "ms"), "refresh_ms_on": best(15, "ms"),
                                "peak_mib_off": best(0, "peak_mib"), "peak_mib_on": best(15, "peak_mib"), "areas_on": best(15, "areas"),
                                "merge_ms": best(15, "merge_ms")]))
        }
    }

    /// Two sources of `rows` rows each at one position (a district file whose rows all got the
    /// office's coordinates, and another publisher's copy), merged beside the same rows each
    /// at a position of its own: the merge's CPU time for each, alternating, best of `runs`.
    static func atOnePoint(rows: Int, runs: Int) throws {
        func table(spread: Bool) throws -> AreaTable {
            var areas: [Area] = []
            areas.reserveCapacity(2 * rows)
            for source in ["a", "b"] {
                for i in 0..<rows {
                    let step = spread ? Double(i) : 0
                    let point = try GeoPoint(latitude: 37.4 + (step * 0.0003).truncatingRemainder(dividingBy: 0.3),
                                             longitude: 126.8 + (step * 0.0003 / 0.3).rounded(.down) * 0.0003)
                    areas.append(Area(id: "\(source):\(i)", kind: .smoking, name: "흡연구역 \(i)번", coordinate: point,
                                      province: "서울특별시", district: "용산구", source: source))
                }
            }
            return AreaTable(areas: areas).sortedByID()
        }
        let policy = MergePolicy(meters: MergePolicy.defaultMeters, priority: ["a", "b"])
        let tables = (onePoint: try table(spread: false), spread: try table(spread: true))
        var seconds = (onePoint: Double.infinity, spread: Double.infinity)
        var merged = (onePoint: 0, spread: 0)
        for _ in 0..<max(runs, 1) {
            for onePoint in [true, false] {
                let start = ThisThread.cpuSeconds()
                let groups = AreaGroups.merging(onePoint ? tables.onePoint : tables.spread, policy: policy)
                let cpu = ThisThread.cpuSeconds() - start
                if onePoint { seconds.onePoint = min(seconds.onePoint, cpu); merged.onePoint = groups.mergedCount }
                else { seconds.spread = min(seconds.spread, cpu); merged.spread = groups.mergedCount }
            }
        }
        print("\(rows) + \(rows) rows at one point: merge \(Measure.format(seconds.onePoint * 1000)) ms of CPU (\(merged.onePoint) merged); the same rows spread out \(Measure.format(seconds.spread * 1000)) ms (\(merged.spread) merged): \(Measure.format(seconds.onePoint / seconds.spread))x")
        print(Measure.json(["one_point_rows": Double(rows), "one_point_merge_ms": seconds.onePoint * 1000, "spread_merge_ms": seconds.spread * 1000,
                            "one_point_ratio": seconds.onePoint / seconds.spread]))
    }

    /// The merge of the sources in `folder`, with the address tests and without, alternating,
    /// CPU time best of five each.
    func addressTests(folder: String) throws {
        let config = try AreasConfig.parse(Data(Self.configText(folder: folder, sources: sources, meters: MergePolicy.defaultMeters).utf8), path: folder + "/areasd.json")
        guard let policy = config.merge else { throw UsageError.wrongArguments("no merge policy") }
        let catalog = Daemon.waitFor { await Refresher(config: config, environment: [:]).refresh(Catalog()).catalog } ?? Catalog()
        var best = (with: Double.infinity, without: Double.infinity)
        var merged = (with: 0, without: 0)
        for _ in 0..<5 {
            for matching in [true, false] {
                var looked = 0
                let start = ThisThread.cpuSeconds()
                let groups = AreaGroups.merging(catalog.table, policy: policy, crowdLimit: AreaGroups.defaultCrowdLimit, matchingAddresses: matching, looked: &looked)
                let cpu = ThisThread.cpuSeconds() - start
                if matching { best.with = min(best.with, cpu); merged.with = groups.mergedCount } else { best.without = min(best.without, cpu); merged.without = groups.mergedCount }
            }
        }
        print("  the merge alone, \(catalog.table.count) records: with the address tests \(Measure.format(best.with * 1000)) ms of CPU (\(merged.with) merged), names only \(Measure.format(best.without * 1000)) ms (\(merged.without) merged): \(Measure.format(best.with / best.without))x")
        print(Measure.json(["address_merge_ms": best.with * 1000, "names_merge_ms": best.without * 1000, "address_ratio": best.with / best.without]))
    }

    /// The config of the benchmark's sources in `folder`.
    static func configText(folder: String, sources: Int, meters: Double) -> String {
        let entries = (0..<sources).map { i in
            #"{"name":"s\#(i)","kind":"\#(i < sources * 4 / 5 ? "nonsmoking" : "smoking")","format":"csv","file":"\#(folder)/s\#(i).csv","province":"서울특별시","fields":{"name":"name","latitude":"lat","longitude":"lon","district":"district","address":"address"}}"#
        }
        return #"{"merge":{"meters":\#(meters)},"sources":[\#(entries.joined(separator: ","))]}"#
    }

    /// Runs one child and reads the JSON line it prints.
    static func child(_ path: String, _ arguments: [String]) throws -> [String: Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Double] else {
            throw UsageError.wrongArguments("the refresh child failed: \(String(decoding: data, as: UTF8.self))")
        }
        return object
    }

    /// One refresh as areasd makes it, measured in this process.
    func refreshOnce(folder: String, meters: Double) throws {
        let config = try AreasConfig.parse(Data(Self.configText(folder: folder, sources: sources, meters: meters).utf8), path: folder + "/areasd.json")
        guard let policy = config.merge else { throw UsageError.wrongArguments("no merge policy") }
        let semaphore = DispatchSemaphore(value: 0)
        final class Box: @unchecked Sendable { var result: [String: Double] = [:] }
        let box = Box()
        Measure.resetPeakResident()
        let startResident = Measure.residentBytes
        Task {
            let start = Measure.clock.now
            let (catalog, _) = await Refresher(config: config, environment: [:]).refresh(Catalog())
            let dataSet = DataSet.indexing(catalog, merge: policy)
            let bytes = SnapshotFile.encode(catalog, index: dataSet.index).count
            let milliseconds = (Measure.clock.now - start).milliseconds
            let peak = Double(Measure.peakResidentBytes - startResident) / 1_048_576
            // The merge alone, once more, after the measured refresh.
            let mergeStart = Measure.clock.now
            let groups = AreaGroups.merging(catalog.table, policy: policy)
            let mergeMilliseconds = (Measure.clock.now - mergeStart).milliseconds
            box.result = ["ms": milliseconds, "peak_mib": peak, "areas": Double(dataSet.index.count), "merged": Double(groups.mergedCount),
                          "merge_ms": mergeMilliseconds, "snapshot_mb": Double(bytes) / 1e6]
            semaphore.signal()
        }
        semaphore.wait()
        print(Measure.json(box.result))
    }

    /// Writes `sources` CSV files holding `records` records together; returns how many places
    /// they describe.
    static func writeSources(records: Int, sources: Int, folder: String) throws -> Int {
        var random = SplitMix64(seed: 33)
        let zoneSources = sources * 4 / 5
        var files = [String](repeating: "name,lat,lon,district,address,데이터기준일자\n", count: sources)
        var written = 0
        var places = 0
        let points = SyntheticPoints.clustered(count: records, seed: 8)
        let suffixes = ["주민센터", "어린이공원", "버스정류장", "흡연구역", "역 출입구"]
        while written < records {
            let smoking = written >= records * 16 / 17
            let point = points[places % points.count]
            let name = "\(["중앙로", "한강대로", "세종대로"][places % 3])\(places) \(suffixes[places % suffixes.count])"
            // One to three publishers: the district, the city, the national data.
            let copies = min(records - written, [1, 1, 2, 3][Int(random.next() % 4)])
            var chosen: Set<Int> = []
            for copy in 0..<copies {
                var source: Int
                repeat {
                    source = smoking ? zoneSources + Int(random.next() % UInt64(sources - zoneSources)) : Int(random.next() % UInt64(zoneSources))
                } while chosen.contains(source)
                chosen.insert(source)
                let meters = copy == 0 ? 0 : Double.random(in: 0.5...5, using: &random)
                let bearing = Double.random(in: 0..<(2 * .pi), using: &random)
                let lat = point.latitude + meters * cos(bearing) / 111_320
                let lon = point.longitude + meters * sin(bearing) / (111_320 * cos(point.latitude * .pi / 180))
                let spelled = [name, name.replacingOccurrences(of: " ", with: ""), "서울특별시 \(name)", "\(name)(개방형)"][copy]
                // Each publisher writes the address its own way, as the real files do.
                let road = "\(["중앙로", "한강대로", "세종대로"][places % 3]) \(places % 400 + 1)"
                let address = ["서울특별시 용산구 \(road)", road, "\(road) (한강로동)"][copy]
                files[source] += "\(spelled),\(String(format: "%.6f", lat)),\(String(format: "%.6f", lon)),용산구,\(address),2025-0\(copy + 1)-15\n"
                written += 1
            }
            places += 1
        }
        for (i, file) in files.enumerated() {
            try Data(file.utf8).write(to: URL(fileURLWithPath: folder + "/s\(i).csv"))
        }
        return places
    }
}
