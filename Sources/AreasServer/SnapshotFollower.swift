import AreasCore
import AreasIngest
import AreasSystem
import Glibc

/// A follower's view of its leader's snapshot: asks whether it changed (the file's identity,
/// or HTTP `If-None-Match` with the last `ETag`) and, when it did, puts it in place as the
/// follower's own snapshot once it passed every check a start-up load makes, and serves it
/// from there, mapped. Nothing is taken from a snapshot that fails a check, and the follower's
/// own file is then left as it was.
final class SnapshotFollower: Sendable {
    enum Outcome {
        case unchanged
        /// A verified new data set with the later fetch times the leader confirmed since;
        /// `notKept` says why it could not be kept as the local snapshot (it is served anyway).
        case changed(SnapshotFile.Contents, confirmed: [String: Double], notKept: String?)
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

    /// Asks the leader; a changed snapshot is put in place at `localPath`.
    func poll(_ follow: FollowConfig, into localPath: String, force: Bool) async -> Outcome {
        switch follow.leader {
        case .file(let path): return pollFile(path, into: localPath, force: force)
        case .url(let url): return await pollURL(url, into: localPath, timeoutSeconds: follow.timeoutSeconds)
        }
    }

    private func pollFile(_ path: String, into localPath: String, force: Bool) -> Outcome {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return .failed("cannot read the leader's snapshot \(path): \(String(cString: strerror(errno)))")
        }
        var sidecar = stat()
        let confirmedModified = stat(path + ".fetched", &sidecar) == 0 ? sidecar.st_mtim.tv_sec * 1_000_000_000 + sidecar.st_mtim.tv_nsec : 0
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                                    modified: info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec, confirmedModified: confirmedModified)
        if !force && seen.withLock({ $0.file }) == identity { return .unchanged }
        let outcome = Self.taking({ () throws(SnapshotFile.Failure) in try SnapshotFile.adopt(file: path, as: localPath) },
                                  orServing: { () throws(SnapshotFile.Failure) in try SnapshotFile.load(path: path) },
                                  confirmed: FetchTimes.read(beside: path))
        if case .changed = outcome { seen.withLock { $0.file = identity } }
        return outcome
    }

    /// Takes a leader's snapshot with `adopt` (in place at the local path, checked); when the
    /// local path cannot be written, serves it with `read` instead and says why.
    private static func taking(
        _ adopt: () throws(SnapshotFile.Failure) -> SnapshotFile.Contents,
        orServing read: () throws(SnapshotFile.Failure) -> SnapshotFile.Contents?,
        confirmed: [String: Double]
    ) -> Outcome {
        do throws(SnapshotFile.Failure) {
            return .changed(try adopt(), confirmed: confirmed, notKept: nil)
        } catch {
            guard case .unwritable = error else { return .failed("refused the leader's snapshot: \(error)") }
            do throws(SnapshotFile.Failure) {
                guard let contents = try read() else { return .failed("the leader's snapshot is not there") }
                return .changed(contents, confirmed: confirmed, notKept: error.description)
            } catch {
                return .failed("refused the leader's snapshot: \(error)")
            }
        }
    }

    private func pollURL(_ url: String, into localPath: String, timeoutSeconds: Double) async -> Outcome {
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
        let body = response.body
        let outcome = Self.taking({ () throws(SnapshotFile.Failure) in try SnapshotFile.adopt(body, as: localPath) },
                                  orServing: { () throws(SnapshotFile.Failure) in try SnapshotFile.decode(body, path: url) },
                                  confirmed: response.headers["areas-fetched-at"].map { FetchTimes.parse(headerValue: $0) } ?? [:])
        if case .changed = outcome { seen.withLock { $0.etag = response.etag } }
        return outcome
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
