import AreasCore
import AreasIngest
import AreasTestSupport
import AreasTestTraits
import Foundation
import Testing

/// The city's people-density answers (`citydata_ppltn`) and hotspot polygons as the daemon
/// reads them: real-shaped answers from samples/crowd, each failure the city answers with HTTP
/// 200, answers about another place or with a level or time that cannot be right, and hostile
/// places files.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct CrowdAnswerTests {
    /// 2026-08-18 17:20 in Korea.
    static let recordedAt = 1_787_041_200.0

    static func answer(code: String = "POI001", name: String = "서울역", level: String = "약간 붐빔", time: String = "2026-08-18 17:20",
                       resultCode: String = "INFO-000") -> [UInt8] {
        Array("""
            {"SeoulRtd.citydata_ppltn": [{"AREA_NM": "\(name)", "AREA_CD": "\(code)", "AREA_CONGEST_LVL": "\(level)",
             "AREA_CONGEST_MSG": "사람들이 몰려있을 수 있어요.", "AREA_PPLTN_MIN": "36000", "AREA_PPLTN_MAX": "38000",
             "MALE_PPLTN_RATE": "48.1", "PPLTN_TIME": "\(time)", "FCST_YN": "Y", "FCST_PPLTN": [{"FCST_TIME": "2026-08-18 18:20",
             "FCST_CONGEST_LVL": "붐빔", "FCST_PPLTN_MIN": "38000", "FCST_PPLTN_MAX": "40000"}]}],
             "RESULT": {"RESULT.CODE": "\(resultCode)", "RESULT.MESSAGE": "정상 처리되었습니다."}}
            """.utf8)
    }

    @Test func aRecordedAnswerOfTheCityIsRead() throws {
        let body = try Fixtures.bytes("samples/crowd/answers/POI004.json")
        let now = Self.recordedAt + 3_600
        guard case .reading(let reading) = CityDataAnswer.read(RecordedCityAnswer.replayed(body, now: now), code: "POI004", name: "명동 관광특구", now: now) else {
            Issue.record("no reading")
            return
        }
        #expect(reading.level == .crowded)
        #expect(reading.message.hasPrefix("사람들이 몰려있을 가능성이 매우 크고"))
        let (low, high) = (try #require(reading.minimum), try #require(reading.maximum))
        #expect(high == low + 2_000 && low >= 4_000)
        // The last five-minute mark before the time asked.
        #expect(reading.at <= now && reading.at > now - 300, "\(reading.atText)")
        #expect(reading.atText.hasPrefix("2026-08-18T18:") && reading.atText.hasSuffix("+09:00"))
    }

    @Test func aGoodAnswerGivesItsLevelCountsAndTime() {
        let now = Self.recordedAt + 15 * 60
        #expect(CityDataAnswer.read(Self.answer(), code: "POI001", name: "서울역", now: now) == .reading(
            CrowdReading(level: .busy, message: "사람들이 몰려있을 수 있어요.", minimum: 36_000, maximum: 38_000, at: Self.recordedAt)))
        for level in CrowdLevel.allCases {
            guard case .reading(let reading) = CityDataAnswer.read(Self.answer(level: level.rawValue), code: "POI001", name: "서울역", now: now) else {
                Issue.record("\(level.rawValue) not read")
                continue
            }
            #expect(reading.level == level)
        }
    }

    /// Every failure the city answers with HTTP 200, and answers that cannot be right.
    @Test(arguments: [
        (#"{"RESULT": {"RESULT.CODE": "INFO-200", "RESULT.MESSAGE": "해당하는 데이터가 없습니다."}}"#, CrowdOutcome.noData),
        (#"{"RESULT": {"RESULT.CODE": "INFO-100", "RESULT.MESSAGE": "인증키가 유효하지 않습니다."}}"#, .badKey),
        (#"{"RESULT": {"RESULT.CODE": "ERROR-500", "RESULT.MESSAGE": "서버 오류입니다."}}"#, .serverError),
        (#"{"RESULT": {"RESULT.CODE": "INFO-300", "RESULT.MESSAGE": "유효 호출건수를 이미 초과하셨습니다."}}"#, .refused),
        (#"{"CODE": "INFO-100", "MESSAGE": "인증키가 유효하지 않습니다."}"#, .badKey),
        (#"{"RESULT": {"RESULT.CODE": "INFO-000"}}"#, .malformed),
        (#"{"list": []}"#, .malformed),
        ("", .malformed),
        ("<html><body>점검 중</body></html>", .malformed),
        (#"{"SeoulRtd.citydata_ppltn": [{"AREA_CD": "POI001", "AREA_CONGEST_LVL": "#, .malformed),
        (#"["SeoulRtd.citydata_ppltn"]"#, .malformed),
    ])
    func aFailureIsNamed(body: String, outcome: CrowdOutcome) {
        guard case .failed(let found, let said) = CityDataAnswer.read(Array(body.utf8), code: "POI001", name: "서울역", now: Self.recordedAt) else {
            Issue.record("read as a level: \(body)")
            return
        }
        #expect(found == outcome, "\(said)")
        #expect(!said.isEmpty)
    }

    @Test func anAnswerThatCannotBeRightIsRefused() {
        let now = Self.recordedAt + 15 * 60
        func outcome(_ body: [UInt8]) -> CrowdOutcome? {
            if case .failed(let outcome, _) = CityDataAnswer.read(body, code: "POI001", name: "서울역", now: now) { return outcome }
            return nil
        }
        #expect(outcome(Self.answer(code: "POI014", name: "강남역")) == .wrongPlace)
        #expect(outcome(Self.answer(level: "매우 붐빔")) == .badLevel)
        #expect(outcome(Self.answer(level: "")) == .badLevel)
        #expect(outcome(Self.answer(time: "2026-08-18 18:20")) == .badTime, "an hour ahead of the clock")
        #expect(outcome(Self.answer(time: "2026-08-17 17:00")) == .badTime, "more than a day old")
        #expect(outcome(Self.answer(time: "어제 오후")) == .badTime)
        #expect(outcome(Self.answer(time: "2026-08-18 25:20")) == .badTime)
        #expect(outcome(Self.answer(resultCode: "ERROR-500")) == .serverError)
        // Within the tolerances: a few minutes ahead (clocks differ), most of a day behind.
        #expect(outcome(Self.answer(time: "2026-08-18 17:40")) == nil)
        #expect(outcome(Self.answer(time: "2026-08-17 18:00")) == nil)
    }

    @Test func koreanTimeRoundTrips() throws {
        #expect(CrowdReading.koreanTime("2026-08-18 17:20") == Self.recordedAt)
        #expect(CrowdReading.koreanTime("2026-08-18T17:20") == Self.recordedAt)
        #expect(CrowdReading.koreanText(Self.recordedAt) == "2026-08-18T17:20+09:00")
        // Korean midnight is 15:00 UTC the day before.
        #expect(CrowdReading.koreanText(try #require(CrowdReading.koreanTime("2026-01-01 00:00"))) == "2026-01-01T00:00+09:00")
        #expect(CrowdReading.koreanTime("2026-02-30 10:00") == nil)
    }

    /// A recording replayed is the city's latest five-minute reading: never ahead of the clock,
    /// never five minutes old (it kept its time of day, and was up to a day old: stale).
    @Test func aRecordingIsReplayedAsTheLatestReading() throws {
        let body = Self.answer(time: "2026-08-18 17:20")
        for (now, expected) in [("2026-12-03 18:00", "2026-12-03T18:00"), ("2026-12-03 09:04", "2026-12-03T09:00"), ("2026-12-04 00:14", "2026-12-04T00:10")] {
            let clock = try #require(CrowdReading.koreanTime(now))
            guard case .reading(let reading) = CityDataAnswer.read(RecordedCityAnswer.replayed(body, now: clock), code: "POI001", name: "서울역", now: clock) else {
                Issue.record("not read at \(now)")
                continue
            }
            #expect(reading.atText.hasPrefix(expected), "at \(now): \(reading.atText)")
        }
    }

    @Test func theSampleHotspotsAreRead() throws {
        let hotspots = try CrowdHotspots(path: Fixtures.path("samples/crowd/hotspots.geojson"))
        #expect(hotspots.codes == (1...8).map { "POI00\($0)" })
        #expect(hotspots.names.first == "서울역" && hotspots.problems.isEmpty)
        #expect(hotspots.polygons.filter { $0.parts.contains { $0.count > 1 } }.count == 3, "three hotspots with a hole")
        #expect(hotspots.polygons.filter { $0.parts.count > 1 }.count == 1, "one in two parts")
        #expect(hotspots.hotspot(holding: try GeoPoint(latitude: 37.5547, longitude: 126.9707)) == 0)
        #expect(hotspots.hotspot(holding: try GeoPoint(latitude: 36.0, longitude: 127.0)) == nil)
    }

    /// Which hotspot holds each of thousands of points, against shapely reading the file itself.
    @Test(.enabled(if: PythonModule.isAvailable("shapely"), "shapely from PyPI (Tests/run.sh installs it)"))
    func whichHotspotHoldsAPointAgreesWithShapely() throws {
        let path = Fixtures.path("samples/crowd/hotspots.geojson")
        let hotspots = try CrowdHotspots(path: path)
        var random = SplitMix64(seed: 48)
        var points: [GeoPoint] = []
        for box in hotspots.boxes {
            for _ in 0..<400 {
                points.append(try GeoPoint(latitude: box.south - 0.002 + Double.random(in: 0..<1, using: &random) * (box.north - box.south + 0.004),
                                           longitude: box.west - 0.002 + Double.random(in: 0..<1, using: &random) * (box.east - box.west + 0.004)))
            }
        }
        let expected = try ShapelyHotspots.holding(points, in: path)
        try #require(expected.count == points.count)
        var inside = 0
        for (point, code) in zip(points, expected) {
            #expect(hotspots.hotspot(holding: point).map { hotspots.codes[$0] } == code, "\(point)")
            if code != nil { inside += 1 }
        }
        #expect(inside > points.count / 4 && inside < points.count, "points inside, outside and in holes: \(inside) of \(points.count)")
    }

    @Test func aHostilePlacesFileLosesOnlyItsBadFeatures() throws {
        func feature(_ properties: String, _ geometry: String) -> String { #"{"type": "Feature", "properties": {\#(properties)}, "geometry": \#(geometry)}"# }
        let square = #"{"type": "Polygon", "coordinates": [[[127.0, 37.5], [127.01, 37.5], [127.01, 37.51], [127.0, 37.51], [127.0, 37.5]]]}"#
        // A hole drawn beside its shell: no repair makes that a hole.
        let holeOutside = #"{"type": "Polygon", "coordinates": [[[127.0, 37.5], [127.01, 37.5], [127.01, 37.51], [127.0, 37.51], [127.0, 37.5]], [[127.02, 37.5], [127.02, 37.501], [127.021, 37.501], [127.02, 37.5]]]}"#
        let features = [
            feature(#""AREA_CD": "POI001", "AREA_NM": "좋은 곳""#, square),
            feature(#""cd": "POI002", "nm": "짧은 이름""#, square),
            feature(#""AREA_CD": "../../etc/passwd", "AREA_NM": "경로""#, square),
            feature(#""AREA_NM": "코드 없음""#, square),
            feature(#""AREA_CD": "POI003""#, holeOutside),
            feature(#""AREA_CD": "POI004""#, #"{"type": "Point", "coordinates": [127.0, 37.5]}"#),
            feature(#""AREA_CD": "POI001", "AREA_NM": "두 번째""#, square),
        ]
        let text = #"{"type": "FeatureCollection", "features": ["# + features.joined(separator: ",") + "]}"
        let hotspots = try CrowdHotspots(bytes: Array(text.utf8), path: "places.geojson")
        #expect(hotspots.codes == ["POI001", "POI002"])
        #expect(hotspots.names == ["좋은 곳", "짧은 이름"])
        #expect(hotspots.problems.count == 5, "\(hotspots.problems)")
        #expect(hotspots.problems.contains { $0.contains("feature 5 (POI003): a hole outside its shell") }, "\(hotspots.problems)")
        #expect(hotspots.problems.contains { $0.contains("a second hotspot with this code") })
        for bad in ["", "[]", #"{"type": "FeatureCollection", "features": []}"#, #"{"type": "FeatureCollection", "features": [\#(features[3])]}"#] {
            #expect(throws: CrowdHotspots.Failure.self) { try CrowdHotspots(bytes: Array(bad.utf8), path: "places.geojson") }
        }
        #expect(throws: CrowdHotspots.Failure.self) { try CrowdHotspots(path: "/nonexistent/places.geojson") }
        // A shape of a million vertices is left out; a file past 64 MiB is refused unread.
        let star = (0..<1_000_000).map { k -> String in
            let angle = 2 * Double.pi * Double(k) / 1_000_000, r = k % 2 == 0 ? 0.01 : 0.009
            return "[\(127 + r * cos(angle)),\(37.5 + r * sin(angle))]"
        }
        let huge = feature(#""AREA_CD": "POI009""#, #"{"type": "Polygon", "coordinates": [["# + (star + [star[0]]).joined(separator: ",") + "]]}")
        let withHuge = try CrowdHotspots(bytes: Array((#"{"type": "FeatureCollection", "features": ["# + features[0] + "," + huge + "]}").utf8), path: "places.geojson")
        #expect(withHuge.codes == ["POI001"] && withHuge.problems == ["feature 2 (POI009): more than 100000 vertices"], "\(withHuge.problems)")
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sparse = folder + "/places.geojson"
        FileManager.default.createFile(atPath: sparse, contents: nil)
        try FileHandle(forWritingTo: URL(fileURLWithPath: sparse)).truncate(atOffset: 65 << 20)
        let tooLarge = #expect(throws: CrowdHotspots.Failure.self) { try CrowdHotspots(path: sparse) }
        #expect(tooLarge?.reason.contains("more than a places file may have") == true, "\(String(describing: tooLarge))")
    }

    @Test func theConfigNamesWhatIsWrongWithCrowd() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func problem(_ crowd: String) -> String? {
            let path = folder + "/c.json"
            try? Data(#"{"snapshot": "s", "crowd": \#(crowd), "sources": [{"name": "a", "kind": "smoking", "format": "csv", "file": "a.csv", "fields": {"name": "n", "latitude": "y", "longitude": "x"}}]}"#.utf8)
                .write(to: URL(fileURLWithPath: path))
            do throws(ConfigError) { _ = try AreasConfig.load(path: path); return nil } catch { return error.description }
        }
        #expect(problem(#"{"places": "p.geojson", "keyEnv": "SEOUL_DATA_KEY"}"#) == nil)
        #expect(problem(#"{"keyEnv": "SEOUL_DATA_KEY"}"#)?.contains("crowd.places: missing") == true)
        #expect(problem(#"{"places": "p.geojson"}"#) == nil, "the key from SEOUL_DATA_KEY")
        #expect(problem(#"{"places": "p.geojson", "keyEnv": "SEOUL KEY"}"#)?.contains("crowd.keyEnv: 'SEOUL KEY' is not an environment variable name") == true)
        #expect(problem(#"{"format": "tokyo", "places": "p.geojson", "keyEnv": "K"}"#)?.contains("unknown format 'tokyo' (expected seoul-citydata)") == true)
        #expect(problem(#"{"places": "p.geojson", "keyEnv": "K", "maxAgeSeconds": 1}"#)?.contains("crowd.maxAgeSeconds: must be a number from 10 to 86400") == true)
        #expect(problem(#"{"places": "p.geojson", "keyEnv": "K", "url": "ftp://x"}"#)?.contains("crowd.url") == true)
        #expect(problem(#"{"places": "p.geojson", "keyEnv": "K", "maxAge": 60}"#)?.contains("crowd.maxAge: unknown key (did you mean maxAgeSeconds?)") == true)
        let config = try AreasConfig.load(path: Fixtures.samplesConfig)
        let crowd = try #require(config.crowd)
        #expect(crowd.places.hasSuffix("samples/crowd/hotspots.geojson") && crowd.recordedAnswers?.hasSuffix("samples/crowd/answers") == true)
        #expect(crowd.maxAgeSeconds == 300 && crowd.dailyRequestLimit == 1_000 && crowd.timeoutSeconds == 5 && crowd.url == CrowdConfig.defaultURL)
    }
}
