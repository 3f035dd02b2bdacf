import Glibc

/// Process-wide signal dispositions.
package enum Signals {
    /// The signal is ignored from now on (SIGPIPE: a write to a closed peer is an error
    /// return, not the end of the process).
    package static func ignore(_ signal: Int32) {
        _ = Glibc.signal(signal, SIG_IGN)
    }

    /// On SIGBUS, writes `message` (a line) to standard error and ends the process with
    /// status 75 (EX_TEMPFAIL). A bus error here means a mapped file was cut short under a
    /// reader (a snapshot overwritten in place rather than replaced by a rename); no thread
    /// can go on from it, but the log then says what happened and the service manager starts
    /// the daemon again, which loads whatever file is there.
    /// Writes `message` (a line) to standard error and ends the process with status 75, as a
    /// bus error does: for a mapped file found changed under the daemon by other means.
    package static func exitForRestart(message: String) -> Never {
        let line = Array((message + "\n").utf8)
        line.withUnsafeBufferPointer { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        _exit(75)
    }

    package static func exitOnBusError(message: String) {
        let line = Array((message + "\n").utf8)
        let text = UnsafeMutablePointer<UInt8>.allocate(capacity: line.count)
        text.initialize(from: line, count: line.count)
        BusErrorMessage.text = UnsafePointer(text)
        BusErrorMessage.count = line.count
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            // Only async-signal-safe calls: write(2) and _exit(2).
            if let text = BusErrorMessage.text { _ = write(STDERR_FILENO, text, BusErrorMessage.count) }
            _exit(75)
        }
        sigemptyset(&action.sa_mask)
        _ = sigaction(SIGBUS, &action, nil)
    }
}

/// The line the SIGBUS handler writes, set once before the handler is installed.
private enum BusErrorMessage {
    nonisolated(unsafe) static var text: UnsafePointer<UInt8>?
    nonisolated(unsafe) static var count = 0
}
