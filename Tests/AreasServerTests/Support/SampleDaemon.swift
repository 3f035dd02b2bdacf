import AreasSystem
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
    private let stderr: DaemonLog
    private var log: String?

    /// `extra` members go into the sample config (`bundled`, the default samples unless
    /// named; the city's crowd levels only with `crowd`), less the `lines` named; `arguments`
    /// follow the config and socket.
    /// A daemon given boundaries reads them before its first refresh finishes: seconds of a
    /// debug build's time, more on a machine busy with other tests, so it gets longer to load.
    init(extra: String = "", arguments: [String] = [], bundled: String = Fixtures.samplesConfigFile, overrides: Bool = false, crowd: Bool = false,
         removing lines: [String] = []) throws {
        socket = folder + "/areasd.sock"
        config = try Fixtures.sampleConfig(in: folder, extra: extra, from: bundled, overrides: overrides, crowd: crowd, removing: lines)
        (process, stderr) = try Binaries.startDaemon(["--config", config, "--socket", socket] + arguments)
        guard DaemonQuestions.waitUntilLoaded(socket, seconds: extra.contains(#""regions""#) ? 90 : 20) else {
            _ = stop()
            throw DaemonDidNotStart()
        }
    }

    struct DaemonDidNotStart: Error {}

    var pid: Int32 { process.processIdentifier }

    /// What it has logged so far, without waiting.
    var logSoFar: String { stderr.text }

    /// Stops the daemon (once) and returns its log.
    @discardableResult
    func stop() -> String {
        if let log { return log }
        kill(process.processIdentifier, SIGTERM)
        _ = process.waitUntilExit(seconds: 20)
        let text = String(decoding: stderr.readToEnd(), as: UTF8.self)
        log = text
        return text
    }

    deinit { stop() }
}

extension SampleDaemon {
    /// A sample daemon with the HTTP front door on a free loopback port (and any `extra`
    /// members); returns it and the "127.0.0.1:PORT" it listens on.
    static func withHTTP(_ http: String = "", extra: String = "", bundled: String = Fixtures.samplesConfigFile, crowd: Bool = false) throws -> (SampleDaemon, String) {
        let members = #""http": {"listen": "127.0.0.1:0"\#(http.isEmpty ? "" : ", " + http)}"# + (extra.isEmpty ? "" : ", " + extra)
        let daemon = try SampleDaemon(extra: members, bundled: bundled, crowd: crowd)
        guard let address = daemon.stderr.httpAddress() else { throw DaemonDidNotStart() }
        return (daemon, address)
    }
}

/// "127.0.0.1:PORT" for a port nothing listens on now: for a server that cannot say which
/// port it bound (nginx), or a client that must find nobody there. areasd is given port 0.
func freeLoopbackAddress() throws -> String {
    let (probe, port) = try Sockets.listenLoopbackTCP()
    probe.close()
    return "127.0.0.1:\(port)"
}
