import AreasTestSupport
import Foundation
import Glibc
import Testing
import AreasTestTraits

/// A source whose upstream drips its answer for ever (within its own generous time-out) does
/// not hold a refresh past `refreshTimeoutSeconds`: it fails alone, the other source is taken
/// and served, and the next refresh starts on time.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct RefreshDeadlineTests {
    /// The daemons this test starts, killed when it ends however it ends.
    private let daemons = StartedDaemons()

    @Test func aStalledSourceFailsAloneAtTheDeadline() throws {
        let server = try LoopbackHTTPServer { _ in .drip(status: 200, contentType: "text/csv", declaredLength: 100_000, interval: 0.5) }
        defer { server.stop() }
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fields = #""fields": {"name": "설치위치", "latitude": "위도", "longitude": "경도"}"#
        let config = """
            {"snapshot": "\(folder)/areas.snapshot", "refreshTimeoutSeconds": 3, "sources": [
             {"name": "district", "kind": "smoking", "format": "csv", "file": "\(Fixtures.path("samples/overlap/yongsan-district.csv"))", "province": "서울특별시", \(fields)},
             {"name": "stalled", "kind": "smoking", "format": "csv", "url": "\(server.baseURL)/rows.csv", "timeoutSeconds": 120, "retries": 0, \(fields)}]}
            """
        try config.write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
        let socket = folder + "/areasd.sock"
        let (process, log) = try daemons.start(["--config", folder + "/areasd.json", "--socket", socket])
        defer {
            kill(process.processIdentifier, SIGTERM)
            _ = process.waitUntilExit(seconds: 20)
            _ = log.readToEnd()
        }
        // Served within the wait's 30 s (the deadline is 3 s), not after the stalled source's 120 s.
        #expect(DaemonQuestions.waitUntilLoaded(socket, seconds: 30))
        let stats = try #require(DaemonQuestions.ask(socket, #"{"op":"stats"}"#))
        #expect(stats["bySource"]?["district"]?["areas"]?.double == 62)
        #expect(stats["bySource"]?["stalled"]?["lastError"]?.string?.contains("did not finish within 3 s (refreshTimeoutSeconds)") == true, "\(stats["bySource"] ?? .null)")
        let health = try #require(DaemonQuestions.ask(socket, #"{"op":"health"}"#))
        #expect(health["healthy"]?.bool == false && health["refreshing"]?.bool == false, "\(health)")
        // The next refresh is not held by the transfer still dripping from the first: it is
        // answered within the question's own deadline (60 s, half the stalled source's time-out).
        let refresh = try #require(DaemonQuestions.ask(socket, #"{"op":"refresh","wait":true}"#))
        #expect(refresh["report"]?["succeeded"]?.bool == false)
    }
}
