import AreasCore
import AreasProtocol
import AreasTestSupport
import Foundation
import Glibc
import Testing
import AreasTestTraits

/// The operator's corrections (`overrides`) on the overlapping samples, as
/// `samples/overlap/overrides-expected.json` says each line of `overrides.csv` acts: a booth
/// hidden by its district record's id, one moved, one renamed by the city's record's id, one
/// added, and four lines that cannot apply, reported by line. Kept across a restart and by a
/// follower; an edit applies at the next refresh.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct OverridesTests {
    /// The daemons this test starts, killed when it ends however it ends.
    private let daemons = StartedDaemons()

    struct Expected: Decodable {
        struct Moved: Decodable { var id: String, lat: Double, lon: Double }
        struct Renamed: Decodable { var by: String, area: String, name: String }
        struct Added: Decodable { var id: String, name: String }
        var hidden: [String]
        var moved: Moved
        var renamed: Renamed
        var added: Added
        var problemLines: [Int]
    }

    static func expected() throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: Data(Fixtures.bytes("samples/overlap/overrides-expected.json")))
    }

    static func area(_ socket: String, _ id: String) -> JSONValue? {
        DaemonQuestions.ask(socket, Request.get(id: id))?["areas"]?.array.first
    }

    /// What the corrections make of the data, asked of the daemon at `socket`.
    static func check(_ socket: String, _ expected: Expected) throws {
        for id in expected.hidden {
            let answer = try #require(DaemonQuestions.ask(socket, Request.get(id: id)))
            #expect(answer["error"]?["code"]?.string == "not_found", "\(id): \(answer)")
            #expect(answer["error"]?["message"]?.string?.contains("hidden by the operator's overrides: 철거됨") == true)
        }
        let moved = try #require(area(socket, expected.moved.id))
        #expect(moved["lat"]?.double == expected.moved.lat && moved["lon"]?.double == expected.moved.lon)
        #expect(moved["overridden"]?.bool == true && moved["note"]?.string == "출구 공사로 이전")
        let near = try #require(DaemonQuestions.ask(socket, #"{"op":"near","lat":\#(expected.moved.lat),"lon":\#(expected.moved.lon),"k":1,"kind":"smoking"}"#))
        #expect(near["areas"]?.array.first?["id"]?.string == expected.moved.id)
        #expect(near["areas"]?.array.first?["distanceMeters"]?.double == 0)
        let renamed = try #require(area(socket, expected.renamed.by))
        #expect(renamed["id"]?.string == expected.renamed.area && renamed["name"]?.string == expected.renamed.name)
        let added = try #require(area(socket, expected.added.id))
        #expect(added["name"]?.string == expected.added.name && added["overridden"]?.bool == true)
        // No answer lists the hidden area.
        let all = try #require(DaemonQuestions.ask(socket, #"{"op":"bbox","south":37.4,"west":126.8,"north":37.7,"east":127.2,"kind":"smoking","limit":10000}"#))
        let ids = Set(all["areas"]?.array.compactMap { $0["id"]?.string } ?? [])
        #expect(ids.isDisjoint(with: expected.hidden) && ids.contains(expected.added.id))
    }

    @Test func correctionsApplyAreReportedAndStay() throws {
        let expected = try Self.expected()
        let daemon = try SampleDaemon(bundled: "config/areasd.overlap.json", overrides: true)
        try Self.check(daemon.socket, expected)
        let sources = try #require(DaemonQuestions.ask(daemon.socket, Request.sources))
        let problems = sources["problems"]?.array.compactMap(\.string) ?? []
        for line in expected.problemLines {
            #expect(problems.contains { $0.contains("line \(line):") }, "line \(line) reported: \(problems)")
        }
        #expect(problems.count == expected.problemLines.count)
        let stats = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"stats"}"#))
        // One hidden, one added: as many areas as without corrections.
        #expect(stats["areas"]?.double == 2716)
        // A bad line is said at start as what it is: skipped, the others applied (the warning
        // said the source fails until the file can be read).
        let started = daemon.stop()
        let lineWarnings = started.split(separator: "\n").filter { $0.contains("warning") && $0.contains("overrides: ") && $0.contains(" line ") }
        #expect(!lineWarnings.isEmpty, "\(started)")
        for warning in lineWarnings {
            #expect(warning.hasSuffix("that line is skipped; the file's other corrections apply") && !warning.contains("source fails"), "\(warning)")
        }

        // A restart serves the corrected set in place; a follower serves it as its leader does.
        let (process, log) = try daemons.start(["--config", daemon.config, "--socket", daemon.socket])
        #expect(DaemonQuestions.waitUntilLoaded(daemon.socket))
        try Self.check(daemon.socket, expected)
        let follower = try FollowerTests.Follower(follow: #""file": "\#(daemon.folder)/areas.snapshot""#)
        #expect(DaemonQuestions.waitUntilLoaded(follower.socket))
        try Self.check(follower.socket, expected)
        kill(process.processIdentifier, SIGTERM)
        #expect(process.waitUntilExit(seconds: 20))
        let restart = String(decoding: log.readToEnd(), as: UTF8.self)
        #expect(restart.contains("served in place"), "\(restart)")
    }

    @Test func anEditAppliesAtTheNextRefresh() throws {
        let expected = try Self.expected()
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lines = try String(contentsOfFile: Fixtures.path("samples/overlap/overrides.csv"), encoding: .utf8)
        try lines.write(toFile: folder + "/overrides.csv", atomically: true, encoding: .utf8)
        let config = try Fixtures.sampleConfig(in: folder, from: "config/areasd.overlap.json", overrides: true)
        let text = try String(contentsOfFile: config, encoding: .utf8)
            .replacingOccurrences(of: Fixtures.path("samples/overlap/overrides.csv"), with: folder + "/overrides.csv")
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let socket = folder + "/areasd.sock"
        let (process, log) = try daemons.start(["--config", config, "--socket", socket])
        defer {
            kill(process.processIdentifier, SIGTERM)
            _ = process.waitUntilExit(seconds: 20)
            _ = log.readToEnd()
        }
        #expect(DaemonQuestions.waitUntilLoaded(socket))
        #expect(DaemonQuestions.ask(socket, Request.get(id: expected.hidden[0]))?["ok"]?.bool == false)

        // The hide line gone (only the lines that name the hidden booth), then SIGHUP: the booth
        // is back, nothing else changed.
        let kept = lines.split(separator: "\n").filter { !($0.hasPrefix("hide,") && $0.contains(expected.hidden[1])) }
        try (kept.joined(separator: "\n") + "\n").write(toFile: folder + "/overrides.csv", atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        #expect(DaemonQuestions.waitUntil(seconds: 20) { Self.area(socket, expected.hidden[0])?["id"]?.string == expected.hidden[0] })
        #expect(Self.area(socket, expected.moved.id)?["lat"]?.double == expected.moved.lat)
        #expect(DaemonQuestions.ask(socket, #"{"op":"stats"}"#)?["areas"]?.double == 2717)
    }
}
