import AreasCore
import AreasIngest
import AreasProtocol
import AreasTestSupport
import Foundation
import Glibc
import Testing
import AreasTestTraits

/// A daemon upgraded over a snapshot written by an earlier build: it serves the old file at
/// once, writes it again in the current format, and the next start serves that in place, with
/// the same answers throughout.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct SnapshotFormatTests {
    /// The daemons this test starts, killed when it ends however it ends.
    private let daemons = StartedDaemons()

    @Test(arguments: ["yongsan-version-2", "yongsan-version-4", "yongsan-version-10", "yongsan-version-11"])
    func anOlderSnapshotIsServedAndWrittenAgainInTheCurrentFormat(fixture: String) throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let snapshot = folder + "/areas.snapshot"
        try FileManager.default.copyItem(atPath: Fixtures.path("Tests/AreasIngestTests/Fixtures/\(fixture).snapshot"), toPath: snapshot)
        let oldVersion = try Self.version(of: snapshot)
        #expect(oldVersion < SnapshotFile.version)
        // The fixture's own source, never refreshed during the test.
        let config = """
            {"snapshot": "\(snapshot)", "refreshIntervalSeconds": 1e9,
             "sources": [{"name": "yongsan", "kind": "smoking", "format": "odcloud-json", "pages": "\(Fixtures.root)/Tests/AreasIngestTests/Fixtures/yongsan-pages-of-the-fixtures", "province": "서울특별시",
             "fields": {"name": "서울특별시 용산구 설치 위치", "latitude": "위도", "longitude": "경도", "address": "서울특별시 용산구 설치 위치", "district": "자치구명"}}]}
            """
        try config.write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
        let question = #"{"op":"near","lat":37.532,"lon":126.99,"k":20}"#

        var answers: [JSONValue] = []
        var logs: [String] = []
        for _ in 0..<2 {
            let socket = folder + "/areasd.sock"
            let (process, stderr) = try daemons.start(["--config", folder + "/areasd.json", "--socket", socket])
            #expect(DaemonQuestions.waitUntilLoaded(socket))
            answers.append(try #require(DaemonQuestions.ask(socket, question)))
            kill(process.processIdentifier, SIGTERM)
            #expect(process.waitUntilExit(seconds: 20))
            logs.append(String(decoding: stderr.readToEnd(), as: UTF8.self))
        }
        #expect(answers[0] == answers[1])
        #expect(answers[0]["areas"]?.array.count == 20)
        // From format 5 the index is laid out in the file and served as it is; the areas'
        // fields before format 11 are read into key lists, and the file is written again.
        let indexed = oldVersion >= 5 ? "served in place" : "indexed"
        #expect(logs[0].contains("loaded snapshot \(snapshot) (format \(oldVersion), \(indexed)): \(SampleCounts.yongsan) areas"), "\(logs[0])")
        #expect(logs[0].contains("rewrote snapshot \(snapshot) in format \(SnapshotFile.version)"), "\(logs[0])")
        #expect(logs[1].contains("loaded snapshot \(snapshot) (format \(SnapshotFile.version), served in place): \(SampleCounts.yongsan) areas"), "\(logs[1])")
        #expect(!logs[1].contains("rewrote"))
        #expect(try Self.version(of: snapshot) == SnapshotFile.version)

        // Other footprints configured: the zones are indexed again at the next start and the
        // file rewritten with them, so the start after serves it in place once more.
        try config.replacingOccurrences(of: #""refreshIntervalSeconds": 1e9,"#, with: #""refreshIntervalSeconds": 1e9, "footprint": {"maxMeters": 150},"#)
            .write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
        for expected in ["(format \(SnapshotFile.version), indexed)", "(format \(SnapshotFile.version), served in place)"] {
            let socket = folder + "/areasd.sock"
            let (process, stderr) = try daemons.start(["--config", folder + "/areasd.json", "--socket", socket])
            #expect(DaemonQuestions.waitUntilLoaded(socket))
            #expect(DaemonQuestions.ask(socket, question) == answers[0])
            kill(process.processIdentifier, SIGTERM)
            #expect(process.waitUntilExit(seconds: 20))
            let log = String(decoding: stderr.readToEnd(), as: UTF8.self)
            #expect(log.contains("loaded snapshot \(snapshot) \(expected)"), "\(log)")
        }
    }

    /// A snapshot overwritten in place (cut short) under a daemon serving it from its mapping:
    /// the next query that reaches past the new end cannot be answered, and the daemon says why
    /// and exits 75 for the service manager to start it again, rather than dying silently.
    @Test func aSnapshotCutShortUnderTheDaemonEndsItWithAReason() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let snapshot = folder + "/areas.snapshot"
        let areas = SyntheticPoints.uniform(count: 20_000, seed: 4).enumerated().map { i, point in
            Area(id: "b:\(String(i, radix: 36))", kind: .nonsmoking, name: "구역 \(i)", coordinate: point, source: "b")
        }
        try SnapshotFile.write(Catalog(areas: areas, fetchedAt: ["b": Date().timeIntervalSince1970]), to: snapshot)
        try FileManager.default.createDirectory(atPath: folder + "/empty", withIntermediateDirectories: true)
        try #"{"snapshot": "\#(snapshot)", "refreshIntervalSeconds": 1e9, "sources": [{"name": "b", "kind": "nonsmoking", "format": "data-go-kr-xml", "pages": "\#(folder)/empty"}]}"#
            .write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
        let socket = folder + "/areasd.sock"
        let (process, stderr) = try daemons.start(["--config", folder + "/areasd.json", "--socket", socket])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(DaemonQuestions.waitUntilLoaded(socket))
        #expect(DaemonQuestions.ask(socket, #"{"op":"get","id":"b:0"}"#)?["ok"]?.bool == true)

        // Snapshots are written read-only (0440): made writable first, as anyone cutting one
        // short in place must (root, who may write it anyway, included).
        #expect(chmod(snapshot, 0o640) == 0)
        #expect(truncate(snapshot, 4096) == 0)
        _ = DaemonQuestions.ask(socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"limit":1000}"#)
        #expect(process.waitUntilExit(seconds: 20))
        #expect(process.terminationReason == .exit && process.terminationStatus == 75)
        let log = String(decoding: stderr.readToEnd(), as: UTF8.self)
        #expect(log.contains("bus error reading the mapped snapshot: the file was cut short or rewritten in place"), "\(log)")
    }

    /// The format version in a snapshot's header.
    static func version(of path: String) throws -> UInt32 {
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(12))
        return header[8..<12].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
}
