import AreasSystem
import Foundation
import Glibc

/// The sd_notify protocol without libsystemd: each message is one datagram of `KEY=value` lines
/// sent to the socket named by `$NOTIFY_SOCKET` (a path, or `@name` for an abstract socket).
public struct SystemdNotifier: Sendable {
    private let address: sockaddr_un?
    private let addressLength: socklen_t
    /// Half of `$WATCHDOG_USEC`, when the watchdog is on and meant for this process.
    public let watchdogInterval: Double?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment, pid: Int32 = getpid()) {
        var address: sockaddr_un?
        var length: socklen_t = 0
        if let path = environment["NOTIFY_SOCKET"], !path.isEmpty {
            var bytes = Array(path.utf8)
            let abstract = bytes.first == UInt8(ascii: "@")
            if abstract { bytes[0] = 0 }
            if bytes.count <= Sockets.maximumPathLength {
                var a = sockaddr_un()
                a.sun_family = sa_family_t(AF_UNIX)
                withUnsafeMutableBytes(of: &a.sun_path) { $0.copyBytes(from: bytes) }
                address = a
                // Abstract names are exactly their bytes; paths include the terminating NUL.
                let base = MemoryLayout<sa_family_t>.size
                length = socklen_t(base + bytes.count + (abstract ? 0 : 1))
            }
        }
        self.address = address
        self.addressLength = length
        var interval: Double?
        if let text = environment["WATCHDOG_USEC"], let usec = Double(text), usec > 0 {
            let target = environment["WATCHDOG_PID"].flatMap { Int32($0) }
            if target == nil || target == pid { interval = usec / 2_000_000 }
        }
        watchdogInterval = interval
    }

    public var isEnabled: Bool { address != nil }

    /// Sends one message; failures are ignored, as sd_notify does: the service must run without systemd.
    public func notify(_ message: String) {
        guard var address else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(message.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer in
                bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sockaddrPointer, addressLength) }
            }
        }
    }

    public func ready(status: String) { notify("READY=1\nSTATUS=\(status)") }
    public func status(_ status: String) { notify("STATUS=\(status)") }
    public func stopping() { notify("STOPPING=1\nSTATUS=stopping") }
    public func watchdog() { notify("WATCHDOG=1") }

    /// `RELOADING=1` with the monotonic time systemd expects alongside it.
    public func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        notify("RELOADING=1\nMONOTONIC_USEC=\(Int(now.tv_sec) * 1_000_000 + Int(now.tv_nsec) / 1000)")
    }
}
