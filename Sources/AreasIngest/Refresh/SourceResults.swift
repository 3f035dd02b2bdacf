import AreasSystem
import Foundation

/// The results of a refresh's sources as they finish, waited for until all are in or the
/// refresh's deadline passes, whichever is first.
///
/// Each source runs as a task of its own, outside any task group: a group waits for every
/// child, so one source stalled in a transfer that ignores cancellation would hold the whole
/// refresh. Past the deadline the refresh goes on with what has finished; a late result is
/// dropped (each request of a source ends at its own `timeoutSeconds` anyway). Once handed
/// to the waiter, the results are not held here: they are a whole refresh's tables, and the
/// deadline's timer outlives the refresh.
final class SourceResults<Result: Sendable>: Sendable {
    private struct State {
        var results: [Int: Result] = [:]
        var waiter: CheckedContinuation<[Int: Result], Never>?
        var closed = false

        /// Ends the wait: the results, no longer held.
        mutating func close() -> [Int: Result] {
            closed = true
            waiter = nil
            defer { results = [:] }
            return results
        }
    }
    // A pthread mutex (`LockedValue`), not `Synchronization.Mutex`, whose lock ThreadSanitizer
    // cannot see: the race run reported `put`'s two locked accesses as a race.
    private let state = LockedValue(State())
    private let expected: Int

    init(expecting count: Int) { expected = count }

    /// Records source `index`'s result; after the wait ended, it is dropped.
    func put(_ index: Int, _ result: Result) {
        let resume: (CheckedContinuation<[Int: Result], Never>, [Int: Result])? = state.withLock { state in
            guard !state.closed else { return nil }
            state.results[index] = result
            guard state.results.count == expected, let waiter = state.waiter else { return nil }
            return (waiter, state.close())
        }
        if let (waiter, results) = resume { waiter.resume(returning: results) }
    }

    /// Every result, or those in by `seconds` from now.
    func wait(seconds: Double) async -> [Int: Result] {
        await withCheckedContinuation { continuation in
            let done: [Int: Result]? = state.withLock { state in
                if state.results.count == expected { return state.close() }
                state.waiter = continuation
                return nil
            }
            if let done { return continuation.resume(returning: done) }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
                let resume: (CheckedContinuation<[Int: Result], Never>, [Int: Result])? = self?.state.withLock { state in
                    guard !state.closed, let waiter = state.waiter else { return nil }
                    return (waiter, state.close())
                }
                if let (waiter, results) = resume { waiter.resume(returning: results) }
            }
        }
    }
}
