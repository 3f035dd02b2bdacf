import AreasCore
import AreasIngest
import AreasProtocol
import AreasServer
import AreasSystem
import AreasTestSupport
import Foundation

/// `areas-bench crowd`: what people density costs an answer, and how often it asks the city.
///
/// - CPU per `near` answer (k 10, full) with crowd on against off, interleaved, on synthetic
///   areas with 121 hotspots drawn around popular places, every hotspot with a level (recorded
///   answers, no network); the questions half inside hotspots.
/// - The city's requests per hour under a day of questions (a virtual clock, a stand-in city
///   on loopback, `maxAgeSeconds` 300 and `dailyRequestLimit` 1,000 as the samples set them):
///   questions at 2 a second at night to 20 at the evening peak, 30% of them inside a hotspot,
///   hotspots by a Zipf popularity.
struct CrowdBenchmark {
    var points = 100_000
    var questions = 20_000
    var rounds = 3

    init(arguments: inout ArgumentList) throws {
        points = try arguments.value("--points", as: { Int($0) }) ?? points
        questions = try arguments.value("--questions", as: { Int($0) }) ?? questions
        rounds = try arguments.value("--rounds", as: { Int($0) }) ?? rounds
        _ = try arguments.positionals()
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// 121 star-shaped hotspots, 250 to 700 m across, around areas picked at random (areas are
    /// clustered where people are), a third with a hole.
    static func hotspots(around areas: [Area], seed: UInt64) -> String {
        var random = SplitMix64(seed: seed)
        var features: [String] = []
        for number in 1...121 {
            let centre = areas[Int.random(in: 0..<areas.count, using: &random)].coordinate
            func ring(_ meters: Double, _ count: Int, reversed: Bool = false) -> String {
                var vertices = (0..<count).map { k -> String in
                    let angle = 2 * Double.pi * Double(k) / Double(count)
                    let r = meters * Double.random(in: 0.8...1.2, using: &random)
                    return "[\(centre.longitude + r * cos(angle) / (111_320 * cos(centre.latitude * .pi / 180))),\(centre.latitude + r * sin(angle) / 110_540)]"
                }
                if reversed { vertices.reverse() }
                return "[" + (vertices + [vertices[0]]).joined(separator: ",") + "]"
            }
            let outer = ring(Double.random(in: 250...700, using: &random), 24)
            let rings = number % 3 == 0 ? "[\(outer),\(ring(60, 8, reversed: true))]" : "[\(outer)]"
            features.append(#"{"type":"Feature","properties":{"AREA_CD":"POI\#(String(format: "%03d", number))","AREA_NM":"장소 \#(number)"},"geometry":{"type":"Polygon","coordinates":\#(rings)}}"#)
        }
        return #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
    }

    static func answer(code: String, level: String, at: Double) -> String {
        let time = String(CrowdReading.koreanText(at).prefix(16)).replacingOccurrences(of: "T", with: " ")
        return #"{"SeoulRtd.citydata_ppltn":[{"AREA_NM":"장소","AREA_CD":"\#(code)","AREA_CONGEST_LVL":"\#(level)","AREA_CONGEST_MSG":"사람들이 몰려있을 수 있어요.","AREA_PPLTN_MIN":"12000","AREA_PPLTN_MAX":"14000","PPLTN_TIME":"\#(time)"}],"RESULT":{"RESULT.CODE":"INFO-000","RESULT.MESSAGE":"정상 처리되었습니다."}}"#
    }

    func run() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("crowd-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch + "/answers", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let areas = BenchData.areas(count: points)
        let places = scratch + "/hotspots.geojson"
        try Self.hotspots(around: areas, seed: 49).write(toFile: places, atomically: true, encoding: .utf8)
        let hotspots = try CrowdHotspots(path: places)
        let levels = CrowdLevel.allCases.map(\.rawValue)
        for (i, code) in hotspots.codes.enumerated() {
            try Self.answer(code: code, level: levels[i % 4], at: Date().timeIntervalSince1970 - 900).write(toFile: scratch + "/answers/\(code).json", atomically: true, encoding: .utf8)
        }
        let state = ServingState(.indexing(Catalog(areas: areas, fetchedAt: ["bench": Date().timeIntervalSince1970])), hasData: true,
                                 lastReport: nil, snapshotPath: "/nonexistent", builtAt: 0)
        guard let service = BenchData.service(serving: state) else { throw Failure(description: "no service") }
        var config = CrowdConfig(places: places)
        config.recordedAnswers = scratch + "/answers"
        let watch = CrowdWatch(config: config, hotspots: hotspots, environment: [:], quota: RequestQuota(path: nil),
                               logger: Logger(threshold: .error, environment: [:], sink: { _ in })) {}
        for hotspot in 0..<hotspots.count { watch.ask(about: hotspot) }
        let deadline = Date().addingTimeInterval(30)
        while watch.status.readings.contains(where: { $0 == nil }) && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        guard !watch.status.readings.contains(where: { $0 == nil }) else { throw Failure(description: "the recorded levels did not all arrive") }

        // Questions: half at points inside hotspots, half at areas anywhere.
        var random = SplitMix64(seed: 50)
        var lines: [[UInt8]] = []
        var inside = 0
        for i in 0..<questions {
            let point: GeoPoint
            if i % 2 == 0 {
                let hotspot = Int.random(in: 0..<hotspots.count, using: &random)
                let box = hotspots.boxes[hotspot]
                point = GeoPoint(uncheckedLatitude: Double.random(in: box.south...box.north, using: &random), longitude: Double.random(in: box.west...box.east, using: &random))
            } else {
                point = areas[Int.random(in: 0..<areas.count, using: &random)].coordinate
            }
            if hotspots.hotspot(holding: point) != nil { inside += 1 }
            lines.append(Array(#"{"op":"near","lat":\#(point.latitude),"lon":\#(point.longitude),"k":10}"#.utf8))
        }
        var writer = JSONWriter(capacity: 1 << 16)
        func cpuPerAnswer() -> (micros: Double, crowdMembers: Int) {
            let view = service.view()
            var members = 0
            let start = ExpensiveRequestsBenchmark.threadCPUSeconds()
            for line in lines {
                writer.reset()
                line.withUnsafeBufferPointer { service.respond(to: $0, peerUID: nil, view: view, into: &writer) }
                members += writer.withBytes { $0.count }
            }
            return ((ExpensiveRequestsBenchmark.threadCPUSeconds() - start) / Double(lines.count) * 1e6, members)
        }
        print("\(points) areas, \(hotspots.count) hotspots (every one with a level), \(questions) near questions (k 10, full), \(inside) of them inside a hotspot")
        var off: [Double] = [], on: [Double] = []
        var bytesOff = 0, bytesOn = 0
        for round in 0..<rounds {
            // Alternating which goes first, so neither always meets a warmer cache.
            for crowd in round % 2 == 0 ? [false, true] : [true, false] {
                service.install(crowd: crowd ? watch : nil)
                let (micros, bytes) = cpuPerAnswer()
                if crowd { on.append(micros); bytesOn = bytes } else { off.append(micros); bytesOff = bytes }
            }
        }
        let medianOff = Measure.percentile(off, 0.5), medianOn = Measure.percentile(on, 0.5)
        print("CPU per near answer: crowd off \(Measure.format(medianOff, 2)) µs, on \(Measure.format(medianOn, 2)) µs: \(Measure.format(medianOn / medianOff, 3))x (goal: at most 1.1x); "
              + "answers \(Measure.format(Double(bytesOn) / Double(max(bytesOff, 1)), 2))x the bytes (rounds: off \(off.map { Measure.format($0, 2) }.joined(separator: ", ")); on \(on.map { Measure.format($0, 2) }.joined(separator: ", ")))")
        service.install(crowd: watch)
        _ = service.view()
        print("memory: the hotspots' shapes \(Measure.format(Double(hotspots.shapes.byteCount) / 1024, 1)) KiB, which areas lie in which hotspot "
              + "\(Measure.format(Double(watch.view(for: state).members.byteCount) / 1024, 1)) KiB (\(watch.view(for: state).members.count) areas inside one)")
        try await requestsPerHour(hotspots: hotspots, places: places)
    }

    /// A day of questions against a stand-in city, on a virtual clock; the city's requests
    /// counted per hour.
    func requestsPerHour(hotspots: CrowdHotspots, places: String) async throws {
        let clock = LockedValue<Double>(try CrowdReading.koreanTime("2026-08-18 00:00") ?? 0)
        let city = try LoopbackHTTPServer { request in
            let code = String(request.path.split(separator: "/").last ?? "")
            return .text(200, CrowdBenchmark.answer(code: code, level: "보통", at: clock.withLock { $0 } - 900))
        }
        defer { city.stop() }
        var config = CrowdConfig(places: places)
        config.url = city.baseURL
        config.keyEnv = "KEY"
        let quotaPath = FileManager.default.temporaryDirectory.appendingPathComponent("crowd-quota-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: quotaPath) }
        let watch = CrowdWatch(config: config, hotspots: hotspots, environment: ["KEY": "k"], quota: RequestQuota(path: quotaPath, now: clock.withLock { $0 }),
                               logger: Logger(threshold: .error, environment: [:], sink: { _ in }), clock: { clock.withLock { $0 } }) {}
        // Zipf popularity: hotspot r (1-based) with weight 1/r.
        let weights = (1...hotspots.count).map { 1 / Double($0) }
        let total = weights.reduce(0, +)
        var random = SplitMix64(seed: 51)
        func popularHotspot() -> Int {
            var pick = Double.random(in: 0..<total, using: &random)
            for (i, weight) in weights.enumerated() { pick -= weight; if pick < 0 { return i } }
            return hotspots.count - 1
        }
        // Questions a second by hour of day: quiet at night, a morning and an evening peak.
        let rates: [Double] = [4, 3, 2, 2, 2, 3, 6, 12, 16, 14, 12, 14, 16, 14, 12, 12, 14, 18, 20, 20, 18, 14, 10, 6]
        var perHour: [Int] = []
        var spentAt: String?
        var questions = 0
        for hour in 0..<24 {
            let before = city.requestCount
            for _ in 0..<60 {
                let count = Int(rates[hour] * 60)
                for _ in 0..<count {
                    questions += 1
                    if Double.random(in: 0..<1, using: &random) < 0.3 {
                        let hotspot = popularHotspot()
                        let box = hotspots.boxes[hotspot]
                        watch.touch(GeoPoint(uncheckedLatitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2))
                    }
                }
                clock.withLock { $0 += 60 }
                // Lets the minute's requests finish before the next minute's questions.
                let settle = Date().addingTimeInterval(2)
                while Date() < settle, watch.status.outcomes.reduce(0, +) - watch.status.outcomes[CrowdOutcome.quotaSpent.index] < city.requestCount {
                    try await Task.sleep(nanoseconds: 1_000_000)
                }
                if spentAt == nil, watch.status.stopped != nil {
                    spentAt = String(CrowdReading.koreanText(clock.withLock { $0 }).dropFirst(11).prefix(5))
                }
            }
            perHour.append(city.requestCount - before)
        }
        let asked = perHour.reduce(0, +)
        print("a day of \(questions) questions (\(Int(rates.min() ?? 0)) to \(Int(rates.max() ?? 0)) a second, 30% inside a hotspot, Zipf popularity over \(hotspots.count) hotspots), "
              + "maxAgeSeconds 300, dailyRequestLimit 1000: \(asked) requests to the city; per hour \(perHour.map(String.init).joined(separator: " ")); "
              + "the day's limit spent at \(spentAt ?? "no time") (at most 12 a hotspot an hour, \(12 * hotspots.count) for all)")
    }
}
