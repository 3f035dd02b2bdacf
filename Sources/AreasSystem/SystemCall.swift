import Glibc

/// A failed system call: which call, on what, and errno's meaning.
package struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    package var call: String
    package var errno: Int32
    package var subject: String?

    package init(_ call: String, errno: Int32 = Glibc.errno, subject: String? = nil) {
        self.call = call
        self.errno = errno
        self.subject = subject
    }

    /// A blocking call waited past its time-out (EAGAIN).
    package var isTimeout: Bool { errno == EAGAIN || errno == EWOULDBLOCK }

    /// Nothing is at the path (ENOENT).
    package var isNoSuchFile: Bool { errno == ENOENT }

    /// errno in words, as `strerror` gives it ("No such file or directory").
    package var reason: String { String(cString: strerror(errno)) }

    package var description: String {
        "\(call)" + (subject.map { " \($0)" } ?? "") + ": \(reason)"
    }
}

/// Runs a system call, turning -1 into a thrown `SystemError`. With `retryOnInterrupt` (the
/// default, as swift-system does) a call a signal interrupted is made again; a caller that
/// must see EINTR (a wait meant to end on a signal) says false.
@discardableResult
@inline(__always)
func systemCall<T: FixedWidthInteger>(
    _ name: String, subject: String? = nil, retryOnInterrupt: Bool = true, _ call: () -> T
) throws(SystemError) -> T {
    while true {
        let result = call()
        if result >= 0 { return result }
        if retryOnInterrupt && errno == EINTR { continue }
        throw SystemError(name, subject: subject)
    }
}
