import AreasCore
import AreasControl
import AreasIngest
import AreasProtocol
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc
import Synchronization
import Testing
import AreasTestTraits

/// One leader and two followers as real processes: one follows the leader's `GET /v1/snapshot`,
/// the other a snapshot file on a "share" the test manages. The oracle is the leader's own
/// answer to the same question.
@Suite(.serialized, .tags(.endToEnd), .offThePool, .timeLimit(.minutes(5))) struct FollowerTests {
    /// Every area's id, in id order: the whole data set as one answer.
    static let everything = #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"output":"ids","limit":10000}"#

    static func answer(_ socket: String, _ request: String = everything) -> String? {
        guard let client = try? AreasClient(path: socket, timeoutSeconds: 10), let line = try? client.send(Array(request.utf8)) else { return nil }
        return String(decoding: line, as: UTF8.self)
    }

    final class Follower {
        let folder = Fixtures.temporaryDirectory()
        let socket: String
        let process: Process
        let stderr: DaemonLog

        init(follow: String) throws {
            socket = folder + "/areasd.sock"
            let config = #"{"snapshot": "\#(folder)/areas.snapshot", "follow": {\#(follow), "intervalSeconds": 1}}"#
            try config.write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
            (process, stderr) = try Binaries.startDaemon(["--config", folder + "/areasd.json", "--socket", socket])
        }

        deinit {
            kill(process.processIdentifier, SIGTERM)
            _ = process.waitUntilExit(seconds: 20)
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    @Test func followersServeTheLeadersSetAndKeepItThroughFailures() throws {
        let (leader, address) = try SampleDaemon.withHTTP()
        defer { leader.stop() }
        let share = Fixtures.temporaryDirectory() + "/areas.snapshot"
        try FileManager.default.copyItem(atPath: leader.folder + "/areas.snapshot", toPath: share)
        let overHTTP = try Follower(follow: #""url": "http://\#(address)/v1/snapshot""#)
        let overShare = try Follower(follow: #""file": "\#(share)""#)

        let leaderSet = try #require(Self.answer(leader.socket))
        for follower in [overHTTP, overShare] {
            #expect(DaemonQuestions.waitUntil(seconds: 10) { Self.answer(follower.socket) == leaderSet }, "a follower does not serve the leader's set")
            // The leader's freshness: its sources and fetch times, not the follower's.
            let health = try #require(DaemonQuestions.ask(follower.socket, #"{"op":"health"}"#))
            #expect(health["healthy"]?.bool == true, "\(health)")
        }

        // A leader refresh that finds nothing new keeps its file but confirms its sources later:
        // the HTTP follower takes the later times (its data is as fresh as the leader's).
        usleep(1_100_000)
        _ = DaemonQuestions.ask(leader.socket, #"{"op":"refresh","wait":true}"#)
        func fetchTimes(_ socket: String) -> JSONValue? { DaemonQuestions.ask(socket, #"{"op":"stats"}"#)?["bySource"]?["yongsan"]?["fetchedAt"] }
        let confirmed = try #require(fetchTimes(leader.socket))
        #expect(DaemonQuestions.waitUntil(seconds: 10) { fetchTimes(overHTTP.socket) == confirmed }, "the follower's fetch time \(fetchTimes(overHTTP.socket) ?? .null), the leader's \(confirmed)")

        // The leader's data changes (a source dropped on SIGHUP): both follow. (Within the
        // interval and a second on a quiet machine; the bounds here allow for a busy one.)
        let config = try String(contentsOfFile: leader.config, encoding: .utf8)
        let withoutDongjak = config.replacingOccurrences(of: #"(?s),\s*\{\s*"name": "dongjak".*?\n    \}"#, with: "", options: .regularExpression)
        #expect(withoutDongjak != config, "the sample config no longer has the dongjak source")
        try withoutDongjak.write(toFile: leader.config, atomically: true, encoding: .utf8)
        kill(leader.pid, SIGHUP)
        #expect(DaemonQuestions.waitUntil(seconds: 20) { Self.answer(leader.socket) != leaderSet })
        let changedSet = try #require(Self.answer(leader.socket))
        #expect(DaemonQuestions.waitUntil(seconds: 10) { Self.answer(overHTTP.socket) == changedSet }, "the HTTP follower lags")
        try FileManager.default.removeItem(atPath: share)
        try FileManager.default.copyItem(atPath: leader.folder + "/areas.snapshot", toPath: share)
        #expect(DaemonQuestions.waitUntil(seconds: 10) { Self.answer(overShare.socket) == changedSet }, "the share follower lags")
        // On one file system the follower keeps the share's file as a second name of it: one
        // file, mapped by both, its pages shared.
        let shared = try #require(try FileSystem.status(of: share)).inode
        #expect(try FileSystem.status(of: overShare.folder + "/areas.snapshot")?.inode == shared)

        // A tampered snapshot on the share (the header intact, the body torn): refused, and the
        // follower keeps serving, saying why.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: share)))
        bytes.removeLast(bytes.count / 3)
        try Data(bytes).write(to: URL(fileURLWithPath: share + ".tmp"))
        rename(share + ".tmp", share)
        #expect(DaemonQuestions.waitUntil(seconds: 10) { DaemonQuestions.ask(overShare.socket, #"{"op":"health"}"#)?["healthy"]?.bool == false })
        #expect(Self.answer(overShare.socket) == changedSet)
        let stats = try #require(DaemonQuestions.ask(overShare.socket, #"{"op":"stats"}"#))
        #expect(stats["bySource"]?["leader"]?["lastError"]?.string?.contains("refused the leader's snapshot") == true, "\(stats["bySource"] ?? .null)")
        // Its own snapshot is still the good one, for a restart.
        #expect(try FileSystem.status(of: overShare.folder + "/areas.snapshot")?.inode == shared)
        #expect(try SnapshotFile.load(path: overShare.folder + "/areas.snapshot")?.areas.count == SampleCounts.total - (SampleCounts.districtFiles["dongjak"]?.accepted ?? 0))

        // The leader goes away: the HTTP follower keeps serving its set.
        _ = leader.stop()
        #expect(DaemonQuestions.waitUntil(seconds: 10) { DaemonQuestions.ask(overHTTP.socket, #"{"op":"health"}"#)?["healthy"]?.bool == false })
        #expect(Self.answer(overHTTP.socket) == changedSet)
    }

    @Test func aFollowerRefusesSourcesOfItsOwn() throws {
        let folder = Fixtures.temporaryDirectory()
        let config = #"{"follow": {"file": "/nonexistent"}, "sources": [{"name": "z", "kind": "nonsmoking", "format": "data-go-kr-xml", "pages": "/tmp"}]}"#
        try config.write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
        let check = try Binaries.run("areasd", ["--check-config", "--config", folder + "/areasd.json"])
        #expect(check.status == 78)
        #expect(check.stderr.contains("sources: a follower fetches no source"), "\(check.stderr)")
    }
}

/// A leader's snapshot that is whole and correctly sealed but holds nothing, or has lost most
/// of a source: the follower keeps serving what it has, `health` says why, and a forced
/// refresh takes the shrunken one (never the empty one).
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct FollowerShrinkTests {
    @Test func anEmptyOrShrunkenLeaderSnapshotIsNotTaken() throws {
        let leader = try SampleDaemon()
        let share = Fixtures.temporaryDirectory() + "/areas.snapshot"
        try FileManager.default.copyItem(atPath: leader.folder + "/areas.snapshot", toPath: share)
        leader.stop()
        let follower = try FollowerTests.Follower(follow: #""file": "\#(share)""#)
        let served = try #require(DaemonQuestions.waitUntil(seconds: 20) { FollowerTests.answer(follower.socket)?.contains("\"ok\":true") == true } ? FollowerTests.answer(follower.socket) : nil)
        func replaceShare(_ catalog: Catalog) throws {
            try SnapshotFile.write(catalog, to: share + ".new")
            #expect(rename(share + ".new", share) == 0)
        }
        func lastError() -> String? { DaemonQuestions.ask(follower.socket, #"{"op":"stats"}"#)?["bySource"]?["leader"]?["lastError"]?.string }

        // No sources, no areas.
        try replaceShare(Catalog())
        #expect(DaemonQuestions.waitUntil(seconds: 20) { lastError()?.contains("holds no areas") == true }, "\(lastError() ?? "none")")
        #expect(FollowerTests.answer(follower.socket) == served)
        let health = try #require(DaemonQuestions.ask(follower.socket, #"{"op":"health"}"#))
        #expect(health["healthy"]?.bool == false && health["stale"]?.bool == false, "\(health)")

        // The non-smoking zones cut to a tenth, the rest as they were.
        let full = try #require(try SnapshotFile.load(path: follower.folder + "/areas.snapshot"))
        var kept: [Area] = []
        for position in full.catalog.table.indices {
            let area = full.catalog.table[position]
            if area.source != "nonsmoking-zones" || position % 10 == 0 { kept.append(area) }
        }
        try replaceShare(Catalog(areas: kept, fetchedAt: full.catalog.sources.mapValues(\.fetchedAt)))
        #expect(DaemonQuestions.waitUntil(seconds: 20) { lastError()?.contains("would shrink") == true }, "\(lastError() ?? "none")")
        #expect(FollowerTests.answer(follower.socket) == served)
        // Forced, it is taken.
        let forced = try #require(DaemonQuestions.ask(follower.socket, #"{"op":"refresh","wait":true,"force":true}"#))
        #expect(forced["report"]?["succeeded"]?.bool == true, "\(forced)")
        #expect(DaemonQuestions.ask(follower.socket, #"{"op":"stats"}"#)?["areas"]?.double == Double(kept.count))
    }
}

/// A leader that answers with something that is not a snapshot, slowly: refused at its first
/// bytes, not after the whole body (here 100,000 bytes at one per 10 ms) is downloaded and held.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct FollowerOpeningTests {
    @Test func aBodyThatIsNoSnapshotIsRefusedAtItsFirstBytes() throws {
        let server = try LoopbackHTTPServer { _ in .drip(status: 200, contentType: "application/octet-stream", declaredLength: 100_000, interval: 0.01) }
        defer { server.stop() }
        let follower = try FollowerTests.Follower(follow: #""url": "\#(server.baseURL)/v1/snapshot", "timeoutSeconds": 120"#)
        let socket = follower.socket
        defer { withExtendedLifetime(follower) {} }
        func lastError() -> String? { DaemonQuestions.ask(socket, #"{"op":"stats"}"#)?["bySource"]?["leader"]?["lastError"]?.string }
        // 28 bytes take 0.3 s; the whole body would take 1,000 s, the time-out 120 s.
        #expect(DaemonQuestions.waitUntil(seconds: 30) { lastError()?.contains("not an areas snapshot (bad magic)") == true }, "\(lastError() ?? "none")")
        #expect(DaemonQuestions.ask(socket, #"{"op":"health"}"#)?["loaded"]?.bool == false)
    }
}

/// A leader whose good snapshot comes back a byte every 10 ms: the follower's poll ends at
/// `follow.timeoutSeconds` as a failure `health` reports, it keeps serving what it had, and a
/// `refresh` is answered within the time-out instead of waiting for the body.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct FollowerSlowLeaderTests {
    @Test func aPollPastItsTimeOutFailsAndHealthSaysSo() async throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = try AreasConfig.load(path: Fixtures.sampleConfig(in: folder))
        let (catalog, _) = await Refresher(config: config, environment: [:], snapshotPath: folder + "/areas.snapshot").refresh(Catalog())
        let snapshot = SnapshotFile.encode(catalog)
        final class Polls: Sendable { let count = Atomic<Int>(0) }
        let polls = Polls()
        let leader = try LoopbackHTTPServer { _ in
            polls.count.add(1, ordering: .relaxed).oldValue == 0
                ? .body(status: 200, contentType: "application/octet-stream", snapshot)
                : .dripBody(status: 200, contentType: "application/octet-stream", snapshot, interval: 0.01)
        }
        defer { leader.stop() }
        let follower = try FollowerTests.Follower(follow: #""url": "\#(leader.baseURL)/v1/snapshot", "timeoutSeconds": 2"#)
        let socket = follower.socket
        defer { withExtendedLifetime(follower) {} }
        #expect(DaemonQuestions.waitUntil(seconds: 30) { DaemonQuestions.ask(socket, #"{"op":"health"}"#)?["areas"]?.double == Double(SampleCounts.total) })
        func health() -> JSONValue? { DaemonQuestions.ask(socket, #"{"op":"health"}"#) }
        // The second poll drips: what arrives goes to a file beside the snapshot as it comes,
        // not into memory to be written once whole.
        let download = follower.folder + "/areas.snapshot.download"
        func downloaded() -> Int { ((try? FileManager.default.attributesOfItem(atPath: download))?[.size] as? Int) ?? 0 }
        #expect(DaemonQuestions.waitUntil(seconds: 20) { downloaded() > SnapshotFile.headerSize + 20 }, "nothing written as it arrived: \(downloaded()) bytes")
        // 2 s into it the poll has failed, and health says so, naming the leader. (On a busy
        // machine health may first say the poll has run past its time-out, before the poll's
        // own failure is recorded: the state waited for is the failure.)
        #expect(DaemonQuestions.waitUntil(seconds: 20) {
            health().map { $0["healthy"]?.bool == false && $0["problem"]?.string?.contains("leader") == true } == true
        }, "\(String(describing: health()))")
        var lastError = ""
        #expect(DaemonQuestions.waitUntil(seconds: 10) {
            lastError = DaemonQuestions.ask(socket, #"{"op":"stats"}"#)?["bySource"]?["leader"]?["lastError"]?.string ?? ""
            return lastError.contains("timed out after 2 s")
        }, "\(lastError)")
        #expect(health()?["areas"]?.double == Double(SampleCounts.total), "still serving what it had")
        // A refresh joins or starts a poll, which ends at the time-out: answered well within 8 s.
        let client = try AreasClient(path: socket, timeoutSeconds: 8)
        let answer = try JSONParser.parse(client.send(Array(#"{"op":"refresh"}"#.utf8)))
        #expect(answer["ok"] != nil, "\(answer)")
    }
}

/// A shared leader file rewritten in place (not replaced) after a follower took it as a second
/// name: the follower would be serving bytes no check passed, so it ends with status 75 and
/// says why, for systemd to start it clean.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct FollowerInPlaceRewriteTests {
    @Test func aLinkedLeaderFileRewrittenInPlaceEndsTheFollower() throws {
        let leader = try SampleDaemon()
        let shareFolder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: shareFolder) }
        let share = shareFolder + "/areas.snapshot"
        try FileManager.default.copyItem(atPath: leader.folder + "/areas.snapshot", toPath: share)
        leader.stop()
        chmod(share, 0o640)
        let follower = try FollowerTests.Follower(follow: #""file": "\#(share)""#)
        #expect(DaemonQuestions.waitUntil(seconds: 20) { FollowerTests.answer(follower.socket)?.contains("\"ok\":true") == true })
        var shared = stat(), local = stat()
        #expect(stat(share, &shared) == 0 && stat(follower.folder + "/areas.snapshot", &local) == 0)
        try #require(shared.st_ino == local.st_ino, "the follower copied rather than linked; nothing to test")

        // The same size, its middle overwritten: the inode stays, the checksum fails.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: share))
        try handle.seek(toOffset: UInt64(shared.st_size / 2))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
        try handle.close()
        #expect(follower.process.waitUntilExit(seconds: 30), "the follower went on serving the rewritten file")
        #expect(follower.process.terminationStatus == 75)
        let log = String(decoding: follower.stderr.readToEnd(), as: UTF8.self)
        #expect(log.contains("was rewritten in place and is refused"), "\(log)")
    }
}
