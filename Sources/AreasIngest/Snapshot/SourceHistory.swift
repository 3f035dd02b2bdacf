import AreasProtocol
import AreasSystem

/// What the refreshes have said of one configured source, so `stats` can name a source whose
/// refreshes fail (it may have no areas at all) and when it last worked. Kept beside the
/// snapshot (`areas.history.json`), so a restart neither forgets a failing source nor calls
/// its data healthy without knowing how the last refresh went.
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
    package static func after(_ report: RefreshReport, previous: [String: SourceHistory], configured: [String], now: Double) -> [String: SourceHistory] {
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

extension SourceHistory {
    /// Whether the last refresh took every source, as far as `history` knows (nil: no refresh
    /// has been recorded).
    package static func succeeded(_ history: [String: SourceHistory]) -> Bool? {
        history.isEmpty ? nil : history.values.allSatisfy { $0.lastStatus == SourceReport.Status.updated.rawValue }
    }

    /// Writes `history` to `path`, whole or not at all; a failure is said, and only costs the
    /// next start its memory of the refreshes.
    static func save(_ history: [String: SourceHistory], to path: String) -> String? {
        var writer = JSONWriter()
        writer.beginObject()
        for (name, entry) in history.sorted(by: { $0.key < $1.key }) {
            writer.key(escaping: name)
            writer.beginObject()
            func number(_ key: StaticString, _ value: Double?) { writer.key(key); if let value { writer.number(value) } else { writer.null() } }
            func text(_ key: StaticString, _ value: String?) { writer.key(key); if let value { writer.string(value) } else { writer.null() } }
            number("lastAttemptAt", entry.lastAttemptAt)
            number("lastSuccessAt", entry.lastSuccessAt)
            text("lastStatus", entry.lastStatus)
            text("lastError", entry.lastError)
            writer.endObject()
        }
        writer.endObject()
        do throws(SystemError) {
            try WholeFile.replace(path, with: writer.bytes, permissions: 0o640)
            return nil
        } catch {
            return "cannot keep the refresh history beside the snapshot: \(error)"
        }
    }

    /// The history kept at `path`, for the sources still configured; empty when there is none
    /// or it cannot be read (nothing depends on it but what `stats` and `health` say).
    static func load(from path: String, configured: [String]) -> [String: SourceHistory] {
        guard let bytes = try? WholeFile.read(path, limit: 4 << 20),
              case .object(let members)? = try? JSONParser.parse(bytes) else { return [:] }
        var history: [String: SourceHistory] = [:]
        for (name, value) in members where configured.contains(name) {
            var entry = SourceHistory()
            entry.lastAttemptAt = value["lastAttemptAt"]?.double.flatMap { $0.isFinite ? $0 : nil }
            entry.lastSuccessAt = value["lastSuccessAt"]?.double.flatMap { $0.isFinite ? $0 : nil }
            entry.lastStatus = value["lastStatus"]?.string
            entry.lastError = value["lastError"]?.string
            history[name] = entry
        }
        return history
    }
}
