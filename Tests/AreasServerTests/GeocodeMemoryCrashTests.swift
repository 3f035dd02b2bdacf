import AreasCore
import AreasTestSupport
import Foundation
import Glibc
import Testing
@testable import AreasIngest

/// What the geocoder said is written the way the snapshot is: a daemon killed with SIGKILL at
/// any moment of a refresh leaves the old memory or the new one, never a torn file, and the
/// next start reads it without a problem.
@Suite(.timeLimit(.minutes(5)))
struct GeocodeMemoryCrashTests {
    /// The daemons this test starts, killed when it ends however it ends.
    private let daemons = StartedDaemons()

    static func answer(_ query: String) -> (Double, Double)? {
        guard let n = query.split(separator: " ").last.flatMap({ Int($0) }) else { return nil }
        return (37.4 + Double(n) * 1e-5, 127.0 + Double(n) * 1e-5)
    }

    @Test func killedWhileWritingLeavesAWholeMemory() throws {
        let server = try LoopbackHTTPServer { request in
            guard let (lat, lon) = Self.answer(request.query["query"] ?? "") else { return .text(200, #"{"documents":[]}"#) }
            return .text(200, #"{"meta":{"total_count":1},"documents":[{"x":"\#(lon)","y":"\#(lat)"}]}"#)
        }
        defer { server.stop() }
        let folder = Fixtures.temporaryDirectory()
        let memoryPath = folder + "/areas.geocoded.json"
        try Data("""
            {"snapshot": "areas.snapshot", "geocoder": {"provider": "kakao", "url": "\(server.baseURL)", "keyEnv": "TEST_KEY", "requestsPerSecond": 1000},
             "sources": [{"name": "rows", "kind": "smoking", "format": "csv", "file": "rows.csv", "fields": {"name": "장소", "address": "주소"},
               "geocode": {"query": "서울특별시 {주소}"}}]}
            """.utf8).write(to: URL(fileURLWithPath: folder + "/areasd.json"))
        var rows = 0
        var known = 0
        // Each round adds rows, starts a daemon and kills it at a different point of its refresh.
        // On a machine busy with other tests a daemon may not reach the write within 5 s: then
        // later rounds wait longer, so at least one kill comes after a memory was written.
        var delays = [0.3, 0.8, 1.5, 2.5, 3.5, 5.0]
        var round = 0
        while round < delays.count {
            let delay = delays[round]
            defer {
                round += 1
                if round == delays.count && known == 0 && delays.count < 8 { delays.append(delay * 3) }
            }
            var csv = rows == 0 ? "장소,주소\n" : try String(contentsOfFile: folder + "/rows.csv", encoding: .utf8)
            for i in rows..<(rows + 300) { csv += "흡연부스 \(i),중앙로 \(i)\n" }
            rows += 300
            try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/rows.csv"))
            let (process, _) = try daemons.start(["--config", folder + "/areasd.json", "--socket", folder + "/s\(round)"], environment: ["TEST_KEY": "k"])
            usleep(useconds_t(delay * 1e6))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let (memory, problem) = GeocodeMemory.load(path: memoryPath, bounds: .korea)
            #expect(problem == nil, "round \(round): \(problem ?? "")")
            #expect(memory.entries.count >= known, "round \(round): the memory never loses what it had")
            known = memory.entries.count
            for (question, entry) in memory.entries {
                guard case .found(let point, _) = entry, let (lat, lon) = Self.answer(question.text) else {
                    Issue.record("round \(round): \(question) is not a position the geocoder gave")
                    continue
                }
                #expect(abs(point.latitude - lat) < 1e-9 && abs(point.longitude - lon) < 1e-9)
            }
        }
        #expect(known > 0, "no kill came after a memory was written: the rounds are too short")
    }
}
