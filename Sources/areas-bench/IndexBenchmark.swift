import AreasCore
import AreasIngest
import AreasProtocol
import AreasServer
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc

/// `areas-bench index`: tree build time, size, and query medians beside a full scan.
struct IndexBenchmark {
    var points = 1_000_000
    var seed: UInt64 = 1
    /// Enough that one pass of a microsecond query outlasts the machine's short slow spells.
    var queries = 10_000
    var nodeSize = 16
    /// Run only the measurements whose names start with this (for profiling one query type);
    /// a trailing `$` asks for the one whose name is exactly the rest (`nearest_k10$`).
    var only: String?
    /// A full scan of a million points takes tens of milliseconds: fewer of those.
    var scanQueries = 30

    init(arguments: inout ArgumentList) throws {
        points = try arguments.value("--points", as: { Int($0) }) ?? points
        seed = try arguments.value("--seed", as: { UInt64($0) }) ?? seed
        queries = try arguments.value("--queries", as: { Int($0) }) ?? queries
        nodeSize = try arguments.value("--node-size", as: { Int($0) }) ?? nodeSize
        only = try arguments.value("--only")
        guard points > 0, queries > 0 else { throw UsageError.wrongArguments("--points and --queries must be positive") }
        _ = try arguments.positionals()
    }

    func run() {
        print("generating \(points) clustered points (seed \(seed))")
        let data = SyntheticPoints.clustered(count: points, seed: seed)
        let entries = data.map(GeoBox.init)

        var builds: [Double] = []
        var tree = PackedRTree(entries: [])
        for _ in 0..<5 {
            let start = Measure.clock.now
            tree = PackedRTree(entries: entries, nodeSize: nodeSize)
            builds.append((Measure.clock.now - start).milliseconds)
        }
        let buildMilliseconds = Measure.percentile(builds, 0.5)
        let bytesPerPoint = Double(tree.byteCount) / Double(points)
        print("build: \(Measure.format(buildMilliseconds)) ms median of 5; tree \(Measure.format(bytesPerPoint)) bytes/point")

        let scan = LinearScan(points: data)
        var random = SplitMix64(seed: seed &+ 1)
        // Query where people are: at data points, jittered by up to ~500 m.
        let centers: [GeoPoint] = (0..<queries).map { _ in
            let p = data[Int.random(in: 0..<data.count, using: &random)]
            return (try? GeoPoint(
                latitude: p.latitude + Double.random(in: -0.005...0.005, using: &random),
                longitude: p.longitude + Double.random(in: -0.005...0.005, using: &random))) ?? p
        }
        let scanCenters = Array(centers.prefix(scanQueries))

        var results: [(name: String, tree: Double, scan: Double)] = []
        func compare(_ name: String, tree treeQuery: (GeoPoint) -> Int, scan scanQuery: (GeoPoint) -> Int) {
            guard selected(name) else { return }
            // Passes of about a second at most: the 1% box takes half a millisecond each.
            let fast = Measure.medianMicroseconds(Array(centers.prefix(name == "bbox_1pct" ? 2_000 : centers.count)), passes: 3, treeQuery)
            let slow = Measure.medianMicroseconds(scanCenters, scanQuery)
            let check = Measure.medianMicroseconds(scanCenters, treeQuery)
            if check.checksum != slow.checksum {
                print("MISMATCH in \(name): tree and scan disagree")
            }
            results.append((name, fast.median, slow.median))
            print("\(name): tree \(Measure.format(fast.median, 3)) µs, scan \(Measure.format(slow.median, 1)) µs, speed-up \(Measure.format(slow.median / fast.median, 0))x")
        }
        for (name, fraction) in [("bbox_0.01pct", 0.0001), ("bbox_1pct", 0.01)] {
            compare(name,
                tree: { tree.search(intersecting: SyntheticPoints.box(around: $0, fraction: fraction)).count },
                scan: { scan.search(intersecting: SyntheticPoints.box(around: $0, fraction: fraction)).count })
        }
        compare("radius_500m",
            tree: { Self.digest(tree.search(within: 500, of: $0)) },
            scan: { Self.digest(scan.search(within: 500, of: $0)) })
        if selected("radius") {
            let sizes = centers.map { Double(tree.search(within: 500, of: $0).count) }
            print("radius_500m answers: median \(Measure.format(Measure.percentile(sizes, 0.5), 0)), p90 \(Measure.format(Measure.percentile(sizes, 0.9), 0)) areas")
        }
        for k in [1, 10, 100] {
            compare("nearest_k\(k)",
                tree: { Self.digest(tree.nearest(to: $0, k: k)) },
                scan: { Self.digest(scan.nearest(to: $0, k: k)) })
        }

        if selected("check") || selected("along") || Self.answerOutputs.contains(where: { selected("answer_near_k10_" + $0) }) { measureCheckAndAlong(data: data, centers: centers, into: &results) }

        var json = "{\"points\":\(points),\"seed\":\(seed),\"build_ms\":\(Measure.format(buildMilliseconds)),"
        json += "\"bytes_per_point\":\(Measure.format(bytesPerPoint))"
        for r in results {
            json += ",\"\(r.name)_us\":\(Measure.format(r.tree, 3))"
            if r.scan.isNaN { continue }
            json += ",\"\(r.name)_scan_us\":\(Measure.format(r.scan, 1)),\"\(r.name)_speedup\":\(Measure.format(r.scan / r.tree, 0))"
        }
        print(json + "}")
    }

    /// The output modes whole requests are measured in (`--only answer_near_k10_ids` picks one).
    static let answerOutputs = ["ids", "full"]

    private func selected(_ name: String) -> Bool {
        guard let only else { return true }
        return only.hasSuffix("$") ? name == only.dropLast() : name.hasPrefix(only)
    }

    /// check, along and whole answers need whole areas: zones with sizes, smoking areas among
    /// them, names and addresses.
    private func measureCheckAndAlong(data: [GeoPoint], centers: [GeoPoint], into results: inout [(name: String, tree: Double, scan: Double)]) {
        var sizes = SplitMix64(seed: seed &+ 2)
        let areas = data.enumerated().map { i, p in
            Area(id: String(i, radix: 36), kind: i % 10 == 0 ? .smoking : .nonsmoking, name: "흡연구역 \(i)", coordinate: p,
                 roadAddress: "서울특별시 용산구 한강대로 \(i % 500)", province: "서울특별시", district: "용산구", source: "bench",
                 fields: [Field("prhsmkAr", String(Int.random(in: 20...20_000, using: &sizes)))])
        }
        // As the daemon holds a data set: one catalog, its table indexed once.
        let state = ServingState(.indexing(Catalog(areas: areas, fetchedAt: ["bench": Date().timeIntervalSince1970]), nodeSize: nodeSize), hasData: true,
                                 lastReport: nil, snapshotPath: "/nonexistent", builtAt: 0)
        let index = state.index
        if selected("check") {
            let check = Measure.medianMicroseconds(centers, passes: 3) { (try? index.check($0))?.zones.count ?? -1 }
            print("check: \(Measure.format(check.median, 3)) µs median")
            results.append(("check", check.median, .nan))
        }
        if Self.answerOutputs.contains(where: { selected("answer_near_k10_" + $0) }) { measureAnswers(state: state, centers: centers, into: &results) }
        if selected("along") {
            let routes: [[GeoPoint]] = centers.prefix(500).map { start in
                let heading = Double(start.latitude * 1000).truncatingRemainder(dividingBy: 6.28)
                return (0..<100).compactMap { i in
                    let step = Double(i) * 50.5 / 111_000  // 100 points, about 5 km
                    return try? GeoPoint(latitude: start.latitude + step * cos(heading), longitude: start.longitude + step * sin(heading) / cos(start.latitude * .pi / 180))
                }
            }
            let along = Measure.medianMicroseconds(routes, passes: 3) { (try? index.along($0, meters: 50).count) ?? 0 }
            print("along (5 km, 100 points, 50 m): \(Measure.format(along.median, 1)) µs median")
            results.append(("along_5km_50m", along.median, .nan))
        }
    }

    /// Whole requests through the daemon's request path without the socket: parse the line,
    /// search, write the answer. Beside `nearest_k10`, it says what the protocol adds.
    private func measureAnswers(state: ServingState, centers: [GeoPoint], into results: inout [(name: String, tree: Double, scan: Double)]) {
        guard let service = BenchData.service(serving: state) else { return }
        let view = service.view()
        var writer = JSONWriter(capacity: 1 << 16)
        for output in Self.answerOutputs where selected("answer_near_k10_" + output) {
            let lines = centers.map { Array(#"{"op":"near","lat":\#($0.latitude),"lon":\#($0.longitude),"k":10,"output":"\#(output)"}"#.utf8) }
            let answer = Measure.medianMicroseconds(lines, passes: 3) { line in
                writer.reset()
                line.withUnsafeBufferPointer { service.respond(to: $0, peerUID: nil, view: view, into: &writer) }
                return writer.count
            }
            print("near k=10 answer, output \(output) (parse, search, write): \(Measure.format(answer.median, 3)) µs median")
            results.append(("answer_near_k10_\(output)", answer.median, .nan))
        }
    }

    /// An order-sensitive checksum of a result, so tree and scan answers can be compared cheaply.
    static func digest(_ neighbors: [PackedRTree.Neighbor]) -> Int {
        neighbors.reduce(neighbors.count) { ($0 &* 31) &+ Int($1.payload) }
    }
}

