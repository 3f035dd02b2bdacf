import AreasCore
import AreasIngest
import AreasSystem
import Glibc

/// A follower's view of its leader's snapshot: asks whether it changed (the file's identity,
/// or HTTP `If-None-Match` with the last `ETag`) and, when it did, reads it with every check a
/// start-up load makes. Nothing is taken from a snapshot that fails one.
final class SnapshotFollower: Sendable {
    enum Outcome {
        case unchanged
        /// A verified new data set; `bytes` when it came over HTTP (written locally as is).
        case changed(Catalog, bytes: [UInt8]?)
        case failed(String)
    }

    /// What was last taken: the leader file's identity, or the HTTP answer's ETag.
    private struct Seen: Sendable {
        var file: FileIdentity?
        var etag: String?
    }

    struct FileIdentity: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int
        /// The confirmed fetch times beside it, by their modification time.
        var confirmedModified: Int
    }

    private let seen = LockedValue(Seen())

    func poll(_ follow: FollowConfig, force: Bool) async -> Outcome {
        switch follow.leader {
        case .file(let path): return pollFile(path, force: force)
        case .url(let url): return await pollURL(url, timeoutSeconds: follow.timeoutSeconds)
        }
    }

    private func pollFile(_ path: String, force: Bool) -> Outcome {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return .failed("cannot read the leader's snapshot \(path): \(String(cString: strerror(errno)))")
        }
        var sidecar = stat()
        let confirmedModified = stat(path + ".fetched", &sidecar) == 0 ? sidecar.st_mtim.tv_sec * 1_000_000_000 + sidecar.st_mtim.tv_nsec : 0
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                                    modified: info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec, confirmedModified: confirmedModified)
        if !force && seen.withLock({ $0.file }) == identity { return .unchanged }
        do throws(SnapshotFile.Failure) {
            guard let contents = try SnapshotFile.load(path: path) else { return .failed("the leader's snapshot \(path) is not there") }
            seen.withLock { $0.file = identity }
            return .changed(Self.confirming(contents.catalog, FetchTimes.read(beside: path)), bytes: nil)
        } catch {
            return .failed("refused the leader's snapshot: \(error)")
        }
    }

    private func pollURL(_ url: String, timeoutSeconds: Double) async -> Outcome {
        let etag = seen.withLock { $0.etag }
        let response: PageResponse
        do throws(UpstreamError) {
            response = try await HTTPClient.get(url, headers: etag.map { [("If-None-Match", $0)] } ?? [],
                                                timeoutSeconds: timeoutSeconds, maxBytes: SnapshotFile.maximumBytes)
        } catch {
            return .failed("cannot fetch the leader's snapshot: \(error)")
        }
        if response.status == 304 { return .unchanged }
        guard response.status == 200 else { return .failed("the leader answered HTTP \(response.status) for its snapshot") }
        do throws(SnapshotFile.Failure) {
            let contents = try SnapshotFile.decode(response.body, path: url)
            seen.withLock { $0.etag = response.etag }
            let confirmed = response.headers["areas-fetched-at"].map { FetchTimes.parse(headerValue: $0) } ?? [:]
            return .changed(Self.confirming(contents.catalog, confirmed), bytes: response.body)
        } catch {
            return .failed("refused the leader's snapshot: \(error)")
        }
    }
}

extension SnapshotFollower {
    /// `catalog` with the later fetch times the leader's refreshes confirmed.
    static func confirming(_ catalog: Catalog, _ confirmed: [String: Double]) -> Catalog {
        catalog.with(fetchedAt: confirmed.filter { $0.value > catalog.sources[$0.key]?.fetchedAt ?? .infinity })
    }
}

extension Catalog {
    /// Areas of `self` not in `older`, of `older` not in `self`, and in both but different.
    func difference(from older: Catalog) -> (added: Int, removed: Int, changed: Int) {
        var added = 0
        var changed = 0
        for position in table.indices {
            guard let old = older.table.position(of: table.id(at: position)) else {
                added += 1
                continue
            }
            if table[position] != older.table[old] { changed += 1 }
        }
        return (added, older.table.count - (table.count - added), changed)
    }
}
