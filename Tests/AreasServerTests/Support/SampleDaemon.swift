import AreasTestSupport
import Foundation
import Glibc
import Testing

/// A real areasd serving the bundled samples from a folder of its own, for tests that drive
/// the binaries. Started loaded; `stop()` sends SIGTERM and returns what it logged.
final class SampleDaemon {
    let folder = Fixtures.temporaryDirectory()
    let socket: String
    let config: String
    let process: Process
    private let stderr: Pipe
    private var log: String?

    /// `extra` members go into the sample config; `arguments` follow the config and socket.
    init(extra: String = "", arguments: [String] = []) throws {
        socket = folder + "/areasd.sock"
        config = try Fixtures.sampleConfig(in: folder, extra: extra)
        (process, stderr) = try Binaries.startDaemon(["--config", config, "--socket", socket] + arguments)
        guard DaemonQuestions.waitUntilLoaded(socket) else {
            _ = stop()
            throw DaemonDidNotStart()
        }
    }

    struct DaemonDidNotStart: Error {}

    var pid: Int32 { process.processIdentifier }

    /// Stops the daemon (once) and returns its log.
    @discardableResult
    func stop() -> String {
        if let log { return log }
        kill(process.processIdentifier, SIGTERM)
        _ = process.waitUntilExit(seconds: 20)
        let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        log = text
        return text
    }

    deinit { stop() }
}
