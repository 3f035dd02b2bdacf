import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits
@testable import AreasCore
@testable import AreasIngest
@testable import AreasProtocol
@testable import AreasServer
@testable import AreasSystem

/// Search's last resort, the geocoder, as anonymous clients could abuse it: a slow geocoder
/// holds no work turn, every request keeps the daemon's pace, and searches spend only their
/// share of the day. The geocoder is a loopback stand-in speaking Kakao's API.
@Suite(.offThePool, .timeLimit(.minutes(3)))
struct SearchGeocoderTests {
    /// A config serving Yongsan's recorded booths, asking the geocoder at `url`.
    static func config(url: String, geocoder extra: String = "", sources more: String = "") throws -> AreasConfig {
        let text = """
            {"snapshot": "\(Fixtures.temporaryDirectory())/areas.snapshot",
             "geocoder": {"provider": "kakao", "url": "\(url)", "timeoutSeconds": 60, "retries": 0\(extra)},
             "sources": [{"name": "yongsan", "kind": "smoking", "format": "odcloud-json", "pages": "\(Fixtures.root)/samples/yongsan-smoking", "province": "서울특별시",
                          "fields": {"name": "서울특별시 용산구 설치 위치", "latitude": "위도", "longitude": "경도", "district": "자치구명"}}\(more)]}
            """
        return try AreasConfig.parse(Data(text.utf8), path: Fixtures.temporaryDirectory() + "/areasd.json")
    }

    /// Eight clients search texts no area holds while the geocoder hangs: `health` over the
    /// socket is answered before any of them (their waits are off the work turns), where
    /// before the eight held all four turns for the search's wait.
    @Test(.tags(.concurrent)) func aSlowGeocoderHoldsNoWorkTurn() async throws {
        let server = try LoopbackHTTPServer { _ in .hang }
        defer { server.stop() }
        let test = try await TestServer(config: try Self.config(url: server.baseURL))
        defer { test.stop() }
        let order = LockedValue<[String]>([])
        let started = DispatchGroup()
        let finished = DispatchGroup()
        for i in 0..<8 {
            started.enter()
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                guard let client = try? test.client() else { started.leave(); return }
                started.leave()
                let answer = try? test.ask(#"{"op":"search","q":"nowhere\#(i)xq"}"#, on: client)
                order.withLock { $0.append(answer?["note"]?.string?.contains("has not answered") == true ? "search" : "search failed") }
            }
        }
        started.wait()
        // Let the eight reach the geocoder's wait.
        #expect(DaemonQuestions.waitUntil(seconds: 10) { test.service.searchGeocoder.waitingCount == 8 }, "the eight searches never all waited")
        let health = try test.ask(#"{"op":"health"}"#)
        order.withLock { $0.append("health") }
        #expect(health["ok"]?.bool == true)
        #expect(finished.wait(timeout: .now() + 30) == .success)
        let seen = order.withLock { $0 }
        #expect(seen.first == "health" && seen.filter { $0 == "search" }.count == 8, "answered in the order \(seen)")
    }

    /// Searches for unknown text keep the daemon's pace (2 requests a second here: eight
    /// questions at once spread over at least three and a half seconds), and spend only their
    /// share of the day: with a day's limit of 30, sixty searches ask 3 times, and the refresh
    /// after them still geocodes its new row.
    @Test(.tags(.concurrent)) func searchesKeepThePaceAndTheirShareOfTheDay() async throws {
        let asked = LockedValue<[(query: String, at: Double)]>([])
        let server = try LoopbackHTTPServer { request in
            asked.withLock { $0.append((request.query["query"] ?? "", Date().timeIntervalSince1970)) }
            return .text(200, #"{"meta":{"total_count":1},"documents":[{"x":"126.97","y":"37.55"}]}"#)
        }
        defer { server.stop() }
        // The pace: eight texts at once (as many as may wait for it), each asked once as an
        // address (found at once).
        let paced = try await TestServer(config: try Self.config(url: server.baseURL, geocoder: #", "requestsPerSecond": 2"#))
        defer { paced.stop() }
        let finished = DispatchGroup()
        for i in 0..<SearchGeocoder.maximumPending {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                _ = try? paced.ask(#"{"op":"search","q":"가상의 곳 \#(i)"}"#)
            }
        }
        #expect(finished.wait(timeout: .now() + 60) == .success)
        let count = SearchGeocoder.maximumPending
        #expect(DaemonQuestions.waitUntil(seconds: 20) { asked.withLock { $0.count } == count }, "\(asked.withLock { $0.map(\.query) })")
        // Timed from the second arrival: the first waits for the connection to be made, which
        // moves its arrival, not its place in the pace.
        let times = asked.withLock { $0.map(\.at) }.sorted()
        let span = (times.last ?? 0) - (times.dropFirst().first ?? 0)
        #expect(times.count == count && span >= Double(count - 2) * 0.5 * 0.95, "\(count - 1) requests at 2 a second came within \(span) s")

        // The share: a day of 30, of which searches may make 3; then a refresh's row to place.
        asked.withLock { $0 = [] }
        let folder = Fixtures.temporaryDirectory()
        try Data("이름,주소\n새 흡연부스,서울특별시 용산구 한강대로 405\n".utf8).write(to: URL(fileURLWithPath: folder + "/rows.csv"))
        let rows = #", {"name": "rows", "kind": "smoking", "format": "csv", "file": "\#(folder)/rows.csv", "fields": {"name": "이름", "address": "주소"}, "geocode": {"query": "{주소}"}}"#
        let limited = try await TestServer(config: try Self.config(url: server.baseURL, geocoder: #", "dailyRequestLimit": 30, "requestsPerSecond": 1000"#, sources: rows))
        defer { limited.stop() }
        #expect(asked.withLock { $0.count } == 1, "the first refresh places its row")
        for i in 0..<60 { _ = try? limited.ask(#"{"op":"search","q":"없는 곳 \#(i)"}"#) }
        #expect(DaemonQuestions.waitUntil(seconds: 10) { limited.service.searchGeocoder.requests.withLock { $0 } >= 3 })
        let bySearches = asked.withLock { $0.count } - 1
        #expect(bySearches == 3, "searches made \(bySearches) of the day's 30 requests; their share is 3")
        // A new row at the next refresh is still placed.
        try Data("이름,주소\n새 흡연부스,서울특별시 용산구 한강대로 405\n또 새 흡연부스,서울특별시 용산구 한강대로 23\n".utf8).write(to: URL(fileURLWithPath: folder + "/rows.csv"))
        let report = await limited.service.startRefresh(force: true).report()
        let source = try #require(report?.sources.first { $0.name == "rows" })
        #expect(source.geocodedNew == 1 && source.geocodedRemembered == 1 && source.status == .updated, "\(source.summary)")
    }
}
