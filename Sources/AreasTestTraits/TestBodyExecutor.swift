import Dispatch

/// The executor test bodies run on: an overcommitting Dispatch queue, which starts another
/// thread whenever every thread it has is busy, so a body that blocks (on a child process, a
/// socket, a deadline) holds a thread of its own and never one of the cooperative pool's.
///
/// It is not serial: the jobs of one task never overlap (a task is enqueued again only after
/// its job ran), while the child tasks of one test may run side by side, as they would on the
/// pool.
package final class TestBodyExecutor: TaskExecutor {
    package static let shared = TestBodyExecutor()

    private static let marker = DispatchSpecificKey<Bool>()
    private let queue: DispatchQueue

    private init() {
        queue = DispatchQueue(label: "areas.test-bodies", attributes: .concurrent)
        queue.setSpecific(key: Self.marker, value: true)
    }

    /// Whether the caller runs on this executor's queue.
    package static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
