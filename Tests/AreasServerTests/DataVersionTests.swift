import AreasProtocol
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc
import Testing
import AreasTestTraits

/// Every data set served has a version: the same after a refresh that changed nothing, after a
/// restart and on a follower; new when a refresh changes what is served. `health`, `stats` and
/// every HTTP answer (`Areas-Version`) name it.
@Suite(.tags(.endToEnd), .offThePool, .timeLimit(.minutes(5)))
struct DataVersionTests {
    static func version(_ socket: String) -> String? { DaemonQuestions.ask(socket, #"{"op":"health"}"#)?["version"]?.string }

    @Test func theVersionIsTheDatasAcrossRefreshesRestartsAndFollowers() throws {
        let (leader, address) = try SampleDaemon.withHTTP()
        defer { leader.stop() }
        let first = try #require(Self.version(leader.socket))
        #expect(DaemonQuestions.ask(leader.socket, #"{"op":"stats"}"#)?["version"]?.string == first)
        for target in ["/v1/health", "/v1/near?lat=37.5299&lon=126.9648&k=1", "/ogc/collections/smoking/items?limit=1"] {
            #expect(try HTTPTestClient(address).get(target).field("areas-version") == first, "\(target)")
        }

        // Fetched again with the same areas: the same data, the same version.
        _ = DaemonQuestions.ask(leader.socket, #"{"op":"refresh","wait":true}"#)
        let unchanged = DaemonQuestions.ask(leader.socket, #"{"op":"refresh","wait":true}"#)?["report"]
        #expect(unchanged?["sources"]?.array.allSatisfy { $0["status"]?.string == "unchanged" } == true, "\(unchanged ?? .null)")
        #expect(Self.version(leader.socket) == first)

        // A follower names the leader's version.
        let follower = try FollowerTests.Follower(follow: #""url": "http://\#(address)/v1/snapshot""#)
        #expect(DaemonQuestions.waitUntil(seconds: 20) { Self.version(follower.socket) == first }, "the follower says \(Self.version(follower.socket) ?? "nothing")")

        // The data changes (a source dropped on SIGHUP): a new version, followed.
        let config = try String(contentsOfFile: leader.config, encoding: .utf8)
        let withoutDongjak = config.replacingOccurrences(of: #"(?s),\s*\{\s*"name": "dongjak".*?\n    \}"#, with: "", options: .regularExpression)
        try #require(withoutDongjak != config, "the sample config no longer has the dongjak source")
        try withoutDongjak.write(toFile: leader.config, atomically: true, encoding: .utf8)
        kill(leader.pid, SIGHUP)
        #expect(DaemonQuestions.waitUntil(seconds: 20) { Self.version(leader.socket).map { $0 != first } ?? false })
        let second = try #require(Self.version(leader.socket))
        #expect(DaemonQuestions.waitUntil(seconds: 20) { Self.version(follower.socket) == second }, "the follower lags")

        // What changed: dongjak's areas vanished, nothing else; the same over HTTP and from the follower.
        let changes = try #require(DaemonQuestions.ask(leader.socket, #"{"op":"changes","since":"\#(first)"}"#))
        #expect(changes["version"]?.string == second && changes["appeared"]?.array.isEmpty == true && changes["changed"]?.array.isEmpty == true)
        #expect(changes["vanished"]?.array.count == SampleCounts.districtFiles["dongjak"]?.accepted, "\(changes["vanished"]?.array.count ?? -1)")
        let overHTTP = try HTTPTestClient(address).get("/v1/changes?since=\(first)")
        #expect(overHTTP.status == 200 && (try? JSONParser.parse(overHTTP.body)) == changes)
        #expect(DaemonQuestions.ask(follower.socket, #"{"op":"changes","since":"\#(first)"}"#) == changes)
        #expect(try HTTPTestClient(address).get("/v1/changes?since=unknown").status == 410)
        let table = try Binaries.run("areasctl", ["--socket", leader.socket, "changes", "--since", first])
        #expect(table.status == 0 && table.stdout.hasPrefix("since \(first) to \(second): 0 appeared, 0 changed, \(changes["vanished"]?.array.count ?? 0) vanished"), "\(table.stdout)")
        #expect(table.stdout.contains("CHANGE") && table.stdout.contains("vanished"), "\(table.stdout)")

        // A restart on the same snapshot serves the same data, so names the same version.
        leader.stop()
        let socket = leader.folder + "/again.sock"
        let (again, log) = try Binaries.startDaemon(["--config", leader.config, "--socket", socket])
        defer {
            kill(again.processIdentifier, SIGTERM)
            _ = again.waitUntilExit(seconds: 20)
        }
        #expect(DaemonQuestions.waitUntilLoaded(socket), "\(log.text)")
        #expect(Self.version(socket) == second)
    }
}
