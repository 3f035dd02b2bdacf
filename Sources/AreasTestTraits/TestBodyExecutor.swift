import Foundation

/// The executor test bodies run on: threads of its own, one more whenever a job arrives and
/// none is waiting for work, so a body that blocks (on a child process, a socket, a deadline)
/// holds a thread of its own and never delays another.
///
/// Not a Dispatch queue: a concurrent queue's jobs run on Dispatch's shared pool, which on
/// Linux adds a thread for blocked ones only while fewer of its threads are runnable than
/// there are cores, so beside bodies busy on the CPU (a brute-force comparison, a busy
/// machine) a body's child tasks can wait minutes for a thread.
///
/// It is not serial: the jobs of one task never overlap (a task is enqueued again only after
/// its job ran), while the child tasks of one test may run side by side, as they would on the
/// pool. A thread left without work for `idleSeconds` ends.
package final class TestBodyExecutor: TaskExecutor, @unchecked Sendable {
    package static let shared = TestBodyExecutor()

    private static let idleSeconds = 10.0
    private static let marker = "areas.test-bodies"

    /// Guards `pending` and `waiting`.
    private let condition = NSCondition()
    private var pending: [UnownedJob] = []
    private var first = 0
    /// Threads waiting for a job: a job finds one of them, or a thread is started for it.
    private var waiting = 0

    private init() {}

    /// Whether the caller runs on one of this executor's threads.
    package static var isCurrent: Bool { Thread.current.threadDictionary[marker] as? Bool == true }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        pending.append(job)
        let startThread = pending.count - first > waiting
        if !startThread { condition.signal() }
        condition.unlock()
        if startThread {
            let thread = Thread { [self] in work() }
            thread.name = Self.marker
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    private func work() {
        Thread.current.threadDictionary[Self.marker] = true
        condition.lock()
        while true {
            if first < pending.count {
                let job = pending[first]
                first += 1
                if first == pending.count { pending.removeAll(keepingCapacity: true); first = 0 }
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
                condition.lock()
                continue
            }
            waiting += 1
            let signalled = condition.wait(until: Date(timeIntervalSinceNow: Self.idleSeconds))
            waiting -= 1
            if !signalled && first == pending.count { break }
        }
        condition.unlock()
    }
}
