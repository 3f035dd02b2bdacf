import AreasControl
import AreasCore
import AreasProtocol
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc

/// `areas-bench socket` drives a running areasd; `areas-bench compare-redis` runs areasd and
/// redis-server side by side on the same points and the same questions.
struct SocketBenchmark {
    var socket: String?
    var connections = 8
    var pipeline = 16
    var seconds = 5.0
    var mix: [(String, Int)] = [("near", 40), ("radius", 30), ("bbox", 25), ("get", 5)]
    var points = [100_000, 1_000_000]
    var bboxLimit = 1_000
    var output = "ids"

    init(arguments: inout ArgumentList, compare: Bool) throws {
        socket = try arguments.value("--socket")
        connections = try arguments.value("--connections", as: { Int($0) }) ?? connections
        pipeline = try arguments.value("--pipeline", as: { Int($0) }) ?? pipeline
        seconds = try arguments.value("--seconds", as: { Double($0) }) ?? seconds
        output = try arguments.value("--output") ?? output
        if let text = try arguments.value("--points") {
            let parsed = text.split(separator: ",").compactMap { Int($0) }
            guard !parsed.isEmpty, parsed.allSatisfy({ $0 > 0 }) else { throw UsageError.invalidValue("--points", text) }
            points = parsed
        }
        if let text = try arguments.value("--mix") {
            var parsed: [(String, Int)] = []
            for part in text.split(separator: ",") {
                let pair = part.split(separator: ":")
                guard pair.count == 2, let weight = Int(pair[1]), weight >= 0,
                      ["near", "radius", "bbox", "get"].contains(String(pair[0])) else { throw UsageError.invalidValue("--mix", text) }
                parsed.append((String(pair[0]), weight))
            }
            mix = parsed
        }
        guard connections > 0, pipeline > 0, seconds > 0 else { throw UsageError.wrongArguments("--connections, --pipeline and --seconds must be positive") }
        if !compare && socket == nil { throw UsageError.wrongArguments("socket mode needs --socket PATH of a running areasd") }
        _ = try arguments.positionals()
    }

    // MARK: Queries

    /// Questions where people ask them: at data points, jittered by up to ~500 m.
    static func queries(count: Int, mix: [(String, Int)], points: [GeoPoint], ids: [String], tree: PackedRTree?, seed: UInt64) -> [BenchQuery] {
        var random = SplitMix64(seed: seed)
        let total = mix.reduce(0) { $0 + $1.1 }
        let korea = SyntheticPoints.korea
        // 0.01% and 1% of Korea's area, as Redis boxes of width x height meters.
        let height = (korea.north - korea.south) * .pi / 180 * Geodesy.earthRadiusMeters
        let width = (korea.east - korea.west) * .pi / 180 * Geodesy.earthRadiusMeters * cos(36 * .pi / 180)
        var result: [BenchQuery] = []
        for i in 0..<count {
            var pick = Int.random(in: 0..<max(total, 1), using: &random)
            var kind = mix.first?.0 ?? "near"
            for (name, weight) in mix {
                if pick < weight { kind = name; break }
                pick -= weight
            }
            let base = points[Int.random(in: 0..<points.count, using: &random)]
            let point = (try? GeoPoint(latitude: base.latitude + Double.random(in: -0.0045...0.0045, using: &random),
                                       longitude: base.longitude + Double.random(in: -0.0055...0.0055, using: &random))) ?? base
            switch kind {
            case "near":
                // The smallest Redis radius that holds the 10 nearest: the best case for Redis.
                let tenth = tree?.nearest(to: point, k: 10).last?.distanceMeters ?? 2_000
                result.append(.near(point, k: 10, redisRadius: (tenth * 1.001 + 1).rounded(.up)))
            case "radius":
                result.append(.radius(point, meters: i % 2 == 0 ? 500 : 2_000))
            case "bbox":
                let scale = i % 2 == 0 ? 0.01 : 0.1  // sqrt of 0.01% and 1%
                result.append(.bbox(point, widthMeters: (width * scale).rounded(), heightMeters: (height * scale).rounded()))
            default:
                result.append(.get(ids[Int.random(in: 0..<ids.count, using: &random)]))
            }
        }
        return result
    }

    // MARK: socket

    func runSocket() throws {
        guard let socket else { return }
        let client = try AreasClient(path: socket)
        let line = try client.send(Array(#"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"limit":10000}"#.utf8))
        guard case .object(let members)? = try? JSONParser.parse(line), case .array(let areas)? = members.first(where: { $0.0 == "areas" })?.1 else {
            throw UsageError.wrongArguments("\(socket) did not answer a bbox query")
        }
        var points: [GeoPoint] = []
        var ids: [String] = []
        for case .object(let area) in areas {
            let values = Dictionary(area, uniquingKeysWith: { a, _ in a })
            if case .number(let lat)? = values["lat"], case .number(let lon)? = values["lon"], case .string(let id)? = values["id"],
               let point = try? GeoPoint(latitude: lat, longitude: lon) {
                points.append(point)
                ids.append(id)
            }
        }
        guard !points.isEmpty else { throw UsageError.wrongArguments("\(socket) serves no areas") }
        let tree = PackedRTree(entries: points.map(GeoBox.init))
        let queries = Self.queries(count: 50_000, mix: mix, points: points, ids: ids, tree: tree, seed: 3)
        let load = LoadGenerator(socket: socket, wire: AreasWire(output: output, bboxLimit: bboxLimit),
                                 connections: connections, pipeline: pipeline, seconds: seconds)
        let result = load.run(queries)
        print("areasd at \(socket): \(connections) connections x \(pipeline) in flight, \(Int(seconds)) s, output \(output)")
        report("areas", result)
        print(Measure.json(["throughput": result.throughput, "p50_us": result.percentile(0.5), "p99_us": result.percentile(0.99),
                    "p999_us": result.percentile(0.999), "failed": Double(result.failed)]))
    }

    func report(_ name: String, _ r: LoadGenerator.Result) {
        let kinds = r.byKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.count)" }.joined(separator: ", ")
        print("\(name): \(Int(r.throughput)) answers/s, p50 \(Measure.format(r.percentile(0.5), 0)) µs, p99 \(Measure.format(r.percentile(0.99), 0)) µs, p99.9 \(Measure.format(r.percentile(0.999), 0)) µs, failed \(r.failed) (\(kinds))")
    }
}
