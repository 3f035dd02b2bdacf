import AreasProtocol
import AreasTestSupport
import Foundation
import Glibc
import Testing
@testable import AreasSystem
import AreasTestTraits

/// Under a descriptor limit below `maxConnections`, areasd serves fewer connections and says
/// so, and a client past them is told `busy` instead of hanging on an accept that fails.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct DescriptorLimitTests {
    /// The daemons this test starts, killed when it ends however it ends.
    private let daemons = StartedDaemons()

    /// areasd under `prlimit --nofile=SOFT:HARD`, asked for 1,024 connections.
    func start(soft: Int, hard: Int, in folder: String) throws -> (Process, DaemonLog, String) {
        let socket = folder + "/areasd.sock"
        let (process, stderr) = try daemons.start(
            ["--nofile=\(soft):\(hard)", Binaries.path("areasd"), "--config", Fixtures.samplesConfig,
             "--socket", socket, "--snapshot", folder + "/areas.snapshot"],
            executable: "/usr/bin/prlimit")
        return (process, stderr, socket)
    }

    /// Opens `count` connections, asks `health` on each, and reads each one's answer (within
    /// a deadline): how many were answered and how many were told `busy`.
    static func askOnMany(_ socket: String, count: Int) throws -> (answered: Int, busy: Int, other: [String]) {
        var connections: [FileDescriptor] = []
        defer { connections.forEach { $0.close() } }
        // The first connection waits until it is the daemon's only one (the questions that saw
        // it loaded may still hold their slots a moment after they closed), then counts as one
        // of the `count`.
        let first = try Sockets.connectUnix(path: socket, timeoutSeconds: 20)
        connections.append(first)
        let alone = DaemonQuestions.waitUntil(seconds: 20) {
            guard (try? first.writeAll(Array(#"{"op":"metrics"}"#.utf8) + [10])) != nil,
                  let line = try? LineReader(fd: first).next(),
                  let text = (try? JSONParser.parse(line))?["metrics"]?.string else { return false }
            return DaemonQuestions.metric("areas_connections_open", in: text) == 1
        }
        #expect(alone, "other connections stayed open")
        for _ in 1..<count { connections.append(try Sockets.connectUnix(path: socket, timeoutSeconds: 20)) }
        for fd in connections { try? fd.writeAll(Array(#"{"op":"health"}"#.utf8) + [10]) }
        var answered = 0, busy = 0, other: [String] = []
        for fd in connections {
            let line = (try? LineReader(fd: fd).next()).map { String(decoding: $0, as: UTF8.self) } ?? "no answer"
            if line.contains(#""code":"busy""#) { busy += 1 } else if line.contains(#""ok":true"#) { answered += 1 } else { other.append(line) }
        }
        return (answered, busy, other)
    }

    @Test func maxConnectionsStaysBelowTheDescriptorLimit() throws {
        let folder = Fixtures.temporaryDirectory()
        let (process, stderr, socket) = try start(soft: 128, hard: 128, in: folder)
        defer { kill(process.processIdentifier, SIGTERM); _ = process.waitUntilExit(seconds: 20) }
        try #require(DaemonQuestions.waitUntilLoaded(socket))
        // 150 connections at once: the 64 the descriptors allow are served (as the start-up
        // line says), every other one is told busy, and none is left without an answer.
        let (answered, busy, other) = try Self.askOnMany(socket, count: 150)
        #expect(answered == 64 && busy == 86 && other.isEmpty, "\(answered) answered, \(busy) busy, \(other)")
        // Once they are gone (the daemon sees each close as it reads it), it answers again.
        #expect(DaemonQuestions.waitUntil(seconds: 20) { DaemonQuestions.ask(socket, #"{"op":"health"}"#)?["ok"]?.bool == true })
        kill(process.processIdentifier, SIGTERM)
        _ = process.waitUntilExit(seconds: 20)
        let log = String(decoding: stderr.readToEnd(), as: UTF8.self)
        #expect(log.contains("maxConnections 1024 is more than the descriptor limit (128) allows; serving at most 64 connections"), "\(log)")
        #expect(log.components(separatedBy: "accept: ").count <= 2, "accept failures are logged once per burst")
    }

    /// A soft limit below the hard one is raised to it at start, so the same 1,024 connections
    /// asked for are all served.
    @Test func theSoftLimitIsRaisedToTheHardLimit() throws {
        let folder = Fixtures.temporaryDirectory()
        let (process, stderr, socket) = try start(soft: 128, hard: 4096, in: folder)
        defer { kill(process.processIdentifier, SIGTERM); _ = process.waitUntilExit(seconds: 20) }
        try #require(DaemonQuestions.waitUntilLoaded(socket))
        let limits = try String(contentsOfFile: "/proc/\(process.processIdentifier)/limits", encoding: .utf8)
        let openFiles = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        #expect(openFiles.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).prefix(2) == ["4096", "4096"], "\(openFiles)")
        let (answered, busy, other) = try Self.askOnMany(socket, count: 150)
        #expect(answered == 150 && busy == 0 && other.isEmpty, "\(answered) answered, \(busy) busy, \(other)")
        kill(process.processIdentifier, SIGTERM)
        _ = process.waitUntilExit(seconds: 20)
        let log = String(decoding: stderr.readToEnd(), as: UTF8.self)
        #expect(!log.contains("more than the descriptor limit"), "\(log)")
    }
}
