import AreasCore
import AreasProtocol
import AreasSystem
import Foundation

/// Upstream requests counted per source (and for the geocoder) per day, kept in a small file
/// beside the snapshot so a restart does not forget what the day has spent. The data portals'
/// development keys allow a fixed number of calls a day per service, reset at midnight in
/// Korea: a source with `dailyRequestLimit` stops before it, and its old data stays served.
package final class RequestQuota: @unchecked Sendable {
    /// The name the geocoder's requests are counted under.
    package static let geocoderName = "geocoder"
    /// The searches' requests to the geocoder, counted apart as well (their share of the day).
    package static let searchGeocoderName = "geocoder-search"

    private let path: String?
    private let lock = NSLock()
    private var day: String
    private var counts: [String: Int]
    /// Bumped with every count taken; the file holds the counts of `written`. Requests in
    /// flight at once save their counts concurrently: an older set written after a newer one
    /// would forget requests made, so a set older than the file's is not written.
    private var taken = 0
    private let fileLock = NSLock()
    private var written = 0

    /// The day as the portals count it: the date in Korea (UTC+9, no daylight saving).
    package static func day(at time: Double) -> String {
        let seconds = Int((time + 9 * 3600).rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return ReferenceDate.text(ofDay: days)
    }

    /// Today's counts from `path` (none when it is missing, unreadable, or of another day).
    package init(path: String?, now: Double = Date().timeIntervalSince1970) {
        self.path = path
        day = Self.day(at: now)
        counts = [:]
        guard let path, let bytes = try? WholeFile.read(path, limit: 1 << 20),
              case .object(let members)? = try? JSONParser.parse(bytes),
              members.first(where: { $0.0 == "day" })?.1 == .string(day),
              case .object(let stored)? = members.first(where: { $0.0 == "requests" })?.1 else { return }
        for (name, value) in stored {
            if case .number(let n) = value, n >= 0, n < 1e9 { counts[name] = Int(n) }
        }
    }

    /// Counts one request for `name`, unless that would pass `limit`: then false, and nothing
    /// is counted (the request must not be made).
    package func take(_ name: String, limit: Int?, now: Double = Date().timeIntervalSince1970) -> Bool {
        let snapshot: (String, [String: Int], Int)? = lock.withLock {
            let today = Self.day(at: now)
            if today != day { day = today; counts = [:] }
            if let limit, counts[name, default: 0] >= limit { return nil }
            // Counted into a new dictionary, never into the stored one in place: the stored one
            // may be being read on another thread (handed to `save` below, or by `today()`), and
            // a write in place decides whether to copy it by a reference count read without
            // ordering against that reader.
            counts = counts.merging([name: 1], uniquingKeysWith: +)
            taken += 1
            return (day, counts, taken)
        }
        guard let (day, counts, generation) = snapshot else { return false }
        save(day: day, counts: counts, generation: generation)
        return true
    }

    /// Requests counted today (in Korea), by name: none when the day counted is over.
    package func today(now: Double = Date().timeIntervalSince1970) -> [String: Int] {
        let today = Self.day(at: now)
        return lock.withLock { day == today ? counts : [:] }
    }

    private func save(day: String, counts: [String: Int], generation: Int) {
        guard let path else { return }
        fileLock.lock()
        defer { fileLock.unlock() }
        guard generation > written else { return }
        written = generation
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.key("day"); writer.string(day)
        writer.key("requests")
        writer.beginObject()
        for (name, count) in counts.sorted(by: { $0.key < $1.key }) {
            writer.key(escaping: name)
            writer.number(count)
        }
        writer.endObject()
        writer.endObject()
        // Best effort: a count not written costs at most the requests of one refresh.
        try? WholeFile.replace(path, with: writer.bytes)
    }
}

/// A transport that counts each request against the day's quota, and makes none past it.
struct QuotaTransport: PageTransport {
    let inner: any PageTransport
    let name: String
    let limit: Int?
    let quota: RequestQuota

    func fetch(page number: Int, size: Int) async throws(UpstreamError) -> PageResponse? {
        guard quota.take(name, limit: limit) else { throw .quotaReserved(limit: limit ?? 0) }
        return try await inner.fetch(page: number, size: size)
    }
}
