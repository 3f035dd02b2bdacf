import AreasIngest
import AreasProtocol
import AreasTestSupport
import Foundation
import Glibc
import Testing

/// A daemon upgraded over a snapshot written by an earlier build: it serves the old file at
/// once, writes it again in the current format, and the next start serves that in place, with
/// the same answers throughout.
@Suite struct SnapshotFormatTests {
    @Test(arguments: ["yongsan-version-2", "yongsan-version-4"])
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
             "sources": [{"name": "yongsan", "kind": "smoking", "format": "odcloud-json", "pages": "\(Fixtures.root)/samples/yongsan-smoking", "province": "서울특별시",
             "fields": {"name": "서울특별시 용산구 설치 위치", "latitude": "위도", "longitude": "경도", "address": "서울특별시 용산구 설치 위치", "district": "자치구명"}}]}
            """
        try config.write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
        let question = #"{"op":"near","lat":37.532,"lon":126.99,"k":20}"#

        var answers: [JSONValue] = []
        var logs: [String] = []
        for _ in 0..<2 {
            let socket = folder + "/areasd.sock"
            let (process, stderr) = try Binaries.startDaemon(["--config", folder + "/areasd.json", "--socket", socket])
            #expect(DaemonQuestions.waitUntilLoaded(socket))
            answers.append(try #require(DaemonQuestions.ask(socket, question)))
            kill(process.processIdentifier, SIGTERM)
            #expect(process.waitUntilExit(seconds: 20))
            logs.append(String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
        #expect(answers[0] == answers[1])
        #expect(answers[0]["areas"]?.array.count == 20)
        #expect(logs[0].contains("loaded snapshot \(snapshot) (format \(oldVersion), indexed): \(SampleCounts.yongsan) areas"), "\(logs[0])")
        #expect(logs[0].contains("rewrote snapshot \(snapshot) in format \(SnapshotFile.version)"), "\(logs[0])")
        #expect(logs[1].contains("loaded snapshot \(snapshot) (format \(SnapshotFile.version), served in place): \(SampleCounts.yongsan) areas"), "\(logs[1])")
        #expect(!logs[1].contains("rewrote"))
        #expect(try Self.version(of: snapshot) == SnapshotFile.version)
    }

    /// The format version in a snapshot's header.
    static func version(of path: String) throws -> UInt32 {
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(12))
        return header[8..<12].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
}
