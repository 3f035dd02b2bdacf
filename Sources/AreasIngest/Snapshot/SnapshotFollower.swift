import AreasCore
import AreasSystem
import Foundation

/// A follower's view of its leader's snapshot: asks whether it changed (the file's identity,
/// or HTTP `If-None-Match` with the last `ETag`) and, when it did, hands it to the snapshot
/// store, which takes it only once it passed every check a start-up load makes.
package final class SnapshotFollower: Sendable {
    package enum Outcome {
        case unchanged
        /// A verified new data set, with the later fetch times the leader confirmed since;
        /// `notKept` says why it could not be kept as the local snapshot (it is served anyway).
        case changed(DataSet, notKept: String?)
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

    package init() {}

    /// Asks the leader; a changed snapshot is put in place by `store`.
    /// `judge` says why a verified snapshot is not taken (it would shrink the data too far).
    package func poll(_ follow: FollowConfig, into store: SnapshotStore, force: Bool, judge: (SnapshotFile.Contents) -> String?) async -> Outcome {
        switch follow.leader {
        case .file(let path): return pollFile(path, into: store, force: force, judge: judge)
        case .url(let url): return await pollURL(url, into: store, timeoutSeconds: follow.timeoutSeconds, judge: judge)
        }
    }

    private func pollFile(_ path: String, into store: SnapshotStore, force: Bool, judge: (SnapshotFile.Contents) -> String?) -> Outcome {
        let info: FileStatus
        do {
            info = try FileSystem.existingStatus(of: path)
        } catch {
            return .failed("cannot read the leader's snapshot \(path): \(error.reason)")
        }
        let confirmedModified = (try? FileSystem.status(of: SnapshotFolder(snapshot: path).fetchTimes))??.modifiedNanoseconds ?? 0
        let identity = FileIdentity(device: info.device, inode: info.inode, size: Int64(info.size),
                                    modified: info.modifiedNanoseconds, confirmedModified: confirmedModified)
        let previous = seen.withLock { $0.file }
        if !force && previous == identity { return .unchanged }
        let outcome = Outcome(store.adopt(file: path, judge: judge))
        if case .failed(let reason) = outcome, let previous, previous.inode == identity.inode, previous.device == identity.device,
           let local = try? FileSystem.status(of: store.path), local.inode == identity.inode, local.device == identity.device {
            // The file this follower serves is the leader's own (a second name, so that
            // followers share its pages), and it was rewritten in place rather than replaced:
            // what is mapped now are bytes the checks refuse. Serving on would answer from
            // them; a clean start loads only what the checks allow.
            Signals.exitForRestart(message: "areasd: the leader's snapshot \(path), which this follower serves as \(store.path), was rewritten in place and is refused (\(reason)); exiting (75) for a clean start")
        }
        if case .changed = outcome { seen.withLock { $0.file = identity } }
        return outcome
    }

    private func pollURL(_ url: String, into store: SnapshotStore, timeoutSeconds: Double, judge: (SnapshotFile.Contents) -> String?) async -> Outcome {
        let etag = seen.withLock { $0.etag }
        // The body goes to a file beside the snapshot as it arrives, never held whole: the
        // file is then checked and renamed into place as a leader's file on a share would be.
        let download = SnapshotFolder(snapshot: store.path).download
        let file: FileDescriptor
        do throws(SystemError) {
            try? FileSystem.removeFile(download)
            try WholeFile.createDirectories((store.path as NSString).deletingLastPathComponent)
            file = try FileDescriptor.open(download, [.writeOnly, .create, .exclusive, .noFollow], permissions: 0o440)
        } catch {
            return .failed("cannot make a file for the leader's snapshot beside \(store.path): \(error)")
        }
        defer {
            file.close()
            try? FileSystem.removeFile(download)
        }
        let response: PageResponse
        do throws(UpstreamError) {
            // Refused at its first bytes when it is no snapshot this build reads, or says it
            // is larger than the limit: nothing else is downloaded and held.
            let opening = HTTPClient.Opening(bytes: SnapshotFile.headerSize) { header in
                do throws(SnapshotFile.Failure) {
                    _ = try SnapshotFile.checkHeader(header, fileSize: nil, path: "the leader's answer")
                    return nil
                } catch {
                    return "\(error)"
                }
            }
            response = try await HTTPClient.get(url, headers: etag.map { [("If-None-Match", $0)] } ?? [],
                                                timeoutSeconds: timeoutSeconds, maxBytes: SnapshotFile.maximumBytes, opening: opening, sink: file)
        } catch {
            return .failed("cannot fetch the leader's snapshot: \(error)")
        }
        if response.status == 304 { return .unchanged }
        guard response.status == 200 else { return .failed("the leader answered HTTP \(response.status) for its snapshot") }
        let confirmed = response.headers["areas-fetched-at"].map { FetchTimes.parse(headerValue: $0) } ?? [:]
        do throws(SystemError) { try file.sync() } catch {
            return .failed("cannot keep the leader's snapshot beside \(store.path): \(error)")
        }
        let outcome = Outcome(store.adopt(file: download, confirmed: confirmed, judge: judge))
        if case .changed = outcome { seen.withLock { $0.etag = response.etag } }
        return outcome
    }
}

extension SnapshotFollower.Outcome {
    init(_ adoption: SnapshotStore.Adoption) {
        switch adoption {
        case .taken(let dataSet, let notKept): self = .changed(dataSet, notKept: notKept)
        case .refused(let reason): self = .failed(reason)
        }
    }
}
