import Glibc

/// A pipe whose only use is to wake threads waiting in `poll`: `wake()` makes its read end
/// readable for good, so every waiter, now or later, sees it.
package final class Wakeup: Sendable {
    package let readEnd: FileDescriptor
    private let writeEnd: FileDescriptor

    package init() throws(SystemError) {
        var ends: [Int32] = [0, 0]
        try systemCall("pipe") { pipe(&ends) }
        readEnd = FileDescriptor(rawValue: ends[0])
        writeEnd = FileDescriptor(rawValue: ends[1])
        try? readEnd.setCloseOnExec()
        try? writeEnd.setCloseOnExec()
    }

    /// Wakes every waiter. The byte is never read, so the read end stays readable.
    package func wake() {
        _ = try? writeEnd.writeAll([1])
    }

    deinit {
        readEnd.close()
        writeEnd.close()
    }
}
