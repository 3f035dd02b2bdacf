import AreasSystem
import Foundation

/// Blocking work a test waits for without holding one of the cooperative pool's threads.
///
/// Swift Testing runs tests on the cooperative pool, which has as many threads as the machine
/// has cores (two here). A test that blocks one (on a refresh's semaphore, on 200 socket
/// clients) while the work it waits for needs the pool too can starve that work, or with a
/// second such test deadlock the run; on threads of their own the blocking calls cost the pool
/// nothing.
package enum OffThePool {
    /// `work`'s result, computed on a thread of its own.
    package static func value<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (done: CheckedContinuation<T, Never>) in
            Thread { done.resume(returning: work()) }.start()
        }
    }

    /// Runs `body(0)` to `body(count - 1)`, each on a thread of its own, and waits for them at
    /// most `seconds`; true when every one finished in time.
    package static func run(_ count: Int, seconds: Double, _ body: @escaping @Sendable (Int) -> Void) async -> Bool {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                body(index)
                group.leave()
            }.start()
        }
        return await value { group.wait(timeout: .now() + seconds) == .success }
    }
}

extension OffThePool {
    /// `work`'s result when it finishes within `seconds`, else nil once `unblock` let it end
    /// (it opens the other end of a FIFO the work waits on, say): a test of something that must
    /// not block then fails, instead of hanging the run, when it does block.
    package static func value<T: Sendable>(within seconds: Double, unblocking unblock: @escaping @Sendable () -> Void,
                                           _ work: @escaping @Sendable () -> T) async -> T? {
        let done = DispatchSemaphore(value: 0)
        let result = LockedValue<T?>(nil)
        Thread {
            let value = work()
            result.withLock { $0 = value }
            done.signal()
        }.start()
        return await value {
            if done.wait(timeout: .now() + seconds) == .success { return result.withLock { $0 } }
            unblock()
            _ = done.wait(timeout: .now() + 10)
            return nil
        }
    }
}
