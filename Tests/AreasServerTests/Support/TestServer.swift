import AreasTestSupport
import Foundation
import Glibc
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
        if refresh {
            // Waited for on a thread of its own: blocking one of the few threads Swift
            // Testing's concurrent tests share could leave the refresh none to run on.
            let job = service.startRefresh(force: false)
            _ = await withCheckedContinuation { (done: CheckedContinuation<RefreshReport?, Never>) in
                Thread { done.resume(returning: job.wait()) }.start()
            }
        }
        try SocketPath.prepare(socketPath)
        server = ConnectionServer(listener: try Sockets.listenUnix(path: socketPath), service: service, limits: limits)
        try server.start()
    }

    static func samples(limits: ConnectionServer.Limits = .init()) async throws -> TestServer {
        try await TestServer(config: AreasConfig.load(path: Fixtures.path("config/areasd.json")), limits: limits)
    }

    func client() throws -> AreasClient { try AreasClient(path: socketPath) }

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

extension JSONValue {
    var ids: [String] { self["areas"]?.array.compactMap { $0["id"]?.string } ?? [] }
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

    /// Starts areasd with a clean systemd-free environment plus `environment`; stderr is piped.
    /// `executable` runs instead of areasd when given (a wrapper such as `prlimit`, with areasd
    /// among `arguments`).
    static func startDaemon(_ arguments: [String], environment extra: [String: String] = [:], executable: String? = nil) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? path("areasd"))
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_PID", "LISTEN_FDS", "JOURNAL_STREAM"] { environment[key] = nil }
        for (k, v) in extra { environment[k] = v }
        process.environment = environment
        let err = Pipe()
        process.standardError = err
        try process.run()
        return (process, err)
    }

    /// Runs a program (one of ours by name, or any by absolute path) to completion, returning
    /// its exit status and output.
    static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: name.hasPrefix("/") ? name : path(name))
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // A child that does not finish in time is killed, so the test fails instead of hanging.
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { if process.isRunning { kill(pid, SIGKILL) } }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
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
            return true
        }
        kill(processIdentifier, SIGKILL)
        waitUntilExit()
        return false
    }
}
