import AreasSystem
import Foundation

/// The sd_notify protocol without libsystemd: each message is one datagram of `KEY=value` lines
/// sent to the socket named by `$NOTIFY_SOCKET` (a path, or `@name` for an abstract socket).
package struct SystemdNotifier: Sendable {
    /// Opened once, at start: a socket made per message could not be had once clients hold
    /// every descriptor, and the watchdog would then go silent.
    private let sender: DatagramSender?
    /// Half of `$WATCHDOG_USEC`, when the watchdog is on and meant for this process.
    package let watchdogInterval: Double?

    package init(environment: [String: String] = ProcessInfo.processInfo.environment, pid: Int32 = CurrentProcess.id) {
        sender = environment["NOTIFY_SOCKET"].flatMap { DatagramSender(path: $0) }
        var interval: Double?
        if let text = environment["WATCHDOG_USEC"], let usec = Double(text), usec > 0 {
            let target = environment["WATCHDOG_PID"].flatMap { Int32($0) }
            if target == nil || target == pid { interval = usec / 2_000_000 }
        }
        watchdogInterval = interval
    }

    /// Sends one message; failures are ignored, as sd_notify does: the service must run without systemd.
    package func notify(_ message: String) {
        try? sender?.send(Array(message.utf8))
    }

    package func ready(status: String) { notify("READY=1\nSTATUS=\(status)") }
    package func status(_ status: String) { notify("STATUS=\(status)") }
    package func stopping() { notify("STOPPING=1\nSTATUS=stopping") }
    package func watchdog() { notify("WATCHDOG=1") }

    /// `RELOADING=1` with the monotonic time systemd expects alongside it.
    package func reloading() {
        notify("RELOADING=1\nMONOTONIC_USEC=\(MonotonicClock.microseconds)")
    }
}
