import AreasTestSupport
import AreasTestTraits
import Foundation
import Testing
@testable import AreasCore
@testable import AreasIngest
@testable import AreasProtocol
@testable import AreasServer
@testable import AreasSystem

/// People density through the real socket server, against a stand-in of the city's API (a real
/// HTTP server on loopback speaking `citydata_ppltn`): the levels land on the areas inside each
/// hotspot and nowhere else (shapely reading the places file decides which), each hotspot is
/// asked at most once per `maxAgeSeconds` and never past `dailyRequestLimit`, a stalled or
/// failing city never delays an answer and never costs the last good level, and the key is in
/// no log line, answer or metric.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct CrowdTests {
    static let key = "s3cr3t-KEY-42"
    /// 2026-08-18 12:00 in Korea.
    static let start = 1_787_022_000.0

    /// The city, as the daemon sees it: per hotspot, the reply it gets (a good answer at the
    /// test clock's time, at the level given, unless a fault is set), and every path asked.
    final class StandInCity: Sendable {
        let clock = LockedValue<Double>(CrowdTests.start)
        let levels = LockedValue<[String: String]>([:])
        let faults = LockedValue<[String: LoopbackHTTPServer.Reply]>([:])
        let asked = LockedValue<[String]>([])
        /// When set, the hotspot's reply waits for the test to open it (at most 30 s).
        let gate = LockedValue<[String: DispatchSemaphore]>([:])
        var server: LoopbackHTTPServer { _server.withLock { $0! } }
        private let _server = LockedValue<LoopbackHTTPServer?>(nil)

        init() throws {
            let server = try LoopbackHTTPServer { [weak self] request in
                guard let self else { return .close }
                self.asked.withLock { $0.append(request.path) }
                let code = String(request.path.split(separator: "/").last ?? "")
                if let gate = self.gate.withLock({ $0[code] }) { _ = gate.wait(timeout: .now() + 30) }
                if let fault = self.faults.withLock({ $0[code] }) { return fault }
                let level = self.levels.withLock { $0[code] } ?? "보통"
                return .text(200, CrowdTests.answer(code: code, level: level, at: self.clock.withLock { $0 } - 600), contentType: "application/json;charset=UTF-8")
            }
            _server.withLock { $0 = server }
        }

        func codesAsked() -> [String] { asked.withLock { $0.map { String($0.split(separator: "/").last ?? "") } } }
        func stop() { server.stop() }
    }

    static func answer(code: String, name: String? = nil, level: String, at: Double) -> String {
        let time = String(CrowdReading.koreanText(at).prefix(16)).replacingOccurrences(of: "T", with: " ")
        return #"{"SeoulRtd.citydata_ppltn": [{"AREA_NM": "\#(name ?? code)", "AREA_CD": "\#(code)", "AREA_CONGEST_LVL": "\#(level)", "AREA_CONGEST_MSG": "메시지", "AREA_PPLTN_MIN": "1000", "AREA_PPLTN_MAX": "1500", "PPLTN_TIME": "\#(time)"}], "RESULT": {"RESULT.CODE": "INFO-000", "RESULT.MESSAGE": "정상 처리되었습니다."}}"#
    }

    /// The sample daemon's service on a real socket, watching the sample hotspots through `city`.
    struct Harness {
        let server: TestServer
        let city: StandInCity
        let watch: CrowdWatch
        let log: LockedValue<[String]>

        init(maxAgeSeconds: Double = 300, dailyRequestLimit: Int = 1_000, timeoutSeconds: Double = 5, staleAfterSeconds: Double = 3_600) async throws {
            server = try await TestServer.samples()
            city = try StandInCity()
            let log = LockedValue<[String]>([])
            self.log = log
            var config = CrowdConfig(places: Fixtures.path("samples/crowd/hotspots.geojson"))
            config.url = city.server.baseURL
            config.keyEnv = "SEOUL_DATA_KEY"
            config.maxAgeSeconds = maxAgeSeconds
            config.dailyRequestLimit = dailyRequestLimit
            config.timeoutSeconds = timeoutSeconds
            config.staleAfterSeconds = staleAfterSeconds
            let logger = Logger(threshold: .debug, environment: [:], sink: { line in log.withLock { $0.append(line) } })
            let city = self.city
            let service = server.service
            watch = CrowdWatch(config: config, hotspots: try CrowdHotspots(path: config.places), environment: ["SEOUL_DATA_KEY": CrowdTests.key],
                               quota: RequestQuota(path: server.directory + "/requests.json", now: CrowdTests.start), logger: logger,
                               clock: { city.clock.withLock { $0 } }) { [weak service] in service?.crowdChanged() }
            server.service.install(crowd: watch)
        }

        /// A point inside hotspot `code`.
        func point(in code: String) throws -> GeoPoint {
            let hotspot = try #require(watch.hotspots.codes.firstIndex(of: code))
            return RingCheck.pointInside(watch.hotspots.polygons[hotspot])
        }

        func ask(_ line: String) throws -> JSONValue { try server.ask(line) }

        /// Waits (at most 20 s) until the city's requests have `count` outcomes.
        func settle(_ count: Int) async throws {
            let deadline = Date().addingTimeInterval(20)
            while watch.status.outcomes.reduce(0, +) < count && Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
            try #require(watch.status.outcomes.reduce(0, +) >= count, "outcomes \(watch.status.outcomes)")
        }

        /// Waits (at most 20 s) until no request to the city is in flight.
        func idle() async throws {
            let deadline = Date().addingTimeInterval(20)
            while watch.status.inFlight > 0 && Date() < deadline { try await Task.sleep(nanoseconds: 1_000_000) }
            try #require(watch.status.inFlight == 0)
        }

        func outcomes() -> [String: Int] {
            let status = watch.status
            return Dictionary(uniqueKeysWithValues: CrowdOutcome.allCases.filter { status.outcomes[$0.index] > 0 }.map { ($0.rawValue, status.outcomes[$0.index]) })
        }

        func stop() {
            city.stop()
            server.stop()
        }
    }

    @Test func levelsLandOnTheAreasInsideEachHotspot() async throws {
        let harness = try await Harness()
        defer { harness.stop() }
        let levels = ["POI001": "붐빔", "POI002": "여유", "POI003": "약간 붐빔", "POI004": "보통", "POI005": "붐빔", "POI007": "여유", "POI008": "보통"]
        harness.city.levels.withLock { $0 = levels }
        harness.city.faults.withLock { $0["POI006"] = .text(200, #"{"RESULT": {"RESULT.CODE": "INFO-200", "RESULT.MESSAGE": "해당하는 데이터가 없습니다."}}"#) }
        // Nothing is known before a question touches a hotspot; the first answers carry no level.
        let box = #"{"op":"bbox","south":37.45,"west":126.9,"north":37.62,"east":127.1,"limit":10000}"#
        #expect(try harness.ask(box)["areas"]?.array.contains { $0["crowd"] != nil } == false)
        #expect(harness.city.asked.withLock { $0 }.isEmpty, "a bbox asks the city nothing")
        for code in harness.watch.hotspots.codes {
            let point = try harness.point(in: code)
            let first = try harness.ask(#"{"op":"check","lat":\#(point.latitude),"lon":\#(point.longitude)}"#)
            #expect(first["ok"]?.bool == true)
        }
        try await harness.settle(8)
        #expect(Set(harness.city.codesAsked()) == Set(harness.watch.hotspots.codes))
        #expect(harness.outcomes() == ["ok": 7, "no_data": 1])

        let answer = try harness.ask(box)
        let areas = answer["areas"]?.array ?? []
        let points = try areas.map { try GeoPoint(latitude: $0["lat"]?.double ?? 0, longitude: $0["lon"]?.double ?? 0) }
        let expected = try ShapelyHotspots.holding(points, in: Fixtures.path("samples/crowd/hotspots.geojson"))
        try #require(expected.count == areas.count)
        var withLevel = 0, withoutLevel = 0
        let now = harness.city.clock.withLock { $0 }
        for (area, code) in zip(areas, expected) {
            let id = area["id"]?.string ?? ""
            guard let code, let level = levels[code] else {
                #expect(area["crowd"] == nil, "\(id) lies in no hotspot with a level, yet carries \(String(describing: area["crowd"]))")
                withoutLevel += 1
                continue
            }
            let crowd = try #require(area["crowd"], "\(id) lies in \(code)")
            let hotspot = try #require(harness.watch.hotspots.codes.firstIndex(of: code))
            #expect(crowd["place"]?.string == harness.watch.hotspots.names[hotspot])
            #expect(crowd["level"]?.string == level)
            #expect(crowd["min"]?.double == 1_000 && crowd["max"]?.double == 1_500)
            #expect(crowd["at"]?.string == CrowdReading.koreanText(now - 600))
            #expect(crowd["ageSeconds"]?.double == 600)
            withLevel += 1
        }
        #expect(withLevel >= 20 && withoutLevel >= 20, "\(withLevel) areas with a level, \(withoutLevel) without")

        // get and check carry it too; check says the crowd where it was asked.
        let inside = try #require(zip(areas, expected).first { $0.1 == "POI001" }?.0["id"]?.string)
        let detail = try harness.ask(#"{"op":"get","id":"\#(inside)"}"#)
        #expect(detail["areas"]?.array.first?["crowd"]?["level"]?.string == "붐빔")
        let point = try harness.point(in: "POI004")
        #expect(try harness.ask(#"{"op":"check","lat":\#(point.latitude),"lon":\#(point.longitude)}"#)["crowd"]?["level"]?.string == "보통")
        // The crowd op: every hotspot, the one without data saying so.
        let crowd = try harness.ask(#"{"op":"crowd"}"#)
        let hotspots = crowd["hotspots"]?.array ?? []
        #expect(hotspots.count == 8 && crowd["requestsToday"]?.double == 8)
        #expect(hotspots.first { $0["code"]?.string == "POI006" }?["lastOutcome"]?.string == "no_data")
        #expect(hotspots.first { $0["code"]?.string == "POI006" }?["level"] == nil)
    }

    @Test func eachHotspotIsAskedAtMostOncePerMaxAgeAndNeverPastTheDailyLimit() async throws {
        let harness = try await Harness(maxAgeSeconds: 300, dailyRequestLimit: 3)
        defer { harness.stop() }
        let seoulStation = try harness.point(in: "POI001")
        let near = #"{"op":"near","lat":\#(seoulStation.latitude),"lon":\#(seoulStation.longitude),"k":5}"#
        for _ in 0..<20 { _ = try harness.ask(near) }
        try await harness.settle(1)
        for _ in 0..<20 { _ = try harness.ask(near) }
        #expect(harness.city.codesAsked() == ["POI001"], "asked once within maxAgeSeconds")
        // The watcher's own record of when it asked, read as the question returns (the
        // city's log would see a request started in the background only later): not at 299 s,
        // again at 300 s, not again at 301 s.
        let station = try #require(harness.watch.hotspots.codes.firstIndex(of: "POI001"))
        let first = try #require(harness.watch.status.askedAt[station])
        harness.city.clock.withLock { $0 += 299 }
        _ = try harness.ask(near)
        #expect(harness.watch.status.askedAt[station] == first, "asked again 299 s after")
        harness.city.clock.withLock { $0 += 1 }
        _ = try harness.ask(near)
        #expect(harness.watch.status.askedAt[station] == first + 300, "not asked again 300 s after")
        try await harness.settle(2)
        harness.city.clock.withLock { $0 += 1 }
        _ = try harness.ask(near)
        #expect(harness.watch.status.askedAt[station] == first + 300, "asked again 1 s after the last")
        #expect(harness.city.codesAsked() == ["POI001", "POI001"], "asked again once the level is maxAgeSeconds old")
        // A get of an area inside a hotspot asks about it; the day's third request is the last.
        let yongsan = try harness.point(in: "POI002")
        _ = try harness.ask(#"{"op":"radius","lat":\#(yongsan.latitude),"lon":\#(yongsan.longitude),"meters":100}"#)
        try await harness.settle(3)
        let itaewon = try harness.point(in: "POI003")
        _ = try harness.ask(#"{"op":"check","lat":\#(itaewon.latitude),"lon":\#(itaewon.longitude)}"#)
        try await harness.settle(4)
        #expect(harness.city.codesAsked() == ["POI001", "POI001", "POI002"], "no request past dailyRequestLimit")
        #expect(harness.outcomes() == ["ok": 3, "quota_spent": 1])
        let crowd = try harness.ask(#"{"op":"crowd"}"#)
        #expect(crowd["stopped"]?.string?.contains("crowd.dailyRequestLimit") == true)
        #expect(crowd["requestsToday"]?.double == 3)
        // What was known stays served.
        #expect(try harness.ask(near)["areas"]?.array.contains { $0["crowd"]?["level"]?.string == "보통" } == true)
        // The count outlives a restart: it is kept beside the snapshot.
        #expect(RequestQuota(path: harness.server.directory + "/requests.json", now: harness.city.clock.withLock { $0 }).today(now: harness.city.clock.withLock { $0 })["crowd"] == 3)
        let metrics = try harness.ask(#"{"op":"metrics"}"#)["metrics"]?.string ?? ""
        #expect(metrics.contains("areas_crowd_requests_total{outcome=\"quota_spent\"} 1") && metrics.contains("areas_crowd_quota_remaining 0"), "\(metrics)")
        // After midnight in Korea the city is asked again.
        harness.city.clock.withLock { $0 += 13 * 3_600 }
        _ = try harness.ask(#"{"op":"check","lat":\#(itaewon.latitude),"lon":\#(itaewon.longitude)}"#)
        try await harness.settle(5)
        #expect(harness.city.codesAsked().last == "POI003")
    }

    /// A level older than `staleAfterSeconds` by the city's own time is marked `stale` in every
    /// answer that carries it and in `/v1/crowd` (levels 17 hours old were served as current):
    /// here the city stops answering and the level kept grows old.
    @Test func aLevelPastStaleAfterIsMarkedStale() async throws {
        let harness = try await Harness(staleAfterSeconds: 1_800)
        defer { harness.stop() }
        let point = try harness.point(in: "POI001")
        let check = #"{"op":"check","lat":\#(point.latitude),"lon":\#(point.longitude)}"#
        let near = #"{"op":"near","lat":\#(point.latitude),"lon":\#(point.longitude),"k":3}"#
        _ = try harness.ask(check)
        try await harness.settle(1)
        let fresh = try harness.ask(check)
        #expect(fresh["crowd"]?["ageSeconds"]?.double == 600 && fresh["crowd"]?["stale"] == nil, "\(fresh["crowd"] ?? .null)")
        // 1,200 s on (the level 1,800 s old: not past it), then 1 s more.
        harness.city.faults.withLock { $0["POI001"] = .text(500, "down") }
        harness.city.clock.withLock { $0 += 1_200 }
        let atTheLimit = try harness.ask(check)
        #expect(atTheLimit["crowd"]?["ageSeconds"]?.double == 1_800 && atTheLimit["crowd"]?["stale"] == nil, "\(atTheLimit["crowd"] ?? .null)")
        try await harness.settle(2)
        harness.city.clock.withLock { $0 += 1 }
        let old = try harness.ask(check)
        #expect(old["crowd"]?["level"]?.string == "보통" && old["crowd"]?["stale"]?.bool == true, "\(old["crowd"] ?? .null)")
        let areas = try harness.ask(near)["areas"]?.array ?? []
        let inside = areas.filter { $0["crowd"] != nil }
        #expect(!inside.isEmpty && inside.allSatisfy { $0["crowd"]?["stale"]?.bool == true && $0["crowd"]?["ageSeconds"]?.double == 1_801 })
        let hotspots = try harness.ask(#"{"op":"crowd"}"#)["hotspots"]?.array ?? []
        let station = hotspots.first { $0["code"]?.string == "POI001" }
        #expect(station?["stale"]?.bool == true && station?["lastOutcome"]?.string == "http_error", "\(station ?? .null)")
        #expect(hotspots.filter { $0["stale"] != nil }.count == 1)
    }

    /// A map's view (`crowd` with a box) asks about the hotspots whose box overlaps it (shapely
    /// reading the places file decides which), at most 12 a view, and views spend at most half
    /// the day's requests; the rest stays for questions asked from a place.
    @Test func aMapsViewAsksAboutTheHotspotsInItWithinItsShare() async throws {
        let harness = try await Harness(maxAgeSeconds: 60, dailyRequestLimit: 10)
        defer { harness.stop() }
        let view = (south: 37.54, west: 126.955, north: 37.565, east: 126.985)
        let expected = try ShapelyHotspots.envelopesOverlapping(south: view.south, west: view.west, north: view.north, east: view.east,
                                                                in: Fixtures.path("samples/crowd/hotspots.geojson"))
        try #require(expected.count >= 2 && expected.count < 8, "\(expected)")
        let line = #"{"op":"crowd","south":\#(view.south),"west":\#(view.west),"north":\#(view.north),"east":\#(view.east)}"#
        let first = try harness.ask(line)
        #expect(first["ok"]?.bool == true)
        try await harness.settle(expected.count)
        #expect(Set(harness.city.codesAsked()) == Set(expected) && harness.city.codesAsked().count == expected.count, "\(harness.city.codesAsked()) against \(expected)")
        // Asked again within maxAgeSeconds: nothing more.
        _ = try harness.ask(line)
        try await harness.idle()
        #expect(harness.city.codesAsked().count == expected.count)
        // The views' half of 10 requests: after 5, views ask nothing; a check still does.
        var views = expected.count
        while views < 5 {
            harness.city.clock.withLock { $0 += 61 }
            _ = try harness.ask(line)
            views = Swift.min(5, views + expected.count)
            try await harness.idle()
        }
        let before = harness.city.codesAsked().count
        #expect(before == 5, "views stopped at their half: \(harness.city.codesAsked())")
        harness.city.clock.withLock { $0 += 61 }
        _ = try harness.ask(line)
        try await harness.idle()
        #expect(harness.city.codesAsked().count == before, "a view past its share asked again")
        let gangnam = try harness.point(in: "POI008")
        _ = try harness.ask(#"{"op":"check","lat":\#(gangnam.latitude),"lon":\#(gangnam.longitude)}"#)
        try await harness.idle()
        #expect(harness.city.codesAsked().last == "POI008", "a question from a place still asks")
        // Over HTTP, as the page asks it.
        let request = try Request.make(.crowd, values: [(.south, .number(view.south)), (.west, .number(view.west)), (.north, .number(view.north)), (.east, .number(view.east))])
        #expect(request == .crowd(view: GeoBox(uncheckedSouth: view.south, west: view.west, north: view.north, east: view.east)))
    }

    /// The day's requests are spread over the day: asked about constantly, every hotspot due
    /// every 10 s for two hours, the city gets the bucket's 10 at once and then one every 360 s
    /// (240 a day), not 240 in the first five minutes and nothing after.
    @Test func theDaysRequestsAreSpreadOverTheDay() async throws {
        let harness = try await Harness(maxAgeSeconds: 10, dailyRequestLimit: 240)
        defer { harness.stop() }
        let points = try harness.watch.hotspots.codes.map { try harness.point(in: $0) }
        var askedBy: [Int] = []
        for round in 0..<(2 * 360) {
            for point in points { harness.watch.touch(point) }
            try await harness.idle()
            harness.city.clock.withLock { $0 += 10 }
            if round % 360 == 359 { askedBy.append(harness.city.asked.withLock { $0.count }) }
        }
        // The last questions of each hour come at 3,590 s and 7,190 s: 10 + 9 and 10 + 19.
        #expect(askedBy == [19, 29], "requests by the end of each hour: \(askedBy)")
        #expect(harness.outcomes() == ["ok": 29])
    }

    @Test func aStalledCityNeverDelaysAnAnswer() async throws {
        let harness = try await Harness(timeoutSeconds: 20)
        defer { harness.stop() }
        let gate = DispatchSemaphore(value: 0)
        harness.city.gate.withLock { $0["POI001"] = gate }
        defer { gate.signal() }
        let point = try harness.point(in: "POI001")
        let client = try harness.server.client()
        func askMany() throws {
            for _ in 0..<50 {
                let started = Date()
                let answer = try harness.server.ask(#"{"op":"check","lat":\#(point.latitude),"lon":\#(point.longitude)}"#, on: client)
                #expect(answer["ok"]?.bool == true && answer["crowd"] == nil)
                #expect(Date().timeIntervalSince(started) < 2, "an answer waited for the city")
            }
        }
        try askMany()
        let deadline = Date().addingTimeInterval(10)
        while harness.city.codesAsked().isEmpty && Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
        // The city holds the request; questions go on being answered at once.
        try askMany()
        #expect(harness.city.codesAsked() == ["POI001"], "one request in flight, not one a question")
        #expect(harness.watch.status.outcomes.reduce(0, +) == 0, "the city has not answered yet")
        gate.signal()
        try await harness.settle(1)
        #expect(try harness.ask(#"{"op":"check","lat":\#(point.latitude),"lon":\#(point.longitude)}"#)["crowd"]?["level"]?.string == "보통")
    }

    /// Each bad answer of the city is counted by its outcome and costs nothing: the level got
    /// before is kept, with its age growing.
    @Test(arguments: [
        ("no data", "no_data"), ("server error", "server_error"), ("another place", "wrong_place"), ("a fifth level", "bad_level"),
        ("an hour ahead", "bad_time"), ("two days old", "bad_time"), ("a redirect", "redirect"), ("HTTP 500", "http_error"),
        ("a drip", "timeout"), ("a hang", "timeout"), ("an endless answer", "too_large"), ("a closed connection", "unreachable"),
        ("HTML", "malformed"), ("a refused key", "bad_key"), ("a spent key", "refused"),
    ])
    func aBadAnswerKeepsTheLastGoodLevel(fault: String, outcome: String) async throws {
        let harness = try await Harness(timeoutSeconds: 1)
        defer { harness.stop() }
        let point = try harness.point(in: "POI001")
        let check = #"{"op":"check","lat":\#(point.latitude),"lon":\#(point.longitude)}"#
        _ = try harness.ask(check)
        try await harness.settle(1)
        let now = harness.city.clock.withLock { $0 += 400; return $0 }
        let reply: LoopbackHTTPServer.Reply = switch fault {
        case "no data": .text(200, #"{"RESULT": {"RESULT.CODE": "INFO-200", "RESULT.MESSAGE": "해당하는 데이터가 없습니다."}}"#)
        case "server error": .text(200, #"{"RESULT": {"RESULT.CODE": "ERROR-500", "RESULT.MESSAGE": "서버 오류입니다."}}"#)
        case "another place": .text(200, Self.answer(code: "POI014", name: "강남역", level: "붐빔", at: now - 600))
        case "a fifth level": .text(200, Self.answer(code: "POI001", level: "매우 붐빔", at: now - 600))
        case "an hour ahead": .text(200, Self.answer(code: "POI001", level: "붐빔", at: now + 3_600))
        case "two days old": .text(200, Self.answer(code: "POI001", level: "붐빔", at: now - 2 * 86_400))
        case "a redirect": .redirect(status: 302, location: "http://127.0.0.1:9/elsewhere")
        case "HTTP 500": .text(500, "Internal Server Error")
        case "a drip": .drip(status: 200, contentType: "application/json", declaredLength: 10_000, interval: 0.2)
        case "a hang": .hang
        case "an endless answer": .endless(contentType: "application/json", pattern: Array(#"{"a":1},"#.utf8))
        case "a closed connection": .close
        case "HTML": .text(200, "<html><body>서비스 점검 중입니다</body></html>", contentType: "text/html")
        case "a refused key": .text(200, #"{"RESULT": {"RESULT.CODE": "INFO-100", "RESULT.MESSAGE": "인증키가 유효하지 않습니다."}}"#)
        default: .text(200, #"{"RESULT": {"RESULT.CODE": "INFO-300", "RESULT.MESSAGE": "유효 호출건수를 이미 초과하셨습니다."}}"#)
        }
        harness.city.faults.withLock { $0["POI001"] = reply }
        let started = Date()
        let answer = try harness.ask(check)
        #expect(Date().timeIntervalSince(started) < 1, "the answer waited for the city")
        try await harness.settle(2)
        #expect(harness.outcomes() == ["ok": 1, outcome: 1], "\(fault)")
        let kept = try harness.ask(check)["crowd"]
        #expect(kept?["level"]?.string == "보통" && kept?["ageSeconds"]?.double == 1_000, "\(fault): \(String(describing: kept))")
        #expect(answer["crowd"]?["level"]?.string == "보통")
        let hotspot = try harness.ask(#"{"op":"crowd"}"#)["hotspots"]?.array.first
        #expect(hotspot?["lastOutcome"]?.string == outcome)
        #expect(hotspot?["lastError"]?.string?.isEmpty == false)
        // The line is written after the outcome is counted: waited for, at most 2 s.
        var log = ""
        for _ in 0..<40 {
            log = harness.log.withLock { $0.joined() }
            if log.contains("crowd: POI001 서울역: \(outcome):") { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(log.contains("crowd: POI001 서울역: \(outcome):"), "\(log)")
        // A refused key stops all asking; a spent one until midnight in Korea; any other
        // failure is asked again after maxAgeSeconds.
        harness.city.faults.withLock { $0 = [:] }
        harness.city.clock.withLock { $0 += 301 }
        _ = try harness.ask(check)
        if outcome == "bad_key" || outcome == "refused" {
            try await Task.sleep(nanoseconds: 200_000_000)
            #expect(harness.city.codesAsked().count == 2, "\(fault): asked again")
            #expect(try harness.ask(#"{"op":"crowd"}"#)["stopped"]?.string?.isEmpty == false)
        } else {
            try await harness.settle(3)
            #expect(harness.city.codesAsked().count == 3)
        }
    }

    /// The key goes into the request's path and nowhere else: not a log line, an answer, a
    /// metric or the stats, whatever the city answers.
    @Test func theKeyIsInNoLogLineAnswerOrMetric() async throws {
        let harness = try await Harness(timeoutSeconds: 1)
        defer { harness.stop() }
        harness.city.faults.withLock {
            $0["POI002"] = .redirect(status: 301, location: harness.city.server.baseURL + "/\(Self.key)/again")
            $0["POI003"] = .text(200, #"{"RESULT": {"RESULT.CODE": "INFO-100", "RESULT.MESSAGE": "인증키가 유효하지 않습니다."}}"#)
            $0["POI004"] = .hang
        }
        for code in ["POI001", "POI002", "POI004", "POI003"] {
            let point = try harness.point(in: code)
            _ = try harness.ask(#"{"op":"near","lat":\#(point.latitude),"lon":\#(point.longitude)}"#)
        }
        try await harness.settle(4)
        #expect(harness.city.asked.withLock { $0 }.allSatisfy { $0.hasPrefix("/\(Self.key)/json/citydata_ppltn/1/5/POI00") }, "the city is asked with the key in its path")
        var seen = harness.log.withLock { $0.joined() }
        for line in [#"{"op":"crowd"}"#, #"{"op":"metrics"}"#, #"{"op":"stats"}"#, #"{"op":"health"}"#] {
            seen += String(describing: try harness.ask(line))
        }
        let point = try harness.point(in: "POI001")
        seen += String(describing: try harness.ask(#"{"op":"near","lat":\#(point.latitude),"lon":\#(point.longitude)}"#))
        #expect(seen.contains("bad_key") && seen.contains("redirect") && seen.contains("timeout"))
        #expect(!seen.contains(Self.key) && !seen.contains("s3cr3t"), "the key leaked: \(seen)")
    }
}
