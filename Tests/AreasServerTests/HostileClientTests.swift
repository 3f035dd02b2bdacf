import AreasTestSupport
import Foundation
import Glibc
import Testing
import AreasProtocol
@testable import AreasSystem
import AreasTestTraits

/// Clients that leave work behind, never read, or arrive when no thread can start: each costs
/// the daemon a bounded amount, and everyone else is still answered. Real daemons, real sockets.
@Suite(.serialized, .tags(.endToEnd), .offThePool, .timeLimit(.minutes(5))) struct HostileClientTests {
    /// How many `along` requests the daemon has answered, from its metrics.
    static func alongAnswered(_ socket: String) -> Double? {
        DaemonQuestions.metric(socket, #"areas_requests_total{op="along"}"#)
    }

    /// Bytes written to `socket` its peer has not read yet.
    static func unread(_ socket: FileDescriptor) -> Int {
        var queued: Int32 = 0
        return ioctl(socket.rawValue, UInt(TIOCOUTQ), &queued) == 0 ? Int(queued) : Int.max
    }

    /// A route of `count` points zig-zagging across Seoul, each leg about 20 km: with a 20 km
    /// corridor every leg passes every sample area, so each request costs close to the work limit.
    static func heavyRoute(_ count: Int) -> String {
        let points = (0..<count).map { i in i % 2 == 0 ? "[37.45,126.8]" : "[37.65,127.15]" }
        return #"{"op":"along","path":[\#(points.joined(separator: ","))],"meters":20000,"limit":0}"#
    }

    @Test func workForAClientThatHasGoneStops() throws {
        let daemon = try SampleDaemon()
        let socket = daemon.socket
        // Sixty heavy requests in one write, small answers (limit 0), then the client leaves
        // without reading: seconds of work that nobody will read.
        let line = Self.heavyRoute(60) + "\n"
        let client = try Sockets.connectUnix(path: socket, timeoutSeconds: 5)
        let batch = Array(String(repeating: line, count: 60).utf8)
        try client.writeAll(batch)
        // The daemon has begun once it has read some of the batch: what it has not read waits
        // in the client's send queue.
        #expect(DaemonQuestions.waitUntil(seconds: 20) { Self.unread(client) < batch.count }, "the daemon never read the batch")
        client.close()
        // A batch's requests are counted when the batch ends. The first read holds at least
        // 17 of the sixty (16 KiB of lines under 1 KiB); a daemon that went on after the client
        // left answers all of them, one that stops answers the few it began before it noticed.
        var answered = 0.0
        for _ in 0..<120 {
            usleep(500_000)
            let now = try #require(Self.alongAnswered(socket))
            if now > 0 && now == answered { break }
            answered = now
        }
        #expect(answered >= 1 && answered < 10, "answered \(answered) of 60 for a client that left")
        // One of the requests alone is answered, and is a real search.
        let answer = DaemonQuestions.ask(socket, Self.heavyRoute(60).replacingOccurrences(of: #""limit":0"#, with: #""limit":1"#))
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
        // Those past the limit are told so and closed: what they receive is one `busy` line,
        // then the end of input.
        var received: [Int32: [UInt8]] = [:]
        var ended = Set<Int32>()
        let deadline = MonotonicClock.microseconds + 20_000_000
        while MonotonicClock.microseconds < deadline && ended.count < 15 {
            // Only a client the daemon hung up on is read: reading the others would make them
            // readers, whose answers then flow.
            for client in clients where !ended.contains(client.rawValue) {
                var entry = pollfd(fd: client.rawValue, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 0) == 1, entry.revents & Int16(POLLHUP) != 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let n = buffer.withUnsafeMutableBytes { Glibc.recv(client.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                    guard n > 0 else { break }
                    received[client.rawValue, default: []] += buffer.prefix(n)
                }
                ended.insert(client.rawValue)
            }
            usleep(20_000)
        }
        let toldBusy = ended.filter { fd in
            let text = String(decoding: received[fd] ?? [], as: UTF8.self)
            return text.hasPrefix(#"{"ok":false,"error":{"code":"busy""#) && text.hasSuffix("}\n") && text.filter { $0 == "\n" }.count == 1
        }
        #expect(toldBusy.count >= 15, "\(toldBusy.count) of 20 non-reading clients were told busy and closed (\(ended.count) closed)")
        // Everyone else is still answered, while the non-readers still hold their connections:
        // at once, or, while the answers still being written to them hold the budget, after
        // `busy` (which says to ask again) within seconds.
        var last: JSONValue?
        let answered = DaemonQuestions.waitUntil(seconds: 20) {
            last = DaemonQuestions.ask(socket, #"{"op":"near","lat":37.53,"lon":126.97,"k":3}"#)
            if last?["error"]?["code"]?.string == "busy" { return false }
            return true
        }
        #expect(answered && last?["count"]?.double == 3, "\(last ?? .null)")
        clients.forEach { $0.close() }
        clients = []
        let log = daemon.stop()
        #expect(log.contains("past maxOutputBytes (1048576)"), "\(log)")
    }

    /// Past `maxOutputBytes` (1 MiB here) the largest unread answer goes, not the newcomer's
    /// smaller one: a client that asked for 590 KB and never reads is cut off when another asks
    /// for 510 KB, which it is then given whole. Before, the one that asked second was refused.
    @Test func theLargestUnreadAnswerIsDroppedForASmallerOne() throws {
        let daemon = try SampleDaemon(extra: #"  "maxOutputBytes": 1048576"#)
        let socket = daemon.socket
        let hog = try Sockets.connectUnix(path: socket, timeoutSeconds: 5)
        defer { hog.close() }
        try hog.writeAll(Array(#"{"op":"radius","lat":37.5,"lon":127,"meters":500000,"limit":1500}"#.utf8) + [10])
        func waitingBytes() -> Double {
            let text = DaemonQuestions.ask(socket, #"{"op":"metrics"}"#)?["metrics"]?.string ?? ""
            let line = text.split(separator: "\n").first { $0.hasPrefix("areas_output_waiting_bytes ") }
            return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
        }
        #expect(DaemonQuestions.waitUntil(seconds: 20) { waitingBytes() > 500_000 }, "the unread answer never waited")
        let held = waitingBytes()
        // The second asks for a smaller answer, which would pass the budget beside the first.
        let answer = try #require(DaemonQuestions.ask(socket, #"{"op":"radius","lat":37.5,"lon":127,"meters":500000,"limit":1300}"#, deadline: 20))
        #expect(answer["ok"]?.bool == true && answer["areas"]?.array.count == 1_300, "\(answer["error"] ?? JSONValue.null)")
        // The first was cut off: what it can still read ends before its answer does.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = MonotonicClock.microseconds + 10_000_000
        while MonotonicClock.microseconds < deadline {
            var entry = pollfd(fd: hog.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) == 1 else { continue }
            let n = buffer.withUnsafeMutableBytes { Glibc.recv(hog.rawValue, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer.prefix(n)
        }
        #expect(!received.isEmpty && Double(received.count) < held && received.last != 10,
                "the unread answer of \(Int(held)) bytes: \(received.count) bytes came before the end")
        let log = daemon.stop()
        #expect(log.contains("dropped an unread answer of"), "\(log)")
    }

    /// Where a pids cgroup can be made here: cgroup v1's pids controller, or cgroup v2's
    /// unified hierarchy with the pids controller enabled for its children.
    static let pidsCgroupParent: String? = {
        guard getuid() == 0 else { return nil }
        if FileManager.default.fileExists(atPath: "/sys/fs/cgroup/pids/tasks") { return "/sys/fs/cgroup/pids" }
        if let controllers = try? String(contentsOfFile: "/sys/fs/cgroup/cgroup.subtree_control", encoding: .utf8),
           controllers.split(whereSeparator: \.isWhitespace).contains("pids") { return "/sys/fs/cgroup" }
        return nil
    }()

    @Test(.enabled(if: pidsCgroupParent != nil, "needs root and a pids cgroup controller (cgroup v1's, or v2's enabled for children)"))
    func aConnectionWhoseThreadCannotStartIsRefusedAndFreed() throws {
        // A task limit on the running daemon, as systemd's TasksMax sets one: a pids cgroup.
        let parent = try #require(Self.pidsCgroupParent)
        let cgroup = "\(parent)/areas-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: cgroup, withIntermediateDirectories: false)
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
        let log = daemon.stop()
        #expect(log.contains("stopped\n") && !log.contains("did not finish"), "\(log.suffix(500))")
        #expect(log.contains("cannot start a thread for a connection"), "\(log)")
        #expect(log.components(separatedBy: "cannot start a thread").count == 2, "logged once per burst")
    }
}
