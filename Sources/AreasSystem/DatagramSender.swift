import Glibc

/// A Unix datagram socket opened once and bound to one destination, for messages that must
/// get through even when every other descriptor is taken (systemd's notify socket).
package final class DatagramSender: Sendable {
    private let socket: FileDescriptor
    private let address: sockaddr_un
    private let addressLength: socklen_t

    /// A sender to `path`, or to the abstract socket `@name`; nil when the name is too long or
    /// no socket can be made.
    package init?(path: String) {
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        guard !bytes.isEmpty, bytes.count <= Sockets.maximumPathLength else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        self.address = address
        // Abstract names are exactly their bytes; paths include the terminating NUL.
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let raw = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else { return nil }
        socket = FileDescriptor(rawValue: raw)
    }

    deinit { socket.close() }

    /// Sends one datagram.
    package func send(_ bytes: [UInt8]) throws(SystemError) {
        var address = self.address
        let length = addressLength
        let fd = socket.rawValue
        try systemCall("sendto") {
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                    bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), target, length) }
                }
            }
        }
    }
}
