import Glibc

/// A file descriptor with the few operations the server and its tests need, each turning
/// errno into a thrown `SystemError`. A value type; closing is explicit.
package struct FileDescriptor: Sendable, Hashable {
    package let rawValue: Int32

    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Reads up to `count` bytes into `buffer`; 0 at end of stream.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try systemCall("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads as `read(into:)` does, waiting no later than `deadline` (`MonotonicClock.seconds`):
    /// the receive time-out is set to what is left of it before each read, so a peer sending a
    /// byte at a time cannot stretch one deadline into a wait per byte. Past the deadline it
    /// fails as a time-out does (EAGAIN).
    package func read(into buffer: UnsafeMutableRawBufferPointer, by deadline: Double) throws(SystemError) -> Int {
        let left = deadline - MonotonicClock.seconds
        guard left > 0 else { throw SystemError("read", errno: EAGAIN) }
        try setTimeout(.receive, seconds: left)
        return try read(into: buffer)
    }

    /// Writes some of `bytes`; returns how many were written.
    ///
    /// On a socket this is `send` with `MSG_NOSIGNAL`: a peer that hung up is an EPIPE error
    /// for this call, not a SIGPIPE that kills the whole process.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        while true {
            let sent = send(rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if sent >= 0 { return sent }
            if errno == EINTR { continue }
            if errno == ENOTSOCK { break }
            throw SystemError("write")
        }
        return try systemCall("write") { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// Writes every byte, blocking as needed.
    package func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        let result: Result<Void, SystemError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(SystemError) { return .success(try writeAll(buffer)) } catch { return .failure(error) }
        }
        try result.get()
    }

    /// Writes every byte, however many calls it takes.
    package func writeAll(_ bytes: UnsafeBufferPointer<UInt8>) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            offset += try write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[offset...]))
        }
    }

    /// Writes every byte of a raw buffer.
    package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            offset += try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
    }

    /// Writes `head` and then `body` on a socket with one `sendmsg` while the socket takes them
    /// whole, so an HTTP answer's head and body leave together rather than as two packets.
    package func writeAll(_ head: UnsafeRawBufferPointer, _ body: UnsafeRawBufferPointer) throws(SystemError) {
        var written = 0
        let total = head.count + body.count
        while written < total {
            let sent = withUnsafeTemporaryAllocation(of: iovec.self, capacity: 2) { vectors -> Int in
                var count = 0
                if written < head.count {
                    vectors[count] = iovec(iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress! + written), iov_len: head.count - written)
                    count += 1
                }
                let bodyOffset = Swift.max(0, written - head.count)
                if bodyOffset < body.count, let base = body.baseAddress {
                    vectors[count] = iovec(iov_base: UnsafeMutableRawPointer(mutating: base + bodyOffset), iov_len: body.count - bodyOffset)
                    count += 1
                }
                var message = msghdr()
                message.msg_iov = vectors.baseAddress
                message.msg_iovlen = count
                return sendmsg(rawValue, &message, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw SystemError("sendmsg")
            }
            written += sent
        }
    }

    package func close() {
        _ = Glibc.close(rawValue)
    }

    package func setNonBlocking(_ on: Bool = true) throws(SystemError) {
        let flags = try systemCall("fcntl") { fcntl(rawValue, F_GETFL) }
        try systemCall("fcntl") { fcntl(rawValue, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK) }
    }

    /// Which wait of a socket a time-out bounds.
    package enum Wait: Sendable {
        case receive, send
    }

    /// Sets `SO_RCVTIMEO` or `SO_SNDTIMEO`: a blocking receive or send that waits longer fails
    /// with EAGAIN (`SystemError.isTimeout`). The value is clamped to at least a millisecond, as
    /// 0 would mean "forever".
    package func setTimeout(_ wait: Wait, seconds: Double) throws(SystemError) {
        try setTimeout(wait == .receive ? SO_RCVTIMEO : SO_SNDTIMEO, seconds: seconds)
    }

    func setTimeout(_ option: Int32, seconds: Double) throws(SystemError) {
        let clamped = Swift.max(0.001, Swift.min(seconds, 86_400 * 365))
        var value = timeval(tv_sec: Int(clamped), tv_usec: Int((clamped - clamped.rounded(.down)) * 1e6))
        try systemCall("setsockopt") { setsockopt(rawValue, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size)) }
    }

    package func setCloseOnExec() throws(SystemError) {
        try systemCall("fcntl") { fcntl(rawValue, F_SETFD, FD_CLOEXEC) }
    }
}
