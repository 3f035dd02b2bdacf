import Foundation
import Glibc
import Synchronization
import Testing
@testable import AreasControl
@testable import AreasCore
@testable import AreasIngest
@testable import AreasProtocol
@testable import AreasServer
@testable import AreasSystem
@testable import AreasTestSupport
import AreasTestTraits

/// What an operator relies on: systemd notify and socket activation, signals, access control, logs.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
final class OperationsTests {
    private let directory = Fixtures.temporaryDirectory()
    /// The test's daemons, killed when it ends however it ends; then its folder is removed.
    private let daemons: StartedDaemons

    init() { daemons = StartedDaemons(removing: directory) }

    private func writeConfig(extra: String = "") throws -> String {
        try Fixtures.sampleConfig(in: directory, extra: extra)
    }

    /// A datagram socket the test listens on, as systemd does for NOTIFY_SOCKET.
    final class NotifyListener {
        let fd: Int32
        let path: String

        init(path: String) throws {
            self.path = path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = try Sockets.unixAddress(path)
            let length = path.hasPrefix("@") ? socklen_t(MemoryLayout<sa_family_t>.size + path.utf8.count) : socklen_t(MemoryLayout<sockaddr_un>.size)
            if path.hasPrefix("@") { withUnsafeMutableBytes(of: &address.sun_path) { $0[0] = 0 } }
            let result = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
            guard result == 0 else { throw SystemError("bind", subject: path) }
        }

        /// The next datagram, or nil after `seconds`.
        func receive(seconds: Double) -> String? {
            var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pollfd, 1, Int32(seconds * 1000)) > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
        }

        /// Messages until one contains `text`.
        func wait(for text: String, seconds: Double = 20) -> [String] {
            var seen: [String] = []
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline, let message = receive(seconds: deadline.timeIntervalSinceNow) {
                seen.append(message)
                if message.contains(text) { return seen }
            }
            return seen
        }

        deinit { close(fd) }
    }

    private func start(config: String, socket: String, env: [String: String] = [:]) throws -> (Process, DaemonLog) {
        try daemons.start(["--config", config, "--socket", socket], environment: env)
    }

    private func ask(_ socket: String, _ request: String) -> JSONValue? { DaemonQuestions.ask(socket, request) }

    private func waitUntil(seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        DaemonQuestions.waitUntil(seconds: seconds, condition)
    }

    @Test func notifyProtocol() throws {
        let listener = try NotifyListener(path: directory + "/notify.sock")
        let socket = directory + "/areasd.sock"
        let (daemon, _) = try start(config: try writeConfig(), socket: socket,
                                    env: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "400000"])
        // With no snapshot yet, not ready while the first refresh runs (the status says so),
        // ready once it has served, with the status saying what is served.
        let startup = listener.wait(for: "READY=1", seconds: 60)
        let ready = try #require(startup.last)
        #expect(startup.first?.hasPrefix("STATUS=no data loaded yet") == true, Comment(rawValue: startup.joined(separator: "|")))
        #expect(ready.hasPrefix("READY=1\nSTATUS=serving \(SampleCounts.total) areas, data "), Comment(rawValue: ready))
        #expect(DaemonQuestions.ask(socket, #"{"op":"near","lat":37.53,"lon":126.97,"k":1}"#)?["count"]?.double == 1, "ready means the next question is answered")
        #expect((listener.wait(for: "WATCHDOG=1", seconds: 2).last) == "WATCHDOG=1")
        #expect((listener.wait(for: "WATCHDOG=1", seconds: 2).last) == "WATCHDOG=1")

        kill(daemon.processIdentifier, SIGHUP)
        let reload = listener.wait(for: "RELOADING=1")
        #expect(reload.last?.range(of: #"RELOADING=1\nMONOTONIC_USEC=\d+"#, options: .regularExpression) != nil, Comment(rawValue: reload.joined(separator: "|")))
        #expect(listener.wait(for: "READY=1").last?.contains("READY=1") == true)

        kill(daemon.processIdentifier, SIGTERM)
        #expect(listener.wait(for: "STOPPING=1").last?.contains("STOPPING=1") == true)
        #expect(daemon.waitUntilExit(seconds: 20), "daemon did not exit in 20 s")
        #expect(daemon.terminationStatus == 0)
    }

    @Test func notifyToAnAbstractSocketAndWatchdogOwnership() throws {
        let name = "@areas-test-\(UUID().uuidString.prefix(8))"
        let listener = try NotifyListener(path: name)
        SystemdNotifier(environment: ["NOTIFY_SOCKET": name]).status("hello")
        #expect((listener.receive(seconds: 2)) == "STATUS=hello")
        #expect((SystemdNotifier(environment: ["WATCHDOG_USEC": "30000000"], pid: 7).watchdogInterval) == 15)
        #expect((SystemdNotifier(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "7"], pid: 7).watchdogInterval) == 15)
        #expect((SystemdNotifier(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "8"], pid: 7).watchdogInterval) == nil)
    }

    @Test func socketActivationServesOnDescriptor3() throws {
        let socket = directory + "/activated.sock"
        let listener = try Sockets.listenUnix(path: socket)
        let config = try writeConfig()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, listener.rawValue, 3)
        let script = "export LISTEN_PID=$$ LISTEN_FDS=1; exec '\(Binaries.path("areasd"))' --config '\(config)' --socket /nonexistent/unused.sock"
        let words: [String] = ["/bin/sh", "-c", script]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        #expect((posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)) == 0)
        // Held open here, as systemd holds the sockets it passes on.
        defer { listener.close() }
        defer { kill(pid, SIGKILL) }
        #expect(waitUntil { self.ask(socket, #"{"op":"health"}"#)?["loaded"]?.bool == true }, "answers on the passed socket")
        kill(pid, SIGTERM)
        var status: Int32 = -1
        let exited = waitUntil(seconds: 20) { waitpid(pid, &status, WNOHANG) == pid }
        #expect(exited, "the daemon did not exit in 20 s")
        #expect(status == 0)
        #expect(FileManager.default.fileExists(atPath: socket), "a socket systemd owns is left in place")
        // Still listening after the daemon stopped: the next start (or systemd, to start it)
        // gets the connections that arrive meanwhile, instead of "Connection refused".
        let waiting = try Sockets.connectUnix(path: socket, timeoutSeconds: 5)
        waiting.close()
        #expect(!Sockets.peerHasHungUp(listener), "the listener was shut down")
    }

    @Test(.tags(.concurrent)) func sigtermDuringPipelinedLoadAnswersWhatItRead() throws {
        let socket = directory + "/areasd.sock"
        let (daemon, _) = try start(config: try writeConfig(), socket: socket)
        #expect(waitUntil { self.ask(socket, #"{"op":"health"}"#)?["loaded"]?.bool == true })
        let ids = (ask(socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"output":"ids"}"#)?.ids ?? [])
        try #require(ids.count > 2000)
        let requests = (0..<20_000).map { ids[$0 % ids.count] }
        let fd = try Sockets.connectUnix(path: socket)
        defer { fd.close() }
        let writer = Thread {
            let batch = Array(requests.map { #"{"op":"get","id":"\#($0)"}"# + "\n" }.joined().utf8)
            try? fd.writeAll(batch)
        }
        writer.start()
        let reader = LineReader(fd: fd)
        var answered = 0
        var sent = false
        var ending: Error?
        while true {
            let line: [UInt8]
            do { line = try reader.next() } catch { ending = error; break }
            // Every answer is whole and in order: the prefix of what was sent.
            #expect(((try? JSONParser.parse(line))?.ids) == [requests[answered]])
            answered += 1
            if answered == 100 && !sent {
                kill(daemon.processIdentifier, SIGTERM)
                sent = true
            }
        }
        #expect(daemon.waitUntilExit(seconds: 20), "daemon did not exit in 20 s")
        #expect(daemon.terminationStatus == 0)
        #expect(answered >= 100)
        // The connection ends at an answer's end: closed, not reset, and no answer cut short.
        #expect(ending is LineReader.Closed, "\(String(describing: ending))")
        #expect(reader.buffer == [], "a partial answer")
        #expect(!(FileManager.default.fileExists(atPath: socket)), "socket file removed")
    }

    @Test func sighupReloadsAValidConfigAndKeepsTheOldOneOtherwise() throws {
        let socket = directory + "/areasd.sock"
        let config = try writeConfig()
        let listener = try NotifyListener(path: directory + "/notify.sock")
        let (daemon, stderr) = try start(config: config, socket: socket, env: ["NOTIFY_SOCKET": listener.path])
        #expect(waitUntil { self.ask(socket, #"{"op":"health"}"#)?["loaded"]?.bool == true })
        // Drop the anyang source: after SIGHUP its areas are gone.
        var text = try String(contentsOfFile: config, encoding: .utf8)
        let start = try #require(text.range(of: "    {\n      \"name\": \"anyang\""))
        let end = try #require(text.range(of: "    },\n", range: start.upperBound..<text.endIndex))
        text.removeSubrange(start.lowerBound..<end.upperBound)
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        #expect(listener.wait(for: "READY=1").last?.contains("READY=1") == true, "started")
        kill(daemon.processIdentifier, SIGHUP)
        #expect(waitUntil { self.ask(socket, #"{"op":"stats"}"#)?["bySource"]?["anyang"] == nil }, "anyang dropped")
        #expect(listener.wait(for: "RELOADING=1").last?.contains("RELOADING=1") == true)
        while listener.receive(seconds: 0.5) != nil {}  // the first reload's messages
        #expect((ask(socket, #"{"op":"stats"}"#)?["areas"]?.double) == (Double(SampleCounts.total - SampleCounts.anyang)))

        try "{ not json".write(toFile: config, atomically: true, encoding: .utf8)
        kill(daemon.processIdentifier, SIGHUP)
        // Handled once it says READY again after RELOADING.
        #expect(listener.wait(for: "RELOADING=1").last?.contains("RELOADING=1") == true)
        #expect(listener.wait(for: "READY=1").last?.contains("READY=1") == true)
        #expect((ask(socket, #"{"op":"stats"}"#)?["areas"]?.double) == (Double(SampleCounts.total - SampleCounts.anyang)), "still serving the reloaded config")
        kill(daemon.processIdentifier, SIGTERM)
        #expect(daemon.waitUntilExit(seconds: 20), "daemon did not exit in 20 s")
        let log = String(decoding: stderr.readToEnd(), as: UTF8.self)
        #expect(log.contains("SIGHUP: reloaded"), Comment(rawValue: log))
        #expect(log.contains("SIGHUP: \(config): invalid JSON") && log.contains("keeping the running configuration"), Comment(rawValue: log))
    }

    @Test(.enabled(if: getuid() == 0, "needs root to run a client as another user (nobody)"),
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs setpriv (util-linux)"))
    func refreshIsDeniedToOtherUsers() throws {
        // nobody must reach the binary and the socket: a world-traversable folder and mode 0666.
        let shared = "/tmp/areas-ops-\(getpid())"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: shared) }
        let client = shared + "/areasctl"
        try Binaries.copy("areasctl", to: client)
        let socket = shared + "/areasd.sock"
        let (daemon, _) = try start(config: try writeConfig(extra: #"  "socketMode": "0666""#), socket: socket)
        defer { kill(daemon.processIdentifier, SIGTERM); _ = daemon.waitUntilExit(seconds: 20) }
        #expect(waitUntil { self.ask(socket, #"{"op":"health"}"#)?["loaded"]?.bool == true })
        var info = stat()
        stat(socket, &info)
        #expect((info.st_mode & 0o777) == 0o666)

        let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups", client, "--socket", socket]
        let health = try run("/usr/bin/setpriv", asNobody + ["health"])
        #expect(health.status == 0, Comment(rawValue: health.stderr))
        let refresh = try run("/usr/bin/setpriv", asNobody + ["refresh"])
        #expect(refresh.status == 77, "a refusal is told apart from a failed source")
        #expect(refresh.stderr.contains("permission_denied: refresh is allowed only to root"), Comment(rawValue: refresh.stderr))
        // Under a unit with private users every other user is seen as nobody: the refusal says
        // what the daemon saw and why, not "your uid is 65534" to a user whose uid is 1000.
        #expect(refresh.stderr.contains("the daemon sees your uid as 65534 (nobody)") && refresh.stderr.contains("PrivateUsers=yes")
                    && refresh.stderr.contains("sudo areasctl refresh"), Comment(rawValue: refresh.stderr))
        let asRoot = try Binaries.run("areasctl", ["--socket", socket, "refresh", "--quiet"])
        #expect(asRoot.status == 0, Comment(rawValue: asRoot.stderr))
    }

    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try Binaries.run(executable, arguments)
    }

    @Test func logFormats() {
        let journal = Logger(threshold: .debug, environment: ["JOURNAL_STREAM": "8:1234"], sink: { _ in })
        #expect((journal.format(.error, "bad\nthing")) == ("<3>bad | thing\n"))
        #expect((journal.format(.warning, "w")) == "<4>w\n")
        #expect((journal.format(.info, "i")) == "<6>i\n")
        #expect((journal.format(.debug, "d")) == "<7>d\n")
        let plain = Logger(threshold: .info, environment: [:], sink: { _ in })
        #expect((plain.format(.info, "hello").range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z info hello\n$"#, options: .regularExpression)) != nil)
        final class Lines: Sendable { let all = LockedValue<[String]>([]) }
        let lines = Lines()
        let filtered = Logger(threshold: .warning, environment: [:], sink: { line in lines.all.withLock { $0.append(line) } })
        filtered.info("hidden")
        filtered.error("shown")
        #expect((lines.all.withLock { $0.count }) == 1)
    }

    @Test func noLogLineEverHoldsTheKey() async throws {
        let key = "Zx9+secret/KEY=="
        final class Lines: Sendable { let all = LockedValue<[String]>([]) }
        let lines = Lines()
        let logger = Logger(threshold: .debug, environment: [:], sink: { line in lines.all.withLock { $0.append(line) } })
        let rejecting = try LoopbackHTTPServer { _ in .text(200, Fixtures.gatewayError("30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")) }
        defer { rejecting.stop() }
        let (closed, closedPort) = try Sockets.listenLoopbackTCP()
        closed.close()  // nothing listens there now: connection refused
        let sources = [
            Fixtures.source(name: "rejected", url: rejecting.baseURL + "/api", keyEnv: "AREAS_KEY"),
            Fixtures.source(name: "refused", url: "http://127.0.0.1:\(closedPort)/api", keyEnv: "AREAS_KEY", retries: 1),
        ]
        let empty = ServingState(.empty(), hasData: false, lastReport: nil, snapshotPath: directory + "/s", builtAt: 0)
        let service = AreaService(config: Fixtures.config(sources), state: empty, snapshotPath: directory + "/s", logger: logger,
                                  environment: ["AREAS_KEY": key])
        let report = try #require(await service.startRefresh(force: false).report())
        #expect(report.sources.map(\.status) == ([.failed, .failed]))
        let log = lines.all.withLock { $0.joined() }
        #expect(log.contains("rejected: failed") && log.contains("result code 30"), Comment(rawValue: log))
        #expect(log.contains("refused: failed"), Comment(rawValue: log))
        for fragment in [key, "Zx9", "secret", "KEY%3D", "Zx9%2Bsecret"] {
            #expect(!log.contains(fragment), "log holds '\(fragment)': \(log)")
        }
        var writer = JSONWriter()
        try service.execute(.stats, peerUID: 0, into: &writer)
        #expect(!(String(decoding: writer.bytes, as: UTF8.self).contains("secret")))
    }
}
