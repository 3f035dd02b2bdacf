import AreasTestSupport
import AreasTestTraits
import Foundation
import Glibc
import Testing
@testable import AreasProtocol
@testable import AreasServer
@testable import AreasSystem

/// A stop whose time runs out while a client's pipelined batch is still being answered: the
/// connection ends at an answer's end, never inside one (before, it was shut down mid-write,
/// which a slow machine showed as a partial answer after SIGTERM).
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct StopDeadlineTests {
    @Test func aStopPastItsTimeEndsConnectionsBetweenAnswers() async throws {
        let server = try await TestServer.samples()
        defer { server.stop() }
        let ids = try server.ask(#"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"output":"ids"}"#).ids
        try #require(ids.count > 2_000)
        let requests = (0..<50_000).map { ids[$0 % ids.count] }
        let fd = try Sockets.connectUnix(path: server.socketPath)
        defer { fd.close() }
        let batch = Array(requests.map { #"{"op":"get","id":"\#($0)"}"# + "\n" }.joined().utf8)
        let writer = Thread { try? fd.writeAll(batch) }
        writer.start()
        let reader = LineReader(fd: fd)
        var answered = 0
        var ending: Error?
        var stopped = false
        while true {
            let line: [UInt8]
            do { line = try reader.next() } catch { ending = error; break }
            #expect(((try? JSONParser.parse(line))?.ids) == [requests[answered]])
            answered += 1
            if answered == 100 && !stopped {
                stopped = true
                // Not reading for a while, the client leaves the server blocked in the middle
                // of writing a batch of answers; then a stop with no time at all comes.
                usleep(300_000)
                Thread { _ = server.server.stop(timeout: 0) }.start()
                usleep(300_000)
            }
        }
        #expect(answered >= 100 && answered < requests.count, "\(answered) answered")
        // Closed after the last whole answer, not reset: the requests left are read and dropped.
        #expect(ending is LineReader.Closed, "\(String(describing: ending))")
        #expect(reader.buffer == [], "a partial answer")
    }
}
