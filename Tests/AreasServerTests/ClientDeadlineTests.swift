import AreasSystem
import AreasTestSupport
import AreasTestTraits
import Foundation
import Glibc
import Testing

/// `--timeout` is a deadline for the whole question on both doors: a peer that sends a byte of
/// its answer every quarter second, each well within the time-out, still loses the client at
/// the deadline (it used to bound each read alone, so `--timeout 2` waited as long as the
/// dripping went on).
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(2))) struct ClientDeadlineTests {
    /// How long the peers below would drip, were they not left: far past the time-out, and past
    /// the 20 s after which the test kills areasctl (a kill fails the test).
    static let dripSeconds = 40.0

    @Test func aDrippingHTTPAnswerEndsAtTheDeadline() throws {
        let interval = 0.25
        let server = try LoopbackHTTPServer { _ in
            .drip(status: 200, contentType: "application/json", declaredLength: Int(Self.dripSeconds / interval), interval: interval)
        }
        defer { server.stop() }
        let run = try Binaries.run("areasctl", ["--url", server.baseURL, "--timeout", "2", "health"], seconds: 20)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("did not answer within 2 s"), "\(run.stderr)")
        #expect(server.requestCount == 1)
    }

    @Test func aDrippingSocketAnswerEndsAtTheDeadline() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/areasd.sock"
        let listener = try Sockets.listenUnix(path: path)
        let sent = LockedValue(0)
        // Reads the question, then answers `{"ok":` a byte at a time, never ending the line.
        let peer = Thread {
            guard let connection = try? Sockets.accept(listener) else { return }
            defer { connection.close() }
            var chunk = [UInt8](repeating: 0, count: 4096)
            _ = chunk.withUnsafeMutableBytes { try? connection.read(into: $0) }
            for _ in 0..<Int(Self.dripSeconds / 0.25) {
                guard (try? connection.writeAll([UInt8(ascii: " ")])) != nil else { return }
                sent.withLock { $0 += 1 }
                usleep(250_000)
            }
        }
        peer.start()
        defer {
            _ = shutdown(listener.rawValue, Int32(SHUT_RDWR))
            listener.close()
        }
        let run = try Binaries.run("areasctl", ["--socket", path, "--timeout", "2", "health"], seconds: 20)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("did not answer within 2 s"), "\(run.stderr)")
        // It did drip: the answer was under way when the deadline came.
        #expect(sent.withLock { $0 } >= 2)
    }
}
