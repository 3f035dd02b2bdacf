import Foundation

/// A child's standard error (or output), read as it comes on a thread of its own: a daemon
/// that logs more than a pipe holds never blocks on it, and a test reads all of it once the
/// child has closed its end.
final class DaemonLog: @unchecked Sendable {
    let pipe = Pipe()
    private let lock = NSLock()
    private var data = Data()
    private let finished = DispatchSemaphore(value: 0)

    /// Starts reading; call once the child has been started with `pipe`.
    func start() {
        let handle = pipe.fileHandleForReading
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock { data.append(chunk) }
            }
            finished.signal()
        }.start()
    }

    /// Everything written, once the child closed its end; after `seconds` (a grandchild that
    /// inherited the pipe and still holds it) what was written so far.
    func readToEnd(seconds: Double = 30) -> Data {
        if finished.wait(timeout: .now() + seconds) == .success { finished.signal() }
        return lock.withLock { data }
    }

    /// What was written so far, without waiting.
    var text: String { String(decoding: lock.withLock { data }, as: UTF8.self) }

    /// The loopback address a daemon says its HTTP front door listens on ("HTTP on
    /// 127.0.0.1:PORT"), waiting at most `seconds` for the line. A test configures port 0 and
    /// reads the port here: the kernel picks one no other test holds, where a port found free
    /// first and bound later can be taken in between.
    func httpAddress(seconds: Double = 20) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if let match = text.firstMatch(of: /HTTP on (127\.0\.0\.1:[0-9]+)/) { return String(match.1) }
            usleep(20_000)
        } while Date() < deadline
        return nil
    }
}
