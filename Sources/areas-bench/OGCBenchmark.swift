import AreasProtocol
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc

/// `areas-bench ogc`: what a page of OGC API items costs the daemon, at the first page and at
/// the last, beside `/v1/bbox` answering as many areas, on one areasd of N areas over HTTP:
/// the wall time per request (one connection) and the daemon's CPU per request. Then a whole
/// collection paged 1,000 at a time against one `bbox` answer of the same areas.
struct OGCBenchmark {
    var points = 100_000
    var requests = 300
    let areasd: String

    init(arguments: inout ArgumentList) throws {
        points = try arguments.value("--points", as: { Int($0) }) ?? points
        requests = try arguments.value("--requests", as: { Int($0) }) ?? requests
        areasd = try BuiltBeside.program("areasd")
        guard points > 0, requests > 0 else { throw UsageError.wrongArguments("--points and --requests must be positive") }
    }

    func run() throws {
        let directory = "/tmp/areas-bench-ogc-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (probe, port) = try Sockets.listenLoopbackTCP()
        probe.close()
        let address = "127.0.0.1:\(port)"
        let areas = BenchData.areas(count: points)
        try _ = BenchData.writeDaemonFiles(areas: areas, directory: directory, extra: #""http": {"listen": "\#(address)"}, "maxResults": 10000"#)
        let socket = directory + "/areasd.sock"
        let daemon = try Child(areasd, ["--config", directory + "/areasd.json", "--socket", socket, "--log-level", "error"])
        defer { daemon.stop() }
        guard DaemonHarness.waitReady(socket) else { throw UsageError.wrongArguments("areasd did not start") }
        let client = try HTTPTestClient(address)
        let first = try JSONParser.parse(try client.get("/ogc/collections/smoking/items?limit=50").body)
        let next = (first["links"]?.array ?? []).first { $0["rel"]?.string == "next" }?["href"]?.string ?? ""
        guard let cursor = next.range(of: "cursor=").map({ String(next[$0.upperBound...]) }), let tilde = cursor.firstIndex(of: "~") else {
            throw UsageError.wrongArguments("the first page gave no next link")
        }
        let version = String(cursor[..<tilde])
        let count = first["numberMatched"]?.double.map(Int.init) ?? 0
        print("== a page of 50 smoking areas of \(count) (\(points) areas in all), \(requests) requests each, one connection ==")
        var figures: [String: Double] = [:]
        func measure(_ label: String, _ target: String) throws {
            var times: [Double] = []
            let cpuBefore = daemon.cpuSeconds
            for _ in 0..<requests {
                let start = MonotonicClock.microseconds
                let response = try client.get(target)
                guard response.status == 200 else { throw UsageError.wrongArguments("\(target): \(response.status)") }
                times.append(Double(MonotonicClock.microseconds - start))
            }
            let cpu = (daemon.cpuSeconds - cpuBefore) * 1e6 / Double(requests)
            times.sort()
            figures[label + "_us"] = times[times.count / 2]
            figures[label + "_cpu_us"] = cpu
            print("\(label): median \(Measure.format(times[times.count / 2], 0)) µs, areasd CPU \(Measure.format(cpu, 1)) µs a request")
        }
        try measure("ogc_first_page", "/ogc/collections/smoking/items?limit=50")
        try measure("ogc_last_page", "/ogc/collections/smoking/items?limit=50&cursor=\(version)~\(points - 60)")
        try measure("bbox_50", "/v1/bbox?south=33&west=124&north=39&east=132&kind=smoking&limit=50&format=geojson")
        try measure("ogc_box_page", "/ogc/collections/smoking/items?limit=50&bbox=126.9,37.5,127.0,37.6")
        try measure("bbox_box_50", "/v1/bbox?south=37.5&west=126.9&north=37.6&east=127.0&kind=smoking&limit=50&format=geojson")
        // Zones as their footprints' polygons against the same zones as points.
        try measure("ogc_nonsmoking_page", "/ogc/collections/nonsmoking/items?limit=50")
        try measure("ogc_zones_page", "/ogc/collections/zones/items?limit=50")

        // The whole collection, 1,000 a page, against one answer of every area.
        let start = MonotonicClock.microseconds
        var target: String? = "/ogc/collections/smoking/items?limit=1000"
        var paged = 0
        while let page = target {
            let answer = try JSONParser.parse(try client.get(page).body)
            paged += answer["features"]?.array.count ?? 0
            target = (answer["links"]?.array ?? []).first { $0["rel"]?.string == "next" }?["href"]?.string
                .map { $0.replacingOccurrences(of: "http://areas.test", with: "") }
        }
        let pagedMicros = Double(MonotonicClock.microseconds - start)
        let whole = MonotonicClock.microseconds
        let one = try JSONParser.parse(try client.get("/v1/bbox?south=33&west=124&north=39&east=132&kind=smoking&limit=10000&format=geojson").body)
        let wholeMicros = Double(MonotonicClock.microseconds - whole)
        print("every smoking area paged 1,000 at a time: \(paged) in \(Measure.format(pagedMicros / 1000, 1)) ms; one bbox answer of \(one["features"]?.array.count ?? 0) (at most maxResults): \(Measure.format(wholeMicros / 1000, 1)) ms")
        figures["paged_all_ms"] = pagedMicros / 1000
        figures["paged_all_count"] = Double(paged)
        // A GIS copying the country box by box: each box of a 6 x 8 grid over Korea through
        // `/ogc` pages of 1,000, against one `/v1/bbox` GeoJSON answer of the same box.
        var (ogcFeatures, ogcMicros, bboxFeatures, bboxMicros) = (0, 0.0, 0, 0.0)
        for row in 0..<6 {
            for column in 0..<8 {
                let (south, west) = (33.0 + Double(row), 124.0 + Double(column))
                let box = "\(west),\(south),\(west + 1),\(south + 1)"
                let startOGC = MonotonicClock.microseconds
                var target: String? = "/ogc/collections/smoking/items?limit=1000&bbox=" + box
                while let page = target {
                    let answer = try JSONParser.parse(try client.get(page).body)
                    ogcFeatures += answer["features"]?.array.count ?? 0
                    target = (answer["links"]?.array ?? []).first { $0["rel"]?.string == "next" }?["href"]?.string
                        .map { $0.replacingOccurrences(of: "http://areas.test", with: "") }
                }
                ogcMicros += Double(MonotonicClock.microseconds - startOGC)
                let startBox = MonotonicClock.microseconds
                let answer = try JSONParser.parse(try client.get("/v1/bbox?south=\(south)&west=\(west)&north=\(south + 1)&east=\(west + 1)&kind=smoking&limit=10000&format=geojson").body)
                bboxFeatures += answer["features"]?.array.count ?? 0
                bboxMicros += Double(MonotonicClock.microseconds - startBox)
            }
        }
        figures["boxes_ogc_features_per_s"] = Double(ogcFeatures) / ogcMicros * 1e6
        figures["boxes_bbox_features_per_s"] = Double(bboxFeatures) / bboxMicros * 1e6
        print("the country in 48 boxes of 1 degree: /ogc pages of 1,000 \(ogcFeatures) features at \(Measure.format(figures["boxes_ogc_features_per_s"] ?? 0, 0)) a second; "
              + "/v1/bbox \(bboxFeatures) at \(Measure.format(figures["boxes_bbox_features_per_s"] ?? 0, 0)) a second "
              + "(\(Measure.format((figures["boxes_bbox_features_per_s"] ?? 0) / max(figures["boxes_ogc_features_per_s"] ?? 1, 1e-9), 2))x)")
        let ratio = (figures["ogc_last_page_cpu_us"] ?? 0) / max(figures["bbox_50_cpu_us"] ?? 1, 1e-9)
        print("the last page's CPU against a bbox of 50: \(Measure.format(ratio, 2))x; a page of zones' polygons against their points: "
              + Measure.format((figures["ogc_zones_page_cpu_us"] ?? 0) / max(figures["ogc_nonsmoking_page_cpu_us"] ?? 1, 1e-9), 2) + "x")
        let json = figures.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\(Measure.format($0.value, 2))" }.joined(separator: ",")
        print("{\(json)}")
    }
}
