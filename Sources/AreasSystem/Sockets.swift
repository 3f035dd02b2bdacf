import Glibc

/// Socket set-up, wrapped once: Unix-domain stream sockets for the daemon, and loopback TCP
/// for the local HTTP server the fetcher is tested against.
package enum Sockets {
    /// `sun_path` holds 108 bytes including the terminating NUL.
    package static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Why a Unix socket path cannot be used.
    package struct PathTooLong: Error, CustomStringConvertible {
        package var path: String
        package var description: String {
            "socket path is \(path.utf8.count) bytes, longer than the \(Sockets.maximumPathLength) a Unix socket allows: \(path)"
        }
    }

    static func unixAddress(_ path: String) throws(PathTooLong) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumPathLength, !bytes.isEmpty else { throw PathTooLong(path: path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    private static func withSockaddr<A, R>(_ address: inout A, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<A>.size)) }
        }
    }

    private static func makeSocket(_ domain: Int32) throws(SystemError) -> FileDescriptor {
        let fd = try systemCall("socket") { socket(domain, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        return FileDescriptor(rawValue: fd)
    }

    /// A listening Unix socket at `path` (which must not exist).
    package static func listenUnix(path: String, backlog: Int32 = 1024) throws -> FileDescriptor {
        var address = try unixAddress(path)
        let fd = try makeSocket(AF_UNIX)
        do {
            try systemCall("bind", subject: path) { withSockaddr(&address) { bind(fd.rawValue, $0, $1) } }
            try systemCall("listen", subject: path) { listen(fd.rawValue, backlog) }
        } catch {
            fd.close()
            throw error
        }
        return fd
    }

    /// A connected Unix socket to `path`. With `timeoutSeconds`, a connect that waits on a full
    /// backlog, and each later send and receive, gives up after that long (EAGAIN).
    package static func connectUnix(path: String, timeoutSeconds: Double? = nil) throws -> FileDescriptor {
        var address = try unixAddress(path)
        let fd = try makeSocket(AF_UNIX)
        do {
            if let timeoutSeconds {
                try fd.setTimeout(SO_SNDTIMEO, seconds: timeoutSeconds)
                try fd.setTimeout(SO_RCVTIMEO, seconds: timeoutSeconds)
            }
            try systemCall("connect", subject: path) { withSockaddr(&address) { connect(fd.rawValue, $0, $1) } }
        } catch {
            fd.close()
            throw error
        }
        return fd
    }

    /// A listening TCP socket on 127.0.0.1 with a port the kernel picks; returns it and the port.
    package static func listenLoopbackTCP(backlog: Int32 = 128) throws(SystemError) -> (FileDescriptor, UInt16) {
        let fd = try makeSocket(AF_INET)
        var one: Int32 = 1
        _ = setsockopt(fd.rawValue, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        do {
            try systemCall("bind") { withSockaddr(&address) { bind(fd.rawValue, $0, $1) } }
            try systemCall("listen") { listen(fd.rawValue, backlog) }
            var bound = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            try systemCall("getsockname") {
                withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd.rawValue, $0, &length) } }
            }
            return (fd, UInt16(bigEndian: bound.sin_port))
        } catch {
            fd.close()
            throw error
        }
    }

    /// A listening TCP socket on `host:port` ("127.0.0.1:8080", "[::1]:8080", "0.0.0.0:80";
    /// `localhost` is 127.0.0.1). Port 0 lets the kernel pick; the bound port is returned.
    package static func listenTCP(_ address: String, backlog: Int32 = 1024) throws -> (FileDescriptor, UInt16) {
        let found = try resolve(address, passive: true)
        defer { freeaddrinfo(found) }
        let info = found
        let fd = try makeSocket(info.pointee.ai_family)
        var one: Int32 = 1
        _ = setsockopt(fd.rawValue, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        do {
            try systemCall("bind", subject: address) { bind(fd.rawValue, info.pointee.ai_addr, info.pointee.ai_addrlen) }
            try systemCall("listen", subject: address) { listen(fd.rawValue, backlog) }
            var bound = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            try systemCall("getsockname") {
                withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd.rawValue, $0, &length) } }
            }
            let boundPort = withUnsafeBytes(of: &bound) { raw -> UInt16 in
                // sin_port and sin6_port sit at the same offset, after the family.
                UInt16(bigEndian: raw.load(fromByteOffset: 2, as: UInt16.self))
            }
            return (fd, boundPort)
        } catch {
            fd.close()
            throw error
        }
    }

    /// A TCP connection to `host:port` (numeric addresses); with `timeoutSeconds`, each send
    /// and receive gives up after that long.
    package static func connectTCP(_ address: String, timeoutSeconds: Double? = nil) throws -> FileDescriptor {
        let found = try resolve(address, passive: false)
        defer { freeaddrinfo(found) }
        let info = found
        let fd = try makeSocket(info.pointee.ai_family)
        do {
            if let timeoutSeconds {
                try fd.setTimeout(SO_SNDTIMEO, seconds: timeoutSeconds)
                try fd.setTimeout(SO_RCVTIMEO, seconds: timeoutSeconds)
            }
            try systemCall("connect", subject: address) { connect(fd.rawValue, info.pointee.ai_addr, info.pointee.ai_addrlen) }
        } catch {
            fd.close()
            throw error
        }
        setNoDelay(fd)
        return fd
    }

    /// "HOST:PORT" as a socket address (numeric hosts only, `localhost` as 127.0.0.1); the
    /// caller frees it with `freeaddrinfo`.
    private static func resolve(_ address: String, passive: Bool) throws -> UnsafeMutablePointer<addrinfo> {
        let (host, port) = try TCPAddress.parse(address)
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host == "localhost" ? "127.0.0.1" : host, String(port), &hints, &found)
        guard status == 0, let info = found else { throw TCPAddress.Invalid(address: address, reason: String(cString: gai_strerror(status))) }
        return info
    }

    /// Turns off Nagle's algorithm on a TCP connection (a no-op on a Unix socket): an answer
    /// goes out at once, not after the client's delayed acknowledgement.
    package static func setNoDelay(_ fd: FileDescriptor) {
        var one: Int32 = 1
        _ = setsockopt(fd.rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Sends `count` bytes of `file`, from its start, to `socket` (sendfile: no copy through
    /// the process).
    package static func sendFile(_ file: FileDescriptor, count: Int, to socket: FileDescriptor) throws(SystemError) {
        var offset = off_t(0)
        while Int(offset) < count {
            let sent = sendfile(socket.rawValue, file.rawValue, &offset, count - Int(offset))
            if sent < 0 {
                if errno == EINTR { continue }
                throw SystemError("sendfile")
            }
            if sent == 0 { throw SystemError("sendfile", errno: EPIPE) }
        }
    }

    /// Accepts one connection, close-on-exec.
    /// Waits for a connection on `listener` or for `wakeup`, whichever comes first: the
    /// connection, or nil once woken. A listener systemd passed in may only be closed, never
    /// shut down (that would end it for the next start too), so a loop blocked here is woken
    /// this way instead. `listener` must be non-blocking (`setNonBlocking`, once): a connection
    /// that went away between the wait and the accept then costs one more wait, not a blocked
    /// thread.
    package static func accept(_ listener: FileDescriptor, unless wakeup: Wakeup) throws(SystemError) -> FileDescriptor? {
        var fds = [pollfd(fd: listener.rawValue, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeup.readEnd.rawValue, events: Int16(POLLIN), revents: 0)]
        while true {
            try systemCall("poll") { poll(&fds, 2, -1) }
            if fds[1].revents != 0 { return nil }
            do {
                return try accept(listener)
            } catch where error.isTimeout {
                continue
            }
        }
    }

    package static func accept(_ listener: FileDescriptor) throws(SystemError) -> FileDescriptor {
        let fd = try systemCall("accept") { Glibc.accept(listener.rawValue, nil, nil) }
        let connection = FileDescriptor(rawValue: fd)
        try? connection.setCloseOnExec()
        return connection
    }

    /// Which directions `shutdown` ends.
    package enum Direction: Sendable {
        case reading, writing, both
        var raw: Int32 {
            switch self {
            case .reading: return Int32(SHUT_RD)
            case .writing: return Int32(SHUT_WR)
            case .both: return Int32(SHUT_RDWR)
            }
        }
    }

    /// Ends one or both directions of a connection: a reader blocked on it sees the end of
    /// input, the peer sees the end of the answers. Best effort: a socket already closed by
    /// the peer has nothing to end.
    package static func shutdown(_ fd: FileDescriptor, _ direction: Direction) {
        _ = Glibc.shutdown(fd.rawValue, direction.raw)
    }

    /// True when the peer has closed its socket (hang-up or error), found without reading. A
    /// peer that only shut down its writing half, and waits for its answers, has not gone.
    package static func peerHasHungUp(_ fd: FileDescriptor) -> Bool {
        var entry = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) == 1 else { return false }
        return entry.revents & Int16(POLLHUP | POLLERR) != 0
    }

    /// Sends what the socket buffer takes now, without waiting: a last notice to a client that
    /// may not be reading. Returns the bytes sent, or nil.
    @discardableResult
    package static func sendWithoutWaiting(_ fd: FileDescriptor, _ bytes: [UInt8]) -> Int? {
        let sent = bytes.withUnsafeBytes { send(fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }
        return sent >= 0 ? sent : nil
    }

    /// The uid of the process at the other end of a Unix socket (SO_PEERCRED).
    package static func peerUID(_ fd: FileDescriptor) -> UInt32? {
        // struct ucred is behind _GNU_SOURCE; its layout is fixed: pid, uid, gid.
        struct PeerCredentials { var pid: Int32 = 0; var uid: UInt32 = 0; var gid: UInt32 = 0 }
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd.rawValue, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.uid
    }
}
