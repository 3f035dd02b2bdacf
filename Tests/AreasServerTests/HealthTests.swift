import AreasTestSupport
import Foundation
import Testing
@testable import AreasIngest
@testable import AreasServer
@testable import AreasSystem
import AreasTestTraits

/// `areasctl health` through the real client against a real socket: exit 0 only when the data
/// is loaded, fresh, and every source's last refresh was taken; the same status with `--json`.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct HealthTests {
    @Test func aFailedSourceIsUnhealthyWhateverTheFormat() async throws {
        let (closed, port) = try Sockets.listenLoopbackTCP()
        closed.close()  // nothing listens there: the source fails
        var config = try AreasConfig.load(path: Fixtures.samplesConfig)
        config.sources.append(Fixtures.source(name: "down", url: "http://127.0.0.1:\(port)/api", retries: 0))
        let server = try await TestServer(config: config)
        let text = try Binaries.run("areasctl", ["--socket", server.socketPath, "health"])
        #expect(text.status == 1)
        #expect(text.stderr == "unhealthy: the last refresh did not take every source: down (failed)\n", "\(text.stderr)")
        let json = try Binaries.run("areasctl", ["--socket", server.socketPath, "health", "--json"])
        #expect(json.status == 1)
        #expect(json.stdout.contains(#""healthy":false"#))
    }

    @Test func aCleanRefreshIsHealthy() async throws {
        let server = try await TestServer.samples()
        for arguments in [["health"], ["health", "--json"]] {
            let result = try Binaries.run("areasctl", ["--socket", server.socketPath] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let text = try Binaries.run("areasctl", ["--socket", server.socketPath, "health"])
        #expect(text.stdout.hasPrefix("ok: \(SampleCounts.total) areas loaded"))
    }

    @Test func noDataIsUnhealthy() async throws {
        let server = try await TestServer(config: try AreasConfig.load(path: Fixtures.samplesConfig), refresh: false)
        let result = try Binaries.run("areasctl", ["--socket", server.socketPath, "health", "--json"])
        #expect(result.status == 1)
        #expect(result.stdout.contains(#""problem":"no data loaded yet: waiting for the first refresh""#), "\(result.stdout)")
    }
}

/// `stats` lists every configured source, a failing one included, with its last attempt, last
/// success and last error.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct SourceStatsTests {
    @Test func aFailingSourceIsListedWithItsError() async throws {
        let (closed, port) = try Sockets.listenLoopbackTCP()
        closed.close()
        var config = try AreasConfig.load(path: Fixtures.samplesConfig)
        config.sources.append(Fixtures.source(name: "down", url: "http://127.0.0.1:\(port)/api", retries: 0))
        let server = try await TestServer(config: config)
        let stats = try server.ask(#"{"op":"stats"}"#)
        let down = try #require(stats["bySource"]?["down"])
        #expect(down["areas"]?.double == 0)
        #expect(down["lastStatus"]?.string == "failed")
        #expect(down["lastError"]?.string?.contains("request failed") == true, "\(down)")
        #expect(down["lastAttemptAt"]?.double != nil)
        #expect(down["lastSuccessAt"] == .null)
        let yongsan = try #require(stats["bySource"]?["yongsan"])
        #expect(yongsan["lastStatus"]?.string == "updated")
        #expect(yongsan["lastError"] == .null)
        #expect(yongsan["lastSuccessAt"]?.double != nil && yongsan["ageSeconds"]?.double != nil)
        #expect(stats["build"]?.string?.isEmpty == false)
    }
}

/// A restart from the snapshot remembers how the last refresh went (`areas.history.json`):
/// `health` and `stats` say what they said before it, a failed source included, instead of
/// "healthy" with nothing known.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct RestartHistoryTests {
    /// The daemons this test starts, killed when it ends however it ends.
    private let daemons = StartedDaemons()

    func start(_ config: String, _ socket: String) throws -> (Process, DaemonLog) {
        let started = try daemons.start(["--config", config, "--socket", socket])
        #expect(DaemonQuestions.waitUntilLoaded(socket, seconds: 30))
        return started
    }

    func stop(_ daemon: (Process, DaemonLog)) {
        kill(daemon.0.processIdentifier, SIGTERM)
        _ = daemon.0.waitUntilExit(seconds: 20)
        _ = daemon.1.readToEnd()
    }

    @Test(arguments: [false, true])
    func healthAfterARestartIsHealthAsItWas(withAFailedSource: Bool) throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = try Fixtures.sampleConfig(in: folder)
        if withAFailedSource {
            let text = try String(contentsOfFile: config, encoding: .utf8).replacingOccurrences(of: "dongjak-smoking.json", with: "gone.json")
            try text.write(toFile: config, atomically: true, encoding: .utf8)
        }
        let socket = folder + "/areasd.sock"
        let first = try start(config, socket)
        let healthBefore = try #require(DaemonQuestions.ask(socket, #"{"op":"health"}"#))
        let statsBefore = try #require(DaemonQuestions.ask(socket, #"{"op":"stats"}"#))
        stop(first)
        #expect(FileManager.default.fileExists(atPath: folder + "/areas.history.json"))

        let second = try start(config, socket)
        defer { stop(second) }
        let health = try #require(DaemonQuestions.ask(socket, #"{"op":"health"}"#))
        #expect(health["lastRefreshSucceeded"]?.bool == !withAFailedSource, "\(health)")
        #expect(health["healthy"]?.bool == !withAFailedSource, "\(health)")
        if withAFailedSource {
            #expect(healthBefore["healthy"]?.bool == false)
            #expect(health["problem"]?.string == "the last refresh before the restart did not take every source: dongjak (failed)", "\(health)")
        }
        let stats = try #require(DaemonQuestions.ask(socket, #"{"op":"stats"}"#))
        for name in ["yongsan", "dongjak"] {
            let before = statsBefore["bySource"]?[name], after = stats["bySource"]?[name]
            #expect(after?["lastStatus"]?.string == before?["lastStatus"]?.string && after?["lastStatus"] != nil, "\(name): \(String(describing: after))")
            #expect(after?["lastAttemptAt"]?.double == before?["lastAttemptAt"]?.double, "\(name)")
            #expect(after?["lastError"]?.string == before?["lastError"]?.string)
        }
    }
}
