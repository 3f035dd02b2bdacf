import AreasCore
import AreasIngest
import AreasProtocol
import AreasServer
import AreasSystem
import AreasTestSupport
import Foundation

/// `areas-bench rings`: what a publisher's polygon costs to check and repair, however it is
/// drawn, and what `check` costs among many zones at one point.
///
/// - A comb of 24,999 teeth against a circle of as many vertices (99,998), both valid: the
///   check's steps (`PolygonRepair`'s budget spent) and CPU time, alternating, best of `runs`.
/// - A figure-eight of as many vertices (one crossing): the repair's steps and time.
/// - `check` at a point held by 30,000 zones of 300 m against one held by 1,000 (`maxResults`
///   1,000 both): CPU time and the answer's bytes, in process through the service.
struct RingsBenchmark {
    var vertices = 99_998
    var runs = 5
    var overlapping = 30_000

    init(arguments: inout ArgumentList) throws {
        vertices = try arguments.value("--vertices", as: { Int($0) }) ?? vertices
        runs = try arguments.value("--runs", as: { Int($0) }) ?? runs
        overlapping = try arguments.value("--zones", as: { Int($0) }) ?? overlapping
        _ = try arguments.positionals()
    }

    func run() throws {
        let comb = HostileShapes.comb(vertices: vertices)
        let teeth = (comb.count - 2) / 4
        let circle = HostileShapes.round(comb.count)
        let eight = HostileShapes.round(comb.count, lobes: true)
        print("polygons of \(comb.count) vertices: a comb of \(teeth) teeth, a circle, a figure-eight; best of \(runs), alternating")
        var figures: [String: Double] = ["vertices": Double(comb.count)]
        var best: [String: (steps: Int, ms: Double, outcome: String)] = [:]
        for _ in 0..<runs {
            for (name, ring) in [("circle", circle), ("comb", comb), ("eight", eight)] {
                var budget = PolygonRepair.maximumWork
                let start = ThisThread.cpuSeconds()
                let outcome = PolygonRepair.check([ring], budget: &budget)
                let ms = (ThisThread.cpuSeconds() - start) * 1000
                let text: String
                switch outcome {
                case .valid: text = "valid"
                case .repaired(let polygons): text = "repaired into \(polygons.count) polygons"
                case .refused(let why): text = "refused (\(why))"
                }
                let steps = PolygonRepair.maximumWork - budget
                if ms < best[name]?.ms ?? .infinity { best[name] = (steps, ms, text) }
            }
        }
        for name in ["circle", "comb", "eight"] {
            guard let result = best[name] else { continue }
            print("  \(name): \(result.outcome), \(result.steps) steps, \(Measure.format(result.ms)) ms of CPU")
            figures["\(name)_steps"] = Double(result.steps)
            figures["\(name)_ms"] = result.ms
        }
        if let comb = best["comb"], let circle = best["circle"] {
            print("  comb against circle: \(Measure.format(Double(comb.steps) / Double(circle.steps)))x the steps, \(Measure.format(comb.ms / circle.ms))x the CPU")
        }

        // check among many zones at one point, against one zone.
        let point = GeoPoint(uncheckedLatitude: 37.5299, longitude: 126.9648)
        func zones(_ count: Int) -> [Area] {
            (0..<count).map { i in
                Area(id: "z:" + String(i, radix: 36), kind: .nonsmoking, name: "학교 통학로 \(i)",
                     coordinate: GeoPoint(uncheckedLatitude: point.latitude + Double(i % 100) * 1e-6, longitude: point.longitude + Double(i / 100) * 1e-6),
                     source: "bench", fields: [Field("prhsmkScopeDesc", "반경 300m 이내")])
            }
        }
        let configText = #"{"maxResults":1000,"sources":[{"name":"bench","kind":"nonsmoking","format":"data-go-kr-xml","pages":"/tmp"}]}"#
        let config = try AreasConfig.parse(Data(configText.utf8), path: "bench.json")
        for (name, count) in [("1000 zones", 1_000), ("\(overlapping) zones", overlapping)] {
            let state = ServingState(.indexing(Catalog(areas: zones(count), fetchedAt: ["bench": Date().timeIntervalSince1970]), footprint: config.footprint),
                                     hasData: true, lastReport: nil, snapshotPath: "", builtAt: Date().timeIntervalSince1970)
            let service = AreaService(config: config, state: state, snapshotPath: "/nonexistent", logger: Logger(threshold: .error, environment: [:], sink: { _ in }))
            let view = service.view()
            var line = Array(#"{"op":"check","lat":37.5299,"lon":126.9648}"#.utf8)
            var bytes = 0
            var bestMs = Double.infinity
            for _ in 0..<runs {
                var writer = JSONWriter(capacity: 1 << 16)
                let start = ThisThread.cpuSeconds()
                line.withUnsafeBufferPointer { service.respond(to: $0, peerUID: 0, view: view, into: &writer) }
                bestMs = min(bestMs, (ThisThread.cpuSeconds() - start) * 1000)
                bytes = writer.withBytes { $0.count }
            }
            print("  check among \(name) (maxResults 1000): \(Measure.format(bestMs)) ms of CPU, \(bytes) bytes answered")
            figures[count == 1_000 ? "check_1000_ms" : "check_many_ms"] = bestMs
            figures[count == 1_000 ? "check_1000_bytes" : "check_many_bytes"] = Double(bytes)
            line = []
        }
        print(Measure.json(figures))
    }
}
