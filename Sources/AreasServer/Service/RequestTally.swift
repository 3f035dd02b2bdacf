import AreasProtocol
import Synchronization

/// Requests answered by one connection since its counts were last added to the service's:
/// counted locally per request, added once per batch, so counting costs no shared write
/// per request.
package struct RequestTally {
    var byOperation = InlineArray<16, Int>(repeating: 0)
    var byError = InlineArray<16, Int>(repeating: 0)
    var answered = 0

    package init() {}

    static let errorCodes = RequestError.Code.allCases

    mutating func count(_ operation: RequestOperation) { byOperation[operation.index] += 1 }

    mutating func count(_ error: RequestError) {
        byError[Self.errorCodes.firstIndex(of: error.code) ?? 0] += 1
    }
}

/// A count any thread may add to.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    @discardableResult
    func add(_ n: Int) -> Int { value.add(n, ordering: .relaxed).newValue }
    func set(_ n: Int) { value.store(n, ordering: .relaxed) }
    var current: Int { value.load(ordering: .relaxed) }
}

/// The service's counters since start: requests by operation, errors by code, connections.
package final class ServiceCounters: Sendable {
    let byOperation = Request.operationNames.map { _ in Counter() }
    let byError = RequestTally.errorCodes.map { _ in Counter() }
    let answered = Counter()
    /// Connections accepted, and refused as `busy` (over `maxConnections`, out of threads).
    let accepted = Counter()
    let refused = Counter()
    /// Connections closed because their answers would pass `maxOutputBytes`.
    let closedForOutput = Counter()
    /// HTTP requests refused before they were understood (malformed, too large, too slow),
    /// each closing its connection.
    let httpRefused = Counter()
    /// Open now, and bytes of answers being written to clients now.
    let open = Counter()
    let waitingOutputBytes = Counter()

    func add(_ tally: RequestTally) {
        guard tally.answered > 0 else { return }
        answered.add(tally.answered)
        for i in byOperation.indices where tally.byOperation[i] != 0 { byOperation[i].add(tally.byOperation[i]) }
        for i in byError.indices where tally.byError[i] != 0 { byError[i].add(tally.byError[i]) }
    }
}
