import AreasTestSupport
import Foundation
import Glibc
import Testing
@testable import AreasSystem

/// Clients that leave work behind, never read, or arrive when no thread can start: each costs
/// the daemon a bounded amount, and everyone else is still answered. Real daemons, real sockets.
@Suite(.serialized) struct HostileClientTests {
    /// The daemon's CPU time so far (user and system), from /proc.
    static func cpuSeconds(_ pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime 14 and stime 15 (1-based over the whole line).
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A route of `count` points zig-zagging across Seoul, each leg about 20 km: with a 20 km
    /// corridor every leg passes every sample area, so each request costs close to the work limit.
    static func heavyRoute(_ count: Int) -> String {
        let points = (0..<count).map { i in i % 2 == 0 ? "[37.45,126.8]" : "[37.65,127.15]" }
        return #"{"op":"along","path":[\#(points.joined(separator: ","))],"meters":20000,"limit":0}"#
    }

    @Test func workForAClientThatHasGoneStops() throws {
        let daemon = try SampleDaemon()
        let (socket, pid) = (daemon.socket, daemon.pid)
        // Forty heavy requests in one write, small answers (limit 0), then the client leaves
        // without reading: seconds of work that nobody will read.
        let line = Self.heavyRoute(120) + "\n"
        let client = try Sockets.connectUnix(path: socket, timeoutSeconds: 5)
        try client.writeAll(Array(String(repeating: line, count: 40).utf8))
        usleep(300_000)  // the daemon has begun
        client.close()
        usleep(700_000)
        let afterLeaving = Self.cpuSeconds(pid)
        sleep(2)
        let spent = Self.cpuSeconds(pid) - afterLeaving
        #expect(spent < 0.5, "the daemon kept working \(spent) s of CPU for a client that left")
        // One of the requests alone is answered, and is a real search.
        let answer = DaemonQuestions.ask(socket, Self.heavyRoute(120).replacingOccurrences(of: #""limit":0"#, with: #""limit":1"#))
        #expect(answer?["ok"]?.bool == true, "\(String(describing: answer))")
        #expect(answer?["truncated"]?.bool == true)
        let log = daemon.stop()
        #expect(log.contains("whose client has gone;") && log.contains("requests left unanswered"), "\(log)")
    }

    @Test func clientsThatNeverReadCannotHoldMoreThanMaxOutputBytes() throws {
        let daemon = try SampleDaemon(extra: #"  "maxOutputBytes": 1048576"#)
        let socket = daemon.socket
        // Twenty clients each ask for every area in full (hundreds of kilobytes) and never read.
        let request = Array(#"{"op":"radius","lat":37.5,"lon":127,"meters":500000,"limit":1500}"#.utf8) + [10]
        var clients: [FileDescriptor] = []
        defer { clients.forEach { $0.close() } }
        for _ in 0..<20 {
            let client = try Sockets.connectUnix(path: socket, timeoutSeconds: 5)
            try client.writeAll(request)
            clients.append(client)
        }
        // Those past the limit are told so and closed: their socket reaches end of input.
        var closed = 0
        let deadline = MonotonicClock.microseconds + 10_000_000
        var seen = Set<Int32>()
        while MonotonicClock.microseconds < deadline && closed < 15 {
            for client in clients where !seen.contains(client.rawValue) {
                var entry = pollfd(fd: client.rawValue, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 0) == 1, entry.revents & Int16(POLLHUP) != 0 else { continue }
                seen.insert(client.rawValue)
                closed += 1
            }
            usleep(50_000)
        }
        #expect(closed >= 15, "only \(closed) of 20 non-reading clients were closed")
        // Everyone else is still answered.
        #expect(DaemonQuestions.ask(socket, #"{"op":"near","lat":37.53,"lon":126.97,"k":3}"#)?["count"]?.double == 3)
        clients.forEach { $0.close() }
        clients = []
        let log = daemon.stop()
        #expect(log.contains("past maxOutputBytes (1048576)"), "\(log)")
    }

    @Test func aConnectionWhoseThreadCannotStartIsRefusedAndFreed() throws {
        // A task limit on the running daemon, as systemd's TasksMax sets one: a pids cgroup.
        let cgroup = "/sys/fs/cgroup/pids/areas-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard (try? FileManager.default.createDirectory(atPath: cgroup, withIntermediateDirectories: false)) != nil else {
            print("skipped: cannot create a pids cgroup at \(cgroup) (needs root and cgroup v1's pids controller)")
            return
        }
        defer { try? FileManager.default.removeItem(atPath: cgroup) }
        let daemon = try SampleDaemon()
        let (socket, pid) = (daemon.socket, daemon.pid)
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let threads = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0
        try #require(threads > 0)
        try String(threads + 10).write(toFile: cgroup + "/pids.max", atomically: false, encoding: .utf8)
        try String(pid).write(toFile: cgroup + "/cgroup.procs", atomically: false, encoding: .utf8)

        // Forty idle clients: about ten get a thread, the rest are told busy and closed.
        var clients: [FileDescriptor] = []
        for _ in 0..<40 { clients.append(try Sockets.connectUnix(path: socket, timeoutSeconds: 5)) }
        usleep(500_000)
        var busy = 0
        for client in clients {
            var buffer = [UInt8](repeating: 0, count: 512)
            let n = buffer.withUnsafeMutableBytes { recv(client.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0, String(decoding: buffer.prefix(n), as: UTF8.self).contains(#""code":"busy""#) { busy += 1 }
        }
        #expect(busy >= 20, "\(busy) of 40 clients were told busy")
        // Their slots are free again: once the idle ones leave, a new client is served.
        clients.forEach { $0.close() }
        usleep(500_000)
        #expect(DaemonQuestions.ask(socket, #"{"op":"health"}"#)?["ok"]?.bool == true)
        // And shutdown waits for no connection that never had a thread.
        let stopping = MonotonicClock.microseconds
        let log = daemon.stop()
        #expect(MonotonicClock.microseconds - stopping < 5_000_000, "SIGTERM took \((MonotonicClock.microseconds - stopping) / 1000) ms")
        #expect(log.contains("cannot start a thread for a connection"), "\(log)")
        #expect(log.components(separatedBy: "cannot start a thread").count == 2, "logged once per burst")
    }
}
