import AreasTestSupport
import Foundation
import Glibc
import Testing
@testable import AreasServer
@testable import AreasSystem
import AreasTestTraits

/// areasctl never hangs: a daemon that does not answer is a time-out (exit 3), a full one says
/// busy.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct ClientTimeoutTests {
    /// A socket that accepts connections into its backlog and never answers: a stopped daemon.
    @Test func aDaemonThatNeverAnswersIsATimeOut() throws {
        let folder = Fixtures.temporaryDirectory()
        let path = folder + "/silent.sock"
        let listener = try Sockets.listenUnix(path: path)
        defer { listener.close() }
        let started = ContinuousClock.now
        let result = try Binaries.run("areasctl", ["--socket", path, "--timeout", "1", "health"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("areasd at \(path) did not answer within 1 s"), "\(result.stderr)")
        #expect(ContinuousClock.now - started < .seconds(20), "it gave up instead of hanging until the harness killed it")
    }

    @Test(arguments: ["0", "-1", "nan", "soon"])
    func aBadTimeOutIsAUsageError(value: String) throws {
        let result = try Binaries.run("areasctl", ["--timeout", value, "health"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--timeout"))
    }

    @Test func aFullDaemonSaysBusy() async throws {
        var limits = ConnectionServer.Limits()
        limits.maxConnections = 1
        let server = try await TestServer.samples(limits: limits)
        let holder = try server.client()
        _ = try server.ask(#"{"op":"health"}"#, on: holder)
        let result = try Binaries.run("areasctl", ["--socket", server.socketPath, "health"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("busy"), "\(result.stderr)")
        #expect(!result.stderr.contains("is areasd running"))
        _ = holder
    }
}
