import Glibc

/// A failed system call: which call, on what, and errno's meaning.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public var call: String
    public var errno: Int32
    public var subject: String?

    public init(_ call: String, errno: Int32 = Glibc.errno, subject: String? = nil) {
        self.call = call
        self.errno = errno
        self.subject = subject
    }

    public var reason: String { String(cString: strerror(errno)) }

    public var description: String {
        "\(call)" + (subject.map { " \($0)" } ?? "") + ": \(reason)"
    }
}

/// Runs a system call, retrying on EINTR, turning -1 into a thrown `SystemError`.
@discardableResult
@inline(__always)
func retryingSystemCall<T: FixedWidthInteger>(_ name: String, subject: String? = nil, _ call: () -> T) throws(SystemError) -> T {
    while true {
        let result = call()
        if result >= 0 { return result }
        if errno == EINTR { continue }
        throw SystemError(name, subject: subject)
    }
}
