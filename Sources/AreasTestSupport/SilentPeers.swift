import AreasSystem
import Foundation

/// The daemons (by socket path, or `HOST:PORT`) that let a whole question go unanswered past
/// its deadline in this run.
///
/// Such a daemon is not asked again: the helpers that ask (`DaemonQuestions.ask`,
/// `HTTPTestClient.get`, the tests' runs of areasctl) give up on it at once, and a wait whose
/// condition asked one ends at once, since no later try can be answered. A build whose daemon
/// accepts and never answers then fails each test in the time of one deadline, not in a
/// deadline for each of its hundreds of questions.
package enum SilentPeers {
    private static let addresses = LockedValue<Set<String>>([])

    /// The shortest deadline whose running out marks a daemon silent: a shorter one may have
    /// been the test's own choice, cutting off an answer on its way.
    package static let shortestDeadline = 5.0

    /// Records that the daemon at `address` let a question go unanswered for `deadline`
    /// seconds; nothing when the deadline was shorter than `shortestDeadline`.
    package static func unanswered(_ address: String, within deadline: Double) {
        guard deadline >= shortestDeadline else { return }
        _ = addresses.withLock { $0.insert(address) }
        noticedOnThisThread += 1
    }

    /// Whether the daemon at `address` let a question go unanswered; counted as noticed on this
    /// thread when it did.
    package static func contains(_ address: String) -> Bool {
        guard addresses.withLock({ $0.contains(address) }) else { return false }
        noticedOnThisThread += 1
        return true
    }

    /// How many times this thread has found a daemon silent. Per thread, because a wait's
    /// condition runs on the wait's thread and other tests' waits run beside it.
    package static var noticedOnThisThread: Int {
        get { Thread.current.threadDictionary[key] as? Int ?? 0 }
        set { Thread.current.threadDictionary[key] = newValue }
    }
    private static let key = "AreasTestSupport.SilentPeers.noticed"
}
