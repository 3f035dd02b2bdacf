import AreasSystem
import Foundation

/// When each source was last fetched whole, kept beside the snapshot (`areas.snapshot.fetched`)
/// after refreshes that found nothing new.
///
/// Such a refresh does not rewrite the snapshot (tens of megabytes for the same areas, on every
/// interval); yet a restart must know the data was confirmed since the snapshot was written,
/// or it would call fresh data stale and fetch everything again. The times are tied to the
/// snapshot file they were written for (device, inode, size, modification time): a snapshot
/// written later, or put back by hand, makes them count for nothing.
package enum FetchTimes {
    static func path(beside snapshot: String) -> String { SnapshotFolder(snapshot: snapshot).fetchTimes }

    private struct Record: Codable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var modified: Double
        var fetchedAt: [String: Double]
    }

    /// Records `fetchedAt` for the snapshot at `snapshot` as it is now; a new file in place
    /// of the old, whole or not at all.
    package static func write(_ fetchedAt: [String: Double], beside snapshot: String) throws(SystemError) {
        guard let status = try FileSystem.status(of: snapshot) else { throw SystemError("stat", errno: ENOENT, subject: snapshot) }
        let record = Record(device: status.device, inode: status.inode, size: status.size, modified: status.modified, fetchedAt: fetchedAt)
        guard let bytes = try? JSONEncoder().encode(record) else { return }
        try WholeFile.replace(path(beside: snapshot), with: [UInt8](bytes))
    }

    /// The times recorded for the snapshot as it is now, each no older than the snapshot's own
    /// and none in the future; empty when there are none, or they were written for another file
    /// or cannot be read.
    package static func read(beside snapshot: String, now: Double = Date().timeIntervalSince1970) -> [String: Double] {
        guard let bytes = try? WholeFile.read(path(beside: snapshot), limit: 1 << 20),
              let record = try? JSONDecoder().decode(Record.self, from: Data(bytes)),
              let status = try? FileSystem.status(of: snapshot),
              status.device == record.device, status.inode == record.inode, status.size == record.size, status.modified == record.modified
        else { return [:] }
        return record.fetchedAt.filter { $0.value.isFinite && $0.value > 0 && $0.value <= now + 60 }
    }

    /// The times as one header value, `name=seconds, name=seconds` (names percent-encoded,
    /// seconds with their fraction):
    /// how a leader's `GET /v1/snapshot` tells followers what its refreshes confirmed since the
    /// file was written.
    package static func headerValue(_ fetchedAt: [String: Double]) -> String {
        // Full precision: a time cut to the second would be older than the one it stands for.
        fetchedAt.sorted { $0.key < $1.key }.map { "\(HTTPClient.encode($0.key))=\($0.value)" }.joined(separator: ", ")
    }

    /// The times in a header value made by `headerValue`, those that make sense now.
    package static func parse(headerValue text: String, now: Double = Date().timeIntervalSince1970) -> [String: Double] {
        var times: [String: Double] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let name = String(parts[0]).removingPercentEncoding, let seconds = Double(parts[1]),
                  seconds.isFinite, seconds > 0, seconds <= now + 60 else { continue }
            times[name] = seconds
        }
        return times
    }

    /// Forgets the times: the snapshot written now carries its own.
    package static func remove(beside snapshot: String) {
        try? FileSystem.removeFile(path(beside: snapshot))
    }
}
