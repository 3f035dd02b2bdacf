import AreasSystem
import AreasTestSupport
import Foundation
import Glibc
import Testing
import AreasTestTraits

/// A refresh that finds nothing new says `unchanged`, leaves the snapshot file as it was, and
/// keeps the new fetch times beside it, so a restart still sees fresh data; a changed source
/// rewrites the snapshot and the times go with it.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct UnchangedRefreshTests {
    /// The daemons this test starts, killed when it ends however it ends.
    private let daemons = StartedDaemons()

    static func fetchedAt(_ socket: String, _ source: String) -> Double? {
        DaemonQuestions.ask(socket, #"{"op":"stats"}"#)?["bySource"]?[source]?["fetchedAt"]?.double
    }

    @Test func anUnchangedRefreshKeepsTheSnapshotAndItsTimesSurviveARestart() throws {
        let daemon = try SampleDaemon()
        // The dongjak file is read from a copy the test can change.
        let copy = daemon.folder + "/dongjak-smoking.json"
        try FileManager.default.copyItem(atPath: Fixtures.path("samples/district-files/dongjak-smoking.json"), toPath: copy)
        var config = try String(contentsOfFile: daemon.config, encoding: .utf8)
        config = config.replacingOccurrences(of: Fixtures.path("samples/district-files/dongjak-smoking.json"), with: copy)
        try config.write(toFile: daemon.config, atomically: true, encoding: .utf8)
        kill(daemon.pid, SIGHUP)  // the same data from the copy: a refresh that changes nothing
        // The reload's own refresh first: seen started (the source read from the copy), then done.
        #expect(DaemonQuestions.waitUntil(seconds: 30) {
            DaemonQuestions.ask(daemon.socket, #"{"op":"stats"}"#)?["bySource"]?["dongjak"]?["lastAttemptAt"]?.double != nil
                && DaemonQuestions.ask(daemon.socket, #"{"op":"health"}"#)?["refreshing"]?.bool == false
        }, "the reload's refresh did not finish in 30 s")
        let snapshot = daemon.folder + "/areas.snapshot"
        var written = try #require(try FileSystem.status(of: snapshot))
        let firstFetch = try #require(Self.fetchedAt(daemon.socket, "dongjak"))
        sleep(2)  // fetch times are given to the second

        let refresh = try Binaries.run("areasctl", ["--socket", daemon.socket, "refresh"])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        #expect(refresh.stdout.contains("dongjak: unchanged, 24 areas"), "\(refresh.stdout)")
        #expect(!refresh.stdout.contains("+0 -0 ~0"))
        let unchanged = try #require(try FileSystem.status(of: snapshot))
        #expect(unchanged.inode == written.inode && unchanged.modified == written.modified, "the snapshot was not rewritten")
        #expect(FileManager.default.fileExists(atPath: snapshot + ".fetched"))
        let confirmed = try #require(Self.fetchedAt(daemon.socket, "dongjak"))
        #expect(confirmed > firstFetch)

        // A restart on the same snapshot sees the confirmed time, not the snapshot's own.
        daemon.stop()
        let (again, _) = try daemons.start(["--config", daemon.config, "--socket", daemon.socket])
        defer { kill(again.processIdentifier, SIGTERM); _ = again.waitUntilExit(seconds: 20) }
        try #require(DaemonQuestions.waitUntilLoaded(daemon.socket))
        #expect(Self.fetchedAt(daemon.socket, "dongjak").map { abs($0 - confirmed) < 1 } == true)

        // A changed source: the snapshot is written anew and the times beside it go.
        var rows = try String(contentsOfFile: copy, encoding: .utf8)
        rows = rows.replacingOccurrences(of: "37.5", with: "37.4", options: [], range: rows.range(of: "37.5"))
        try rows.write(toFile: copy, atomically: true, encoding: .utf8)
        let changed = try Binaries.run("areasctl", ["--socket", daemon.socket, "refresh"])
        #expect(changed.stdout.contains("dongjak: updated"), "\(changed.stdout)")
        written = try #require(try FileSystem.status(of: snapshot))
        #expect(written.inode != unchanged.inode, "the snapshot was rewritten")
        #expect(!FileManager.default.fileExists(atPath: snapshot + ".fetched"))
    }
}
