import AreasTestTraits
import AreasTestSupport
import Foundation
import Glibc
import Testing
@testable import AreasControl
@testable import AreasCore
@testable import AreasIngest
@testable import AreasProtocol
@testable import AreasServer
@testable import AreasSystem

/// An areasd service on a real Unix socket in a temporary folder, in this process.
final class TestServer: Sendable {
    let directory: String
    let socketPath: String
    let service: AreaService
    let server: ConnectionServer

    init(config: AreasConfig, limits: ConnectionServer.Limits = .init(), refresh: Bool = true) async throws {
        directory = Fixtures.temporaryDirectory()
        socketPath = directory + "/areasd.sock"
        let logger = Logger(threshold: .error, environment: [:], sink: { _ in })
        let empty = ServingState(.empty(), hasData: false, lastReport: nil, snapshotPath: directory + "/areas.snapshot", builtAt: 0)
        service = AreaService(config: config, state: empty, snapshotPath: directory + "/areas.snapshot", logger: logger, environment: [:])
        if refresh { _ = await service.startRefresh(force: false).report() }
        try SocketPath.prepare(socketPath)
        server = try ConnectionServer(listener: try Sockets.listenUnix(path: socketPath), service: service, limits: limits)
        try server.start()
    }

    static func samples(limits: ConnectionServer.Limits = .init()) async throws -> TestServer {
        try await TestServer(config: AreasConfig.load(path: Fixtures.samplesConfig), limits: limits)
    }

    /// A client whose every wait has a deadline, so a server that never answers fails the test.
    func client() throws -> AreasClient { try AreasClient(path: socketPath, timeoutSeconds: DaemonQuestions.answerDeadline) }

    /// Sends one request and parses the answer.
    func ask(_ request: String, on client: AreasClient? = nil) throws -> JSONValue {
        let connection = try client ?? self.client()
        return try JSONParser.parse(try connection.send(Array(request.utf8)))
    }

    func stop() {
        server.stop(timeout: 5)
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }
}

extension AreaService.RefreshJobHandle {
    /// The refresh's report, waited for on a thread of its own: the refresh runs on the
    /// cooperative pool, and a test blocking one of its few threads (two on two cores) to wait
    /// could leave it none to run on.
    func report() async -> RefreshReport? { await OffThePool.value { wait() } }
}

extension JSONValue {
    var ids: [String] { self["areas"]?.array.compactMap { $0["id"]?.string } ?? [] }
    /// The value without any `firstSeen` member, at any depth: what two daemons that made the
    /// same data at different times answer alike.
    var withoutFirstSeen: JSONValue {
        switch self {
        case .object(let members): .object(members.filter { $0.0 != "firstSeen" }.map { ($0.0, $0.1.withoutFirstSeen) })
        case .array(let items): .array(items.map(\.withoutFirstSeen))
        default: self
        }
    }
    var errorCode: String? { self["error"]?["code"]?.string }
}

/// Where the package's executables were built.
enum Binaries {
    static func path(_ name: String) -> String {
        var url = Bundle.main.bundleURL
        if !FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path) {
            url = URL(fileURLWithPath: Fixtures.root + "/.build/debug")
        }
        return url.appendingPathComponent(name).path
    }

    /// A copy of executable `name` at `destination`, written through a descriptor closed on
    /// exec: a copy whose write descriptor a process spawned meanwhile inherited could not be
    /// run while that process lives ("Text file busy").
    static func copy(_ name: String, to destination: String) throws {
        guard let bytes = try WholeFile.read(path(name), limit: 1 << 30) else { throw CocoaError(.fileNoSuchFile) }
        try WholeFile.replace(destination, with: bytes, permissions: 0o755)
    }

    /// Starts areasd with a clean systemd-free environment plus `environment`; its stderr is
    /// read as it comes, its stdout goes nowhere (an orphan then holds no pipe of the test
    /// run's open). `executable` runs instead of areasd when given (a wrapper such as
    /// `prlimit`, with areasd among `arguments`). The caller kills it in a `defer` (or starts
    /// it through `StartedDaemons`); every daemon still running when the test process exits is
    /// killed then.
    static func startDaemon(_ arguments: [String], environment extra: [String: String] = [:], executable: String? = nil) throws -> (Process, DaemonLog) {
        requireEndToEnd("areasd")
        _ = killedAtExit
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? path("areasd"))
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_PID", "LISTEN_FDS", "JOURNAL_STREAM"] { environment[key] = nil }
        for (k, v) in extra { environment[k] = v }
        process.environment = environment
        let log = DaemonLog()
        process.standardError = log.pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        log.start()
        _ = started.withLock { $0.insert(process.processIdentifier) }
        return (process, log)
    }

    /// A test that runs one of the package's binaries is an end-to-end test, and is named so.
    private static func requireEndToEnd(_ binary: String) {
        if currentTestIsEndToEnd() == false {
            Issue.record("this test runs \(binary): tag it, or its suite, .endToEnd")
        }
    }

    /// The daemons started and not yet seen to exit.
    static let started = LockedValue<Set<Int32>>([])

    private static let killedAtExit: Void = {
        atexit {
            for pid in Binaries.started.withLock({ pids in defer { pids = [] }; return pids }) { kill(pid, SIGKILL) }
        }
    }()

    /// Runs a program (one of ours by name, or any by absolute path) to completion, returning
    /// its exit status and output.
    ///
    /// areasctl is not run against a socket whose daemon let a question go unanswered before
    /// (`SilentPeers`): status -1, and stderr says why.
    static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:], seconds: Double = 30) throws -> (status: Int32, stdout: String, stderr: String) {
        if name == "areasctl", let flag = arguments.firstIndex(of: "--socket"), flag + 1 < arguments.count, SilentPeers.contains(arguments[flag + 1]) {
            return (-1, "", "not run: the daemon at \(arguments[flag + 1]) let a question go unanswered before")
        }
        if !name.hasPrefix("/") { requireEndToEnd(name) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: name.hasPrefix("/") ? name : path(name))
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        // Both read at once, each on its own thread: a child that fills one pipe while the test
        // waits on the other would never finish.
        let out = DaemonLog(), err = DaemonLog()
        process.standardOutput = out.pipe
        process.standardError = err.pipe
        try process.run()
        out.start()
        err.start()
        // A child that does not finish in time is killed, so the test fails instead of hanging.
        let finished = process.waitUntilExit(seconds: seconds)
        let stdout = out.readToEnd(seconds: finished ? 30 : 1)
        let stderr = err.readToEnd(seconds: finished ? 30 : 1)
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}

/// The daemons one test started, killed when its suite instance (which lives for that one test)
/// is released, whatever the test threw or failed before it could stop them; only its own, as
/// other suites' tests run beside it. Then `folder`, when given, is removed.
final class StartedDaemons {
    private var processes: [Process] = []
    private let folder: String?

    init(removing folder: String? = nil) { self.folder = folder }

    func start(_ arguments: [String], environment: [String: String] = [:], executable: String? = nil) throws -> (Process, DaemonLog) {
        let started = try Binaries.startDaemon(arguments, environment: environment, executable: executable)
        processes.append(started.0)
        return started
    }

    deinit {
        for process in processes where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            _ = process.waitUntilExit(seconds: 10)
        }
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }
}

extension Process {
    /// Waits for the process to exit, at most `seconds`; past that it is killed and the answer
    /// is false.
    func waitUntilExit(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning && Date() < deadline { usleep(10_000) }
        guard isRunning else {
            waitUntilExit()
            _ = Binaries.started.withLock { $0.remove(processIdentifier) }
            return true
        }
        kill(processIdentifier, SIGKILL)
        waitUntilExit()
        _ = Binaries.started.withLock { $0.remove(processIdentifier) }
        return false
    }
}
