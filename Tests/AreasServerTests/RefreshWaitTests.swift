import AreasTestSupport
import Foundation
import Glibc
import Synchronization
import Testing
import AreasTestTraits

/// Clients waiting for a refresh (`areasctl refresh`, as cron runs it) give up their turn to
/// work while they wait: however many wait, other clients' queries are answered meanwhile.
@Suite(.tags(.endToEnd), .tags(.concurrent), .offThePool, .timeLimit(.minutes(5)))
struct RefreshWaitTests {
    /// The daemons this test starts, killed when it ends however it ends.
    private let daemons = StartedDaemons()

    final class Counts: Sendable {
        let requests = Atomic<Int>(0)
        let refreshesDone = Atomic<Int>(0)
    }

    @Test func queriesAreAnsweredWhileManyClientsWaitForARefresh() throws {
        let page = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("samples/yongsan-smoking/page-1.json"))))
        let counts = Counts()
        // The first fetch answers at once; every later one hangs until the fetch times out.
        let upstream = try LoopbackHTTPServer { _ in
            counts.requests.add(1, ordering: .relaxed).newValue == 1 ? .body(status: 200, contentType: "application/json", page) : .hang
        }
        defer { upstream.stop() }
        let folder = Fixtures.temporaryDirectory()
        let socket = folder + "/areasd.sock"
        let config = folder + "/areasd.json"
        try #"""
            {"snapshot": "areas.snapshot", "sources": [{"name": "yongsan", "kind": "smoking", "format": "odcloud-json",
              "url": "\#(upstream.baseURL)/x", "timeoutSeconds": 6, "retries": 0, "province": "서울특별시",
              "fields": {"name": "서울특별시 용산구 설치 위치", "latitude": "위도", "longitude": "경도"}}]}
            """#.write(toFile: config, atomically: true, encoding: .utf8)
        let (daemon, _) = try daemons.start(["--config", config, "--socket", socket])
        defer { kill(daemon.processIdentifier, SIGTERM); _ = daemon.waitUntilExit(seconds: 20) }
        try #require(DaemonQuestions.waitUntilLoaded(socket))

        // More clients wait for the refresh than there are turns to work (two per processor).
        let waiting = 2 * max(2, ProcessInfo.processInfo.activeProcessorCount) + 2
        for _ in 0..<waiting {
            Thread {
                _ = try? Binaries.run("areasctl", ["--socket", socket, "--timeout", "60", "refresh"])
                counts.refreshesDone.add(1, ordering: .relaxed)
            }.start()
        }
        // Every one is connected and waiting (the metrics' own asker is one more connection).
        #expect(DaemonQuestions.waitUntil(seconds: 30) { (DaemonQuestions.metric(socket, "areas_connections_open") ?? 0) >= Double(waiting + 1) },
                "the \(waiting) clients never all connected")
        let answer = DaemonQuestions.ask(socket, #"{"op":"near","lat":37.55,"lon":126.97,"k":3}"#)
        // Answered, and before the refresh the others wait for could end.
        #expect(answer?["count"]?.double == 3)
        #expect(counts.refreshesDone.load(ordering: .relaxed) == 0, "the query was answered only after the refresh")
        #expect(DaemonQuestions.ask(socket, #"{"op":"health"}"#)?["refreshing"]?.bool == true)
        #expect(DaemonQuestions.waitUntil(seconds: 30) { counts.refreshesDone.load(ordering: .relaxed) == waiting },
                "\(counts.refreshesDone.load(ordering: .relaxed)) of \(waiting) waiting clients were answered")
    }
}
