import AreasTestSupport
import Foundation
import Glibc
import Testing
@testable import AreasServer
@testable import AreasSystem
import AreasTestTraits

/// A request line must be complete `requestTimeoutSeconds` after its first byte, however the
/// bytes trickle in; the idle time-out between requests is unchanged.
@Suite(.tags(.concurrent), .offThePool, .timeLimit(.minutes(5)))
struct SlowSenderTests {
    static func server(requestTimeout: Double) async throws -> TestServer {
        var limits = ConnectionServer.Limits()
        limits.requestTimeoutSeconds = requestTimeout
        limits.idleTimeoutSeconds = 30
        return try await TestServer.samples(limits: limits)
    }

    /// Whether the server has closed `fd`, waiting up to `seconds` for it.
    static func closedByServer(_ fd: FileDescriptor, within seconds: Double) -> Bool {
        var poll = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
        guard Glibc.poll(&poll, 1, Int32(seconds * 1000)) == 1 else { return false }
        var byte: UInt8 = 0
        return Glibc.recv(fd.rawValue, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    @Test func aByteAtATimeIsClosedAtTheRequestTimeOut() async throws {
        let server = try await Self.server(requestTimeout: 1)
        let fd = try Sockets.connectUnix(path: server.socketPath)
        defer { fd.close() }
        let started = ContinuousClock.now
        var closed = false
        // One byte every 0.2 s, never a newline: each byte would reset an idle time-out.
        for byte in Array(#"{"op":"health","padding":"........................"#.utf8) {
            guard (try? fd.writeAll([byte])) != nil else { closed = true; break }
            if Self.closedByServer(fd, within: 0.2) { closed = true; break }
        }
        #expect(closed, "the trickling client kept its connection")
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(8), "\(elapsed)")
    }

    @Test func aLineCompletedInTimeIsAnsweredAndTheConnectionStays() async throws {
        let server = try await Self.server(requestTimeout: 2)
        let client = try server.client()
        let fd = try Sockets.connectUnix(path: server.socketPath)
        defer { fd.close() }
        for part in [#"{"op":"#, #""health"}"#] {
            try fd.writeAll(Array(part.utf8))
            usleep(300_000)
        }
        try fd.writeAll(Array("\n".utf8))
        #expect(!Self.closedByServer(fd, within: 0.5), "answered, not closed")
        // Idle for longer than the request time-out between requests: still open.
        usleep(2_500_000)
        #expect((try? server.ask(#"{"op":"health"}"#, on: client)) != nil)
        try fd.writeAll(Array(#"{"op":"health"}"#.utf8 + [10]))
        var answer = [UInt8](repeating: 0, count: 4096)
        var poll = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
        #expect(Glibc.poll(&poll, 1, 5000) == 1)
        let n = answer.withUnsafeMutableBytes { Glibc.recv(fd.rawValue, $0.baseAddress, $0.count, 0) }
        #expect(n > 0 && String(decoding: answer.prefix(max(n, 0)), as: UTF8.self).contains(#""ok":true"#))
    }
}
