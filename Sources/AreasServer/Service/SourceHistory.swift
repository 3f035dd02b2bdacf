import AreasIngest

/// What the refreshes since start have said of one configured source, so `stats` can name a
/// source whose refreshes fail (it may have no areas at all) and when it last worked.
package struct SourceHistory: Sendable, Equatable {
    /// Seconds since 1970 of the last refresh that tried it.
    package var lastAttemptAt: Double?
    /// Of the last refresh that took its data.
    package var lastSuccessAt: Double?
    /// `updated`, `failed` or `held-back`.
    package var lastStatus: String?
    /// Why the last attempt was not taken; nil after a success.
    package var lastError: String?

    package init() {}

    /// The history of every configured source after `report`; sources no longer configured
    /// are forgotten.
    static func after(_ report: RefreshReport, previous: [String: SourceHistory], configured: [String], now: Double) -> [String: SourceHistory] {
        var history = previous.filter { configured.contains($0.key) }
        for source in report.sources {
            var entry = history[source.name] ?? SourceHistory()
            entry.lastAttemptAt = now
            entry.lastStatus = source.status.rawValue
            if source.status == .updated {
                entry.lastSuccessAt = now
                entry.lastError = nil
            } else {
                entry.lastError = source.error
            }
            history[source.name] = entry
        }
        return history
    }
}
