import AreasIngest
import AreasSystem
import Dispatch

/// Runs one refresh at a time: whoever asks while one runs joins it and shares its report, so
/// a burst of `refresh` requests (cron and an operator at once) costs one round of upstream
/// requests.
final class RefreshCoordinator: Sendable {
    /// One refresh under way; everyone who asks while it runs waits on it.
    final class Job: Sendable {
        let done = DispatchSemaphore(value: 0)
        let result = LockedValue<RefreshReport?>(nil)
        /// When it started, on the monotonic clock.
        let startedAt = MonotonicClock.seconds

        func wait() -> RefreshReport? {
            done.wait()
            done.signal()  // let the next waiter through
            return result.withLock { $0 }
        }
    }

    private let inFlight = LockedValue<Job?>(nil)

    var isRunning: Bool { inFlight.withLock { $0 != nil } }

    /// How long the refresh under way has been running, or nil when none is.
    var runningSeconds: Double? { inFlight.withLock { $0.map { MonotonicClock.seconds - $0.startedAt } } }

    /// Starts `work`, or joins the refresh already running; returns the job to wait on.
    func start(_ work: @escaping @Sendable () async -> RefreshReport) -> Job {
        let (job, isNew) = inFlight.withLock { slot -> (Job, Bool) in
            if let job = slot { return (job, false) }
            let job = Job()
            slot = job
            return (job, true)
        }
        if isNew {
            Task.detached { [self] in
                let report = await work()
                job.result.withLock { $0 = report }
                inFlight.withLock { $0 = nil }
                job.done.signal()
            }
        }
        return job
    }
}
