import AreasCore
import AreasIngest
import AreasTestSupport
import Foundation
import Glibc
import Synchronization
import Testing
@testable import AreasServer
import AreasTestTraits

/// What the log says: each request at debug level (op, time, outcome, never the text), and a
/// refresh in which every source failed as one error line.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct LogLinesTests {
    @Test func debugLogsEachRequestWithoutItsText() throws {
        let daemon = try SampleDaemon(arguments: ["--log-level", "debug"])
        _ = DaemonQuestions.ask(daemon.socket, #"{"op":"near","lat":37.5311,"lon":126.9711,"k":2}"#)
        _ = DaemonQuestions.ask(daemon.socket, #"{"op":"near","lat":91,"lon":126.9711}"#)
        let log = daemon.stop()
        #expect(log.contains("debug request near from uid \(getuid()): ok in "), "\(log.suffix(2000))")
        #expect(log.contains("debug request unreadable from uid \(getuid()): bad_request in "))
        #expect(!log.contains("37.5311") && !log.contains("126.9711"), "request text stays out of the log")
    }

    @Test func aRefreshInWhichEverySourceFailedIsAnError() async throws {
        let lines = LockedLines()
        let config = try AreasConfig.parse(Data(#"""
            {"sources":[{"name":"gone","kind":"smoking","format":"odcloud-json","url":"http://127.0.0.1:9/x","retries":0,"timeoutSeconds":2,
             "fields":{"name":"n","latitude":"y","longitude":"x"}}]}
            """#.utf8), path: "areasd.json")
        let folder = Fixtures.temporaryDirectory()
        let service = AreaService(
            config: config, state: ServingState(.empty(), hasData: false, lastReport: nil, snapshotPath: folder + "/s", builtAt: 0),
            snapshotPath: folder + "/s", logger: Logger(threshold: .info, environment: [:], sink: { lines.append($0) }))
        _ = await service.startRefresh(force: false).report()
        let errors = lines.all.filter { $0.contains(" error ") }
        #expect(errors.contains { $0.contains("refresh failed: no source could be fetched (gone); still serving the previous 0 areas") }, "\(lines.all)")
        #expect(!lines.all.contains { $0.contains("refresh finished") })
    }

    final class LockedLines: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }
}
