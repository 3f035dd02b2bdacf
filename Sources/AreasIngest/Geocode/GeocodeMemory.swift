import AreasCore
import AreasProtocol
import AreasSystem
import Foundation

/// What the geocoder has said, kept across refreshes and restarts, so an unchanged source
/// costs no requests: a position is reused for as long as the question's text is unchanged;
/// "not found" is remembered for a day, then asked again.
///
/// On disk it is a small JSON file beside the snapshot, replaced whole the way the snapshot
/// is (temporary file, fsync, rename): a crash leaves the old memory or the new one.
package struct GeocodeMemory: Sendable, Equatable {
    package enum Entry: Sendable, Equatable {
        /// Found at this position; `usedAt` is the last refresh that needed it.
        case found(GeoPoint, usedAt: Double)
        case notFound(at: Double)
    }

    package private(set) var entries: [GeocodeQuestion: Entry] = [:]

    package init() {}

    /// How long a "not found" stands before the question is asked again.
    package static let notFoundLifetime: Double = 86_400
    /// A position no refresh has needed for this long is forgotten (its row is gone or changed).
    package static let unusedLifetime: Double = 90 * 86_400

    package enum Recall: Sendable, Equatable {
        case found(GeoPoint)
        case notFound
    }

    /// What is known about `question` at `now`, if anything still stands; a found position is
    /// marked as used (to the day).
    package mutating func recall(_ question: GeocodeQuestion, now: Double) -> Recall? {
        switch entries[question] {
        case .found(let point, let usedAt)?:
            // Marked at most daily, so a refresh that changes nothing leaves the file as it was.
            if now - usedAt >= 86_400 { entries[question] = .found(point, usedAt: now) }
            return .found(point)
        case .notFound(let at)? where now - at < Self.notFoundLifetime && at <= now:
            return .notFound
        default:
            return nil
        }
    }

    package mutating func remember(_ question: GeocodeQuestion, _ recall: Recall, now: Double) {
        switch recall {
        case .found(let point): entries[question] = .found(point, usedAt: now)
        case .notFound: entries[question] = .notFound(at: now)
        }
    }

    /// Drops what no longer stands: expired "not found"s and positions long unused.
    package mutating func prune(now: Double) {
        entries = entries.filter { _, entry in
            switch entry {
            case .found(_, let usedAt): return now - usedAt < Self.unusedLifetime
            case .notFound(let at): return now - at < Self.notFoundLifetime
            }
        }
    }

    // MARK: - On disk

    /// The file's bytes: `{"format":"areas-geocoded","version":1,"entries":[...]}`, entries in
    /// a stable order so an unchanged memory writes the same bytes.
    package func encoded() -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("format"); writer.string("areas-geocoded")
        writer.key("version"); writer.number(1)
        writer.key("entries")
        writer.beginArray()
        for (question, entry) in entries.sorted(by: { ($0.key.kind.rawValue, $0.key.text) < ($1.key.kind.rawValue, $1.key.text) }) {
            writer.beginObject()
            writer.key("kind"); writer.string(question.kind.rawValue)
            writer.key("text"); writer.string(question.text)
            switch entry {
            case .found(let point, let usedAt):
                writer.key("lat"); writer.number(point.latitude)
                writer.key("lon"); writer.number(point.longitude)
                // Whole seconds, rounded down: a time rounded up would lie in the future for a
                // refresh within the same second, which then refuses it as written ahead of now.
                writer.key("usedAt"); writer.number(usedAt.rounded(.down))
            case .notFound(let at):
                writer.key("notFoundAt"); writer.number(at.rounded(.down))
            }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.newline()
        return writer.bytes
    }

    package struct Malformed: Error, Sendable, Equatable, CustomStringConvertible {
        package var reason: String
        package var description: String { reason }
    }

    /// Reads what `encoded()` wrote; every entry is checked (a position must lie in `bounds`).
    package init(decoding bytes: [UInt8], bounds: GeoBox) throws(Malformed) {
        let top: JSONValue
        do throws(JSONParser.Failure) { top = try JSONParser.parse(bytes) } catch { throw Malformed(reason: error.description) }
        guard top["format"]?.string == "areas-geocoded" else { throw Malformed(reason: "not a geocoder memory file") }
        guard top["version"]?.double == 1 else { throw Malformed(reason: "version \(top["version"]?.double.map { "\($0)" } ?? "missing"), this build reads 1") }
        for (i, item) in (top["entries"]?.array ?? []).enumerated() {
            guard let kindText = item["kind"]?.string, let kind = GeocodeQuestion.Kind(rawValue: kindText),
                  let text = item["text"]?.string, !text.isEmpty else {
                throw Malformed(reason: "entry \(i) has no kind or text")
            }
            let question = GeocodeQuestion(kind, text)
            if let lat = item["lat"]?.double, let lon = item["lon"]?.double, let usedAt = item["usedAt"]?.double, usedAt.isFinite {
                guard let point = try? GeoPoint(latitude: lat, longitude: lon), bounds.contains(point) else {
                    throw Malformed(reason: "entry \(i) is at \(lat), \(lon), outside the bounds")
                }
                entries[question] = .found(point, usedAt: usedAt)
            } else if let at = item["notFoundAt"]?.double, at.isFinite {
                entries[question] = .notFound(at: at)
            } else {
                throw Malformed(reason: "entry \(i) has neither a position nor a time it was not found")
            }
        }
    }

    /// The memory kept at `path`: empty when there is none yet. An unreadable or malformed
    /// file is moved aside (`.corrupt`) and reported, and the memory starts empty: positions
    /// are asked again rather than trusted from a file that cannot be read whole.
    package static func load(path: String, bounds: GeoBox) -> (memory: GeocodeMemory, problem: String?) {
        do throws(WholeFile.ReadFailure) {
            guard let bytes = try WholeFile.read(path, limit: 256 << 20) else { return (GeocodeMemory(), nil) }
            do throws(Malformed) {
                return (try GeocodeMemory(decoding: bytes, bounds: bounds), nil)
            } catch {
                let aside = SnapshotFolder.setAside(path)
                try? FileSystem.rename(path, to: aside)
                return (GeocodeMemory(), "the geocoder memory \(path) is unreadable (\(error)); moved it to \(aside) and starting afresh")
            }
        } catch {
            return (GeocodeMemory(), "cannot read the geocoder memory \(path): \(error)")
        }
    }

    /// Replaces the file at `path` with this memory, crash-safe.
    package func save(path: String) throws(SystemError) {
        try WholeFile.replace(path, with: encoded())
    }
}
