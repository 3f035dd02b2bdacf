import AreasControl
import AreasProtocol
import AreasTestSupport
import Foundation
import Glibc
import Testing
@testable import AreasSystem
import AreasTestTraits

/// SIGHUP applies every key it can to a running daemon and names the ones that need a restart.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct ReloadTests {
    /// The daemons this test starts, killed when it ends however it ends.
    private let daemons = StartedDaemons()

    @Test func sighupAppliesLimitsLogLevelAndIntervalAndNamesRestartKeys() throws {
        let folder = Fixtures.temporaryDirectory()
        let socket = folder + "/areasd.sock"
        let config = try Fixtures.sampleConfig(in: folder, extra: #"  "maxConnections": 50, "logLevel": "error""#)
        let (daemon, stderr) = try daemons.start(["--config", config, "--socket", socket])
        defer { kill(daemon.processIdentifier, SIGTERM); _ = daemon.waitUntilExit(seconds: 20) }
        try #require(DaemonQuestions.waitUntilLoaded(socket))
        let firstAttempt = try #require(DaemonQuestions.ask(socket, #"{"op":"stats"}"#)?["bySource"]?["yongsan"]?["lastAttemptAt"]?.double)

        // Two connections at most, info lines, a refresh every second, and a socket elsewhere.
        var text = try String(contentsOfFile: config, encoding: .utf8)
        text = text.replacingOccurrences(of: #""maxConnections": 50, "logLevel": "error""#,
                                         with: #""maxConnections": 2, "logLevel": "info", "socket": "\#(folder)/elsewhere.sock""#)
        text = text.replacingOccurrences(of: #""refreshIntervalSeconds": 86400"#, with: #""refreshIntervalSeconds": 1"#)
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        kill(daemon.processIdentifier, SIGHUP)

        // The interval: the data is refreshed again within a few seconds.
        var refreshed = false
        for _ in 0..<100 where !refreshed {
            usleep(100_000)
            let attempt = DaemonQuestions.ask(socket, #"{"op":"stats"}"#)?["bySource"]?["yongsan"]?["lastAttemptAt"]?.double ?? 0
            refreshed = attempt > firstAttempt
        }
        #expect(refreshed, "refreshIntervalSeconds 1 took effect")

        // maxConnections: two clients hold both slots (each answered, so each has its own),
        // a third is told busy. The questions above have let go of theirs by now.
        usleep(500_000)
        let held = try (0..<2).map { _ in try AreasClient(path: socket) }
        for client in held {
            #expect(try JSONParser.parse(client.send(Array(#"{"op":"health"}"#.utf8)))["ok"]?.bool == true)
        }
        let third = try Sockets.connectUnix(path: socket, timeoutSeconds: 5)
        var buffer = [UInt8](repeating: 0, count: 512)
        try third.setTimeout(.receive, seconds: 5)
        let n = try buffer.withUnsafeMutableBytes { try third.read(into: $0) }
        #expect(String(decoding: buffer.prefix(n), as: UTF8.self).contains(#""code":"busy""#))
        third.close()
        _ = held

        kill(daemon.processIdentifier, SIGTERM)
        _ = daemon.waitUntilExit(seconds: 20)
        let log = String(decoding: stderr.readToEnd(), as: UTF8.self)
        // logLevel: the reload's own info line is written, which "error" would have hidden.
        #expect(log.contains("SIGHUP: reloaded"), "\(log)")
        #expect(log.contains("socket changed but takes effect only after a restart"), "one key takes effect: \(log)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/elsewhere.sock"))
    }
}

/// SIGHUP refreshes only when what the data is made from changed: a new log level spends no
/// upstream request, an edited source or a district file downloaded again does.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct ReloadRefreshTests {
    /// The daemons this test starts, killed when it ends however it ends.
    private let daemons = StartedDaemons()

    @Test func aReloadRefreshesOnlyWhenTheDataWouldChange() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let socket = folder + "/areasd.sock"
        let config = try Fixtures.sampleConfig(in: folder, extra: #"  "logLevel": "info""#)
        let (daemon, log) = try daemons.start(["--config", config, "--socket", socket])
        defer { kill(daemon.processIdentifier, SIGTERM); _ = daemon.waitUntilExit(seconds: 20) }
        try #require(DaemonQuestions.waitUntilLoaded(socket))
        func lastAttempt() -> Double? { DaemonQuestions.ask(socket, #"{"op":"stats"}"#)?["bySource"]?["yongsan"]?["lastAttemptAt"]?.double }
        func reload(_ change: (String) -> String) throws {
            try change(try String(contentsOfFile: config, encoding: .utf8)).write(toFile: config, atomically: true, encoding: .utf8)
            kill(daemon.processIdentifier, SIGHUP)
        }
        let first = try #require(lastAttempt())
        // Fetch times are whole seconds: a refresh now would show.
        usleep(1_100_000)

        try reload { $0.replacingOccurrences(of: #""logLevel": "info""#, with: #""logLevel": "debug""#) }
        #expect(DaemonQuestions.waitUntil(seconds: 20) { log.text.contains("nothing the data is made from changed, so no refresh") }, "\(log.text)")
        usleep(1_100_000)
        #expect(lastAttempt() == first, "a log level change fetched the sources again")

        try reload { $0.replacingOccurrences(of: #""district": "동작구""#, with: #""district": "동작""#) }
        #expect(DaemonQuestions.waitUntil(seconds: 30) { (lastAttempt() ?? 0) > first }, "an edited source was not fetched again")
        #expect(log.text.contains("refreshing (the data's inputs changed)"), "\(log.text)")
        let second = try #require(lastAttempt())
        usleep(1_100_000)

        // A district file downloaded again (here: touched) is read again on reload.
        let file = folder + "/gangbuk.csv"
        try FileManager.default.copyItem(atPath: Fixtures.path("samples/district-files/gangbuk-smoking-noheader.csv"), toPath: file)
        try reload { $0.replacingOccurrences(of: Fixtures.path("samples/district-files/gangbuk-smoking-noheader.csv"), with: file) }
        #expect(DaemonQuestions.waitUntil(seconds: 30) { (lastAttempt() ?? 0) > second })
        let third = try #require(lastAttempt())
        usleep(1_100_000)
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file)
        kill(daemon.processIdentifier, SIGHUP)
        #expect(DaemonQuestions.waitUntil(seconds: 30) { (lastAttempt() ?? 0) > third }, "an edited file was not read again")
        #expect(log.text.contains("edited since the last refresh: \(file)"), "\(log.text)")
    }
}
