import AreasTestSupport
import Foundation
import Glibc
import Testing
@testable import AreasSystem

/// Under a descriptor limit below `maxConnections`, areasd serves fewer connections and says
/// so, and a client past them is told `busy` instead of hanging on an accept that fails.
@Suite(.timeLimit(.minutes(5)))
struct DescriptorLimitTests {
    @Test func maxConnectionsStaysBelowTheDescriptorLimit() throws {
        let folder = Fixtures.temporaryDirectory()
        let socket = folder + "/areasd.sock"
        // areasd under a soft and hard limit of 128 descriptors, asked for 1,024 connections.
        let (process, stderr) = try Binaries.startDaemon(
            ["--nofile=128:128", Binaries.path("areasd"), "--config", Fixtures.path("config/areasd.json"),
             "--socket", socket, "--snapshot", folder + "/areas.snapshot"],
            executable: "/usr/bin/prlimit")
        defer { kill(process.processIdentifier, SIGTERM); _ = process.waitUntilExit(seconds: 20) }
        try #require(DaemonQuestions.waitUntilLoaded(socket))
        // 150 idle connections: more than the descriptors allow.
        var connections: [FileDescriptor] = []
        defer { connections.forEach { $0.close() } }
        var busy = 0
        for _ in 0..<150 {
            guard let fd = try? Sockets.connectUnix(path: socket, timeoutSeconds: 5) else { continue }
            connections.append(fd)
        }
        usleep(300_000)
        for fd in connections {
            var poll = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&poll, 1, 0) == 1 else { continue }
            var buffer = [UInt8](repeating: 0, count: 512)
            let n = buffer.withUnsafeMutableBytes { Glibc.recv(fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0, String(decoding: buffer.prefix(n), as: UTF8.self).contains(#""code":"busy""#) { busy += 1 }
        }
        #expect(busy >= 150 - 128, "clients past the limit were told busy (\(busy))")
        // Every connection that was admitted still answers.
        connections.forEach { $0.close() }
        connections = []
        usleep(300_000)
        #expect(DaemonQuestions.ask(socket, #"{"op":"health"}"#)?["ok"]?.bool == true)
        kill(process.processIdentifier, SIGTERM)
        _ = process.waitUntilExit(seconds: 20)
        let log = String(decoding: stderr.readToEnd(), as: UTF8.self)
        #expect(log.contains("maxConnections 1024 is more than the descriptor limit (128) allows; serving at most 64 connections"), "\(log)")
        #expect(log.components(separatedBy: "accept: ").count <= 2, "accept failures are logged once per burst")
    }
}
