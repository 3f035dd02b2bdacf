import Glibc

/// Starts threads with their failure reported.
///
/// Foundation's `Thread.start()` ignores a failed `pthread_create`: a server that counted the
/// connection before starting its thread would hold the slot, and wait for it at shutdown, with
/// no thread behind it.
package enum SystemThread {
    /// Runs `body` on a new detached thread with `stackSize` bytes of stack.
    package static func start(stackSize: Int, _ body: @escaping @Sendable () -> Void) throws(SystemError) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let work = Unmanaged.passRetained(Work(body))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, work.toOpaque())
        if result != 0 {
            work.release()
            // pthread_create returns its error instead of setting errno.
            throw SystemError("pthread_create", errno: result)
        }
    }

    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Sleeps the calling thread (never a task of the cooperative pool) for `seconds`.
    package static func sleep(seconds: Double) {
        _ = usleep(useconds_t(Swift.max(0, seconds) * 1_000_000))
    }
}
