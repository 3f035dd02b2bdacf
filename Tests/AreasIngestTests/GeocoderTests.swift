import AreasCore
import Foundation
import Synchronization
import Testing
@testable import AreasIngest
@testable import AreasTestSupport
import AreasTestTraits

/// The geocoder against a real local HTTP server speaking each provider's protocol: what it
/// asks, how it reads answers and failures, its limits, and what it remembers.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct GeocoderTests {
    /// A folder with an address-only CSV of `rows` rows and a config that geocodes it through
    /// `server` as `provider`.
    struct World {
        let folder = Fixtures.temporaryDirectory()
        let config: AreasConfig
        let environment = ["TEST_GEOCODER_KEY": "secret-key"]

        init(rows: Int, server: LoopbackHTTPServer, provider: String = "kakao", extra: String = "", keyword: Bool = true, timeoutSeconds: Int = 5) throws {
            var csv = "번호,장소,주소\r\n"
            for i in 0..<rows { csv += "\(i + 1),흡연부스 \(i + 1),중앙로 \(i + 1)\r\n" }
            try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/rows.csv"))
            let url = provider == "kakao" ? server.baseURL : server.baseURL + "/req/address"
            let json = """
                {"snapshot": "areas.snapshot",
                 "geocoder": {"provider": "\(provider)", "url": "\(url)", "keyEnv": "TEST_GEOCODER_KEY", "timeoutSeconds": \(timeoutSeconds), "retries": 1\(extra)},
                 "sources": [{"name": "rows", "kind": "smoking", "format": "csv", "file": "rows.csv", "province": "서울특별시", "district": "중구",
                   "fields": {"name": "장소", "address": "주소"},
                   "geocode": {"query": "서울특별시 중구 {주소}"\(keyword ? ", \"keyword\": \"{장소}\"" : "")}}]}
                """
            try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/areasd.json"))
            config = try AreasConfig.load(path: folder + "/areasd.json")
        }

        func refresh(_ previous: Catalog = Catalog()) async -> (Catalog, SourceReport) {
            let (catalog, report) = await Refresher(config: config, environment: environment).refresh(previous)
            return (catalog, report.sources[0])
        }
    }

    /// The position the fake geocoder gives row `n` ("중앙로 n"): a point in Seoul.
    static func position(of query: String) -> (lat: Double, lon: Double)? {
        guard let n = query.split(separator: " ").last.flatMap({ Int($0) }) else { return nil }
        return (37.5 + Double(n) * 1e-4, 127.0 + Double(n) * 1e-4)
    }

    static func kakao(_ documents: [(Double, Double)]) -> LoopbackHTTPServer.Reply {
        let items = documents.map { #"{"address_name":"x","x":"\#($0.1)","y":"\#($0.0)"}"# }.joined(separator: ",")
        return .text(200, #"{"meta":{"total_count":\#(documents.count),"pageable_count":\#(documents.count),"is_end":true},"documents":[\#(items)]}"#, contentType: "application/json")
    }

    @Test func kakaoAddressSearchPlacesEveryRowWithTheKeyInTheHeader() async throws {
        let headers = LockedValueBox<[String]>([])
        let server = try LoopbackHTTPServer { request in
            headers.append(request.headers["authorization"] ?? "")
            guard request.path == "/v2/local/search/address.json", let p = Self.position(of: request.query["query"] ?? "") else { return .text(404, "no") }
            return Self.kakao([p])
        }
        defer { server.stop() }
        let world = try World(rows: 12, server: server)
        let (catalog, report) = await world.refresh()
        #expect(report.accepted == 12 && report.geocodedNew == 12, "\(report.summary)")
        #expect(headers.value.allSatisfy { $0 == "KakaoAK secret-key" })
        let area = try #require(catalog.areas(of: "rows").first { $0.name == "흡연부스 7" })
        #expect(area.geocoded)
        #expect(abs(area.coordinate.latitude - 37.5007) < 1e-9 && abs(area.coordinate.longitude - 127.0007) < 1e-9)
        #expect(area.roadAddress == "중앙로 7" && area.district == "중구")
    }

    @Test func placeSearchWhenTheAddressIsNotFound() async throws {
        let server = try LoopbackHTTPServer { request in
            if request.path.hasSuffix("address.json") { return Self.kakao([]) }
            return request.query["query"] == "흡연부스 2" ? Self.kakao([(37.51, 127.01)]) : Self.kakao([])
        }
        defer { server.stop() }
        let world = try World(rows: 3, server: server)
        let (_, report) = await world.refresh()
        #expect(report.accepted == 1)
        #expect(report.rejected == ["not found by the geocoder": 2])
        #expect(server.requestCount == 6)
    }

    @Test func vworldRoadThenParcel() async throws {
        // Recorded on the server's thread, checked on the test's: an expectation there would
        // belong to no test.
        let types = LockedValueBox<[String]>([])
        let queries = LockedValueBox<[[String: String]]>([])
        let server = try LoopbackHTTPServer { request in
            types.append(request.query["type"] ?? "")
            queries.append(request.query)
            if request.query["type"] == "road" { return .text(200, #"{"response":{"status":"NOT_FOUND"}}"#) }
            return .text(200, #"{"response":{"status":"OK","result":{"crs":"EPSG:4326","point":{"x":"127.02","y":"37.52"}}}}"#)
        }
        defer { server.stop() }
        let world = try World(rows: 1, server: server, provider: "vworld", keyword: false)
        let (catalog, report) = await world.refresh()
        #expect(report.geocodedNew == 1)
        #expect(types.value == ["road", "parcel"])
        #expect(queries.value.allSatisfy { $0["key"] == "secret-key" && $0["crs"] == "epsg:4326" }, "\(queries.value)")
        #expect(catalog.areas(of: "rows").first?.coordinate.latitude == 37.52)
    }

    enum Fault: String, CaseIterable, Sendable {
        case unauthorized, tooManyRequests, serverError, timeout, garbage, outOfCountry, notANumber
    }

    /// Every failure leaves the row unplaced with a counted reason, and none crashes; a source
    /// left with nothing at all to serve fails, saying why. A refused key stops asking at once;
    /// transient failures are retried once.
    @Test(arguments: Fault.allCases)
    func failures(fault: Fault) async throws {
        let server = try LoopbackHTTPServer { _ in
            switch fault {
            case .unauthorized: return .text(401, #"{"errorType":"AccessDeniedError","message":"wrong appkey"}"#)
            case .tooManyRequests: return .text(429, #"{"errorType":"RequestThrottled","message":"slow down"}"#)
            case .serverError: return .text(500, "oops")
            case .timeout: return .hang
            case .garbage: return .text(200, "<html>maintenance</html>", contentType: "text/html")
            case .outOfCountry: return Self.kakao([(34.39, 132.45)])
            case .notANumber: return .text(200, #"{"meta":{"total_count":1},"documents":[{"x":"NaN","y":"nan"}]}"#, contentType: "application/json")
            }
        }
        defer { server.stop() }
        // A geocoder that never answers is given a second a question.
        let world = try World(rows: 3, server: server, keyword: false, timeoutSeconds: fault == .timeout ? 1 : 5)
        let (_, report) = await world.refresh()
        #expect(report.status == .failed && report.error?.hasPrefix("every one of its 3 rows was rejected, so it has nothing to serve") == true, "\(report.summary)")
        #expect(report.accepted == 0)
        switch fault {
        case .unauthorized:
            #expect(report.rejected == ["geocoder unavailable": 3])
            #expect(server.requestCount == 1, "a refused key is not asked again")
        case .outOfCountry:
            #expect(report.rejected == ["not found by the geocoder": 3])
        default:
            #expect(report.rejected == ["geocoder unavailable": 3])
            #expect(server.requestCount == 6, "one try and one retry per row")
        }
    }

    /// An answer of thousands of documents: the first is the position, the rest cost nothing.
    @Test func thousandsOfDocumentsTakeTheFirst() async throws {
        let documents = [(37.5012, 127.0396)] + (0..<5_000).map { (33.0 + Double($0) * 1e-3, 126.0) }
        let server = try LoopbackHTTPServer { _ in Self.kakao(documents) }
        defer { server.stop() }
        let world = try World(rows: 3, server: server, keyword: false)
        let (catalog, report) = await world.refresh()
        #expect(report.accepted == 3 && report.geocodedNew == 3, "\(report.summary)")
        #expect(catalog.areas(of: "rows").allSatisfy { $0.coordinate.latitude == 37.5012 && $0.coordinate.longitude == 127.0396 })
    }

    @Test func anEmptyAnswerIsNotFoundAndRememberedForADay() async throws {
        let server = try LoopbackHTTPServer { _ in Self.kakao([]) }
        defer { server.stop() }
        let world = try World(rows: 4, server: server, keyword: false)
        let (_, first) = await world.refresh()
        #expect(first.rejected == ["not found by the geocoder": 4])
        #expect(server.requestCount == 4)
        let (_, second) = await world.refresh()
        #expect(second.rejected == ["not found by the geocoder": 4])
        #expect(server.requestCount == 4, "not asked again within a day")

        var memory = GeocodeMemory()
        let question = GeocodeQuestion(.address, "서울특별시 중구 중앙로 1")
        memory.remember(question, .notFound, now: 1_000_000)
        #expect(memory.recall(question, now: 1_000_000 + 86_399) == .notFound)
        #expect(memory.recall(question, now: 1_000_000 + 86_400) == nil)
    }

    /// Read back within the second it was written, a remembered answer still stands: times are
    /// kept in whole seconds rounded down (rounded up, one written at .6 s lay in the future for
    /// a refresh in the same second, which refused it and asked again).
    @Test func aMemoryReadBackInTheSameSecondStands() throws {
        var memory = GeocodeMemory()
        let missing = GeocodeQuestion(.address, "서울특별시 중구 중앙로 1")
        let found = GeocodeQuestion(.address, "서울특별시 중구 중앙로 2")
        let point = try GeoPoint(latitude: 37.5, longitude: 127.0)
        memory.remember(missing, .notFound, now: 1_000_000.6)
        memory.remember(found, .found(point), now: 1_000_000.6)
        var read = try GeocodeMemory(decoding: memory.encoded(), bounds: .korea)
        #expect(read.recall(missing, now: 1_000_000.7) == .notFound)
        #expect(read.recall(found, now: 1_000_000.7) == .found(point))
    }

    /// What was found is kept beside the snapshot: a new process (a new refresher) asks nothing
    /// for unchanged rows, and an outage keeps every known position while new rows wait.
    @Test func rememberedAcrossRestartsAndOutages() async throws {
        let down = Atomic<Bool>(false)
        let server = try LoopbackHTTPServer { request in
            if down.load(ordering: .relaxed) { return .text(503, "down") }
            return Self.position(of: request.query["query"] ?? "").map { Self.kakao([$0]) } ?? Self.kakao([])
        }
        defer { server.stop() }
        let world = try World(rows: 20, server: server)
        let (catalog, first) = await world.refresh()
        #expect(first.geocodedNew == 20)
        #expect(server.requestCount == 20)
        #expect(FileManager.default.fileExists(atPath: world.folder + "/areas.geocoded.json"))

        let (again, second) = await world.refresh(catalog)
        #expect(second.geocodedRemembered == 20 && second.geocodedNew == 0)
        #expect(server.requestCount == 20, "an unchanged source costs no requests")
        #expect(again.areas(of: "rows") == catalog.areas(of: "rows"))

        // Five new rows while the geocoder is down.
        var csv = try String(contentsOfFile: world.folder + "/rows.csv", encoding: .utf8)
        for i in 20..<25 { csv += "\(i + 1),흡연부스 \(i + 1),중앙로 \(i + 1)\r\n" }
        try Data(csv.utf8).write(to: URL(fileURLWithPath: world.folder + "/rows.csv"))
        down.store(true, ordering: .relaxed)
        let (_, outage) = await world.refresh(again)
        #expect(outage.status == .updated)
        #expect(outage.geocodedRemembered == 20)
        #expect(outage.rejected == ["geocoder unavailable": 5])
    }

    @Test func theBudgetAndTheRateAreKept() async throws {
        let server = try LoopbackHTTPServer { request in
            Self.position(of: request.query["query"] ?? "").map { Self.kakao([$0]) } ?? Self.kakao([])
        }
        defer { server.stop() }
        let world = try World(rows: 10, server: server, extra: #", "maxRequestsPerRefresh": 6, "requestsPerSecond": 20"#, keyword: false)
        let started = ContinuousClock.now
        let (_, report) = await world.refresh()
        let elapsed = ContinuousClock.now - started
        #expect(server.requestCount == 6)
        #expect(report.geocodedNew == 6 && report.rejected == ["geocoder unavailable": 4])
        // Six requests at 20 a second: the last may start no sooner than 5/20 s after the first.
        #expect(elapsed >= .milliseconds(250))
        let (_, next) = await world.refresh()
        #expect(next.geocodedNew == 4 && next.geocodedRemembered == 6, "the rest are placed by the next refresh")
    }

    @Test func theOperatorsPositionsWin() async throws {
        let server = try LoopbackHTTPServer { _ in Self.kakao([]) }
        defer { server.stop() }
        let world = try World(rows: 3, server: server, extra: "", keyword: false)
        try Data("source,name,query,latitude,longitude\nrows,흡연부스 1,,37.55,126.99\nrows,,서울특별시 중구 중앙로 2,37.56,126.98\n".utf8)
            .write(to: URL(fileURLWithPath: world.folder + "/positions.csv"))
        var config = world.config
        config.positions = world.folder + "/positions.csv"
        let (catalog, report) = await Refresher(config: config, environment: world.environment).refresh(Catalog())
        let source = report.sources[0]
        #expect(source.placedByOperator == 2)
        #expect(source.rejected == ["not found by the geocoder": 1])
        #expect(catalog.areas(of: "rows").map(\.coordinate.latitude).sorted() == [37.55, 37.56])
        #expect(server.requestCount == 1)
    }
}

/// A value tests append to from a server's threads.
final class LockedValueBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func append<Element>(_ element: Element) where Value == [Element] { lock.withLock { stored.append(element) } }
}
