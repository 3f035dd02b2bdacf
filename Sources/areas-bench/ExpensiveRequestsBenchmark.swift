import AreasCore
import AreasIngest
import AreasProtocol
import AreasServer
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc

/// `areas-bench expensive`: the CPU time of the costliest requests a client may send, each
/// through the daemon's request path (parse, search, write) on a large data set. Every one must
/// end within the service's work budget: answered, or refused with `too_expensive`.
struct ExpensiveRequestsBenchmark {
    var points = 1_000_000
    var seed: UInt64 = 1
    /// Run only the requests whose names start with this.
    var only: String?

    init(arguments: inout ArgumentList) throws {
        points = try arguments.value("--points", as: { Int($0) }) ?? points
        only = try arguments.value("--only")
        seed = try arguments.value("--seed", as: { UInt64($0) }) ?? seed
        guard points > 0 else { throw UsageError.wrongArguments("--points must be positive") }
        _ = try arguments.positionals()
    }

    /// A route zig-zagging across the whole country, west to east and back, `count` points.
    static func zigZag(_ count: Int) -> String {
        let korea = SyntheticPoints.korea
        let points = (0..<count).map { i -> String in
            let latitude = korea.south + (korea.north - korea.south) * Double(i) / Double(max(count - 1, 1))
            let longitude = i % 2 == 0 ? korea.west + 0.1 : korea.east - 0.1
            return "[\(latitude),\(longitude)]"
        }
        return "[" + points.joined(separator: ",") + "]"
    }

    /// The requests: name and line.
    static let requests: [(String, String)] = [
        ("near k=10000 full", #"{"op":"near","lat":37.5665,"lon":126.978,"k":10000}"#),
        ("near k=10000, a province with no areas", #"{"op":"near","lat":37.5665,"lon":126.978,"k":10000,"province":"부산광역시"}"#),
        ("near smoking k=10000, a province with no areas", #"{"op":"near","lat":37.5665,"lon":126.978,"k":10000,"kind":"smoking","province":"부산광역시"}"#),
        ("near k=10000, a province with one area", #"{"op":"near","lat":37.5665,"lon":126.978,"k":10000,"province":"제주"}"#),
        ("near smoking k=10000, a province with one area", #"{"op":"near","lat":37.5665,"lon":126.978,"k":10000,"kind":"smoking","province":"제주"}"#),
        ("radius 2,000 km, a province with one area", #"{"op":"radius","lat":36,"lon":128,"meters":2000000,"province":"제주"}"#),
        ("bbox of the country, a province with one area", #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"province":"제주"}"#),
        ("radius 2,000 km", #"{"op":"radius","lat":36,"lon":128,"meters":2000000}"#),
        ("radius 2,000 km, a province with no areas", #"{"op":"radius","lat":36,"lon":128,"meters":2000000,"province":"부산광역시"}"#),
        ("bbox of the country", #"{"op":"bbox","south":33,"west":124,"north":39,"east":132}"#),
        ("bbox of the country, a province with no areas", #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"province":"부산광역시"}"#),
        ("check", #"{"op":"check","lat":37.5665,"lon":126.978}"#),
        ("along, a 5 km route of 100 points, 50 m", #"{"op":"along","path":\#(shortRoute),"meters":50}"#),
        ("along, 100-point zig-zag across the country, 50 m", #"{"op":"along","path":\#(zigZag(100)),"meters":50}"#),
        ("along, 1,000-point zig-zag, 50 m", #"{"op":"along","path":\#(zigZag(1_000)),"meters":50}"#),
        ("along, 1,000-point zig-zag, 50 km", #"{"op":"along","path":\#(zigZag(1_000)),"meters":50000}"#),
        ("along, 60 km across Seoul, 50 km", #"{"op":"along","path":[[37.5,126.7],[37.6,127.3]],"meters":50000}"#),
        ("along, 60 km across Seoul, 5 km", #"{"op":"along","path":[[37.5,126.7],[37.6,127.3]],"meters":5000}"#),
        ("along, 1,000 points around Seoul, 2 km", #"{"op":"along","path":\#(circle(1_000, kilometers: 10)),"meters":2000}"#),
        ("along, 1,000 points, 300 km, 50 m", #"{"op":"along","path":\#(circle(1_000, kilometers: 50)),"meters":50}"#),
    ]

    /// A closed route of `count` points on a circle around Seoul's centre.
    static func circle(_ count: Int, kilometers: Double) -> String {
        let points = (0..<count).map { i -> String in
            let angle = 2 * Double.pi * Double(i) / Double(count)
            return "[\(37.5665 + kilometers / 111 * sin(angle)),\(126.978 + kilometers / 88 * cos(angle))]"
        }
        return "[" + points.joined(separator: ",") + "]"
    }

    static let shortRoute: String = {
        let points = (0..<100).map { i in "[\(37.5665 + Double(i) * 0.00045),\(126.978 + Double(i) * 0.0003)]" }
        return "[" + points.joined(separator: ",") + "]"
    }()

    func run() {
        print("generating \(points) clustered points (seed \(seed))")
        let data = SyntheticPoints.clustered(count: points, seed: seed)
        var sizes = SplitMix64(seed: seed &+ 2)
        // One area in a province of its own: a region filter that admits almost nothing.
        let areas = data.enumerated().map { i, p in
            Area(id: String(i, radix: 36), kind: i % 10 == 0 ? .smoking : .nonsmoking, name: "흡연구역 \(i)", coordinate: p,
                 roadAddress: "서울특별시 용산구 한강대로 \(i % 500)", province: i == 0 ? "제주특별자치도" : "서울특별시", district: "용산구", source: "bench",
                 fields: [Field("prhsmkAr", String(Int.random(in: 20...20_000, using: &sizes)))])
        }
        let state = ServingState(.indexing(Catalog(areas: areas, fetchedAt: ["bench": Date().timeIntervalSince1970])), hasData: true,
                                 lastReport: nil, snapshotPath: "/nonexistent", builtAt: 0)
        guard let service = BenchData.service(serving: state) else { return }
        let view = service.view()
        var writer = JSONWriter(capacity: 1 << 16)
        var json: [String] = []
        var worst = 0.0
        for (name, line) in Self.requests where only.map({ name.hasPrefix($0) }) ?? true {
            let bytes = Array(line.utf8)
            var best = Double.infinity
            for _ in 0..<3 {
                writer.reset()
                let start = Self.threadCPUSeconds()
                bytes.withUnsafeBufferPointer { service.respond(to: $0, peerUID: nil, view: view, into: &writer) }
                best = min(best, Self.threadCPUSeconds() - start)
            }
            let answer = writer.withBytes { String(decoding: $0.prefix(120), as: UTF8.self) }
            let outcome = answer.contains("\"too_expensive\"") ? "too_expensive" : answer.hasPrefix("{\"ok\":true") ? "answered" : "error"
            print("\(name): \(Measure.format(best * 1000, 2)) ms CPU, \(outcome), \(writer.count) bytes")
            json.append("{\"request\":\"\(name)\",\"cpu_ms\":\(Measure.format(best * 1000, 2)),\"outcome\":\"\(outcome)\"}")
            worst = max(worst, best)
        }
        print("{\"points\":\(points),\"worst_cpu_ms\":\(Measure.format(worst * 1000, 2)),\"requests\":[\(json.joined(separator: ","))]}")
    }

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
