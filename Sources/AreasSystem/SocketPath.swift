import Foundation
import Glibc

/// Makes a socket path ready to bind, without ever deleting what is not ours to delete.
package enum SocketPath {
    package enum Problem: Error, Sendable, CustomStringConvertible {
        case inUse(String)
        case notASocket(String)
        case tooLong(String)
        case cannotPrepare(String, SystemError)
        /// The folder could let another user replace the socket with one of their own.
        case untrustedFolder(String, reason: String)

        package var description: String {
            switch self {
            case .inUse(let path): return "\(path) is in use by a running areasd; stop it first or choose another --socket"
            case .notASocket(let path): return "\(path) exists and is not a socket; refusing to replace it"
            case .tooLong(let path): return Sockets.PathTooLong(path: path).description
            case .cannotPrepare(let path, let error): return "cannot prepare \(path): \(error)"
            case .untrustedFolder(let folder, let reason):
                return "refusing the socket folder \(folder): \(reason), so another user could put their own socket there; remove it or choose another --socket"
            }
        }
    }

    /// Creates the parent folder if needed, checks that no other user controls it, and removes
    /// a stale socket left by a dead daemon. Returns the folder when it made it, to be removed
    /// with the socket (a daemon run by hand leaves no empty `/run/areasd/` behind).
    @discardableResult
    package static func prepare(_ path: String, uid: uid_t = getuid()) throws(Problem) -> String? {
        guard path.utf8.count <= Sockets.maximumPathLength else { throw .tooLong(path) }
        let parent = (path as NSString).deletingLastPathComponent
        var made: String?
        if !parent.isEmpty && !FileManager.default.fileExists(atPath: parent) {
            if mkdir(parent, 0o755) == 0 { made = parent } else if errno != EEXIST { throw .cannotPrepare(path, SystemError("mkdir", subject: parent)) }
        }
        try checkFolder(of: path, uid: uid)
        var info = stat()
        guard lstat(path, &info) == 0 else { return made }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else { throw .notASocket(path) }
        if let probe = try? Sockets.connectUnix(path: path) {
            probe.close()
            throw .inUse(path)
        }
        guard unlink(path) == 0 || errno == ENOENT else { throw .cannotPrepare(path, SystemError("unlink", subject: path)) }
        return made
    }

    /// The folder a socket lives in must be ours or root's, and writable by no one else unless
    /// it is sticky (as /tmp is, where only a file's owner may remove or rename it). A folder
    /// another user made at the default `/tmp/areasd-$UID` fails this.
    package static func checkFolder(of path: String, uid: uid_t = getuid()) throws(Problem) {
        let parent = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        let status: FileStatus?
        do throws(SystemError) { status = try FileSystem.status(of: parent, followLinks: false) } catch {
            throw .cannotPrepare(path, error)
        }
        guard let status else { return }
        guard status.kind == .directory else { throw .untrustedFolder(parent, reason: "it is a \(status.kind), not a folder") }
        guard status.owner == uid || status.owner == 0 else {
            throw .untrustedFolder(parent, reason: "it belongs to uid \(status.owner)")
        }
        let sticky = status.permissions & 0o1000 != 0
        if status.permissions & 0o002 != 0 && !sticky {
            throw .untrustedFolder(parent, reason: "anyone may write to it (mode \(String(status.permissions, radix: 8)))")
        }
        if status.permissions & 0o020 != 0 && !sticky && status.owner != uid {
            throw .untrustedFolder(parent, reason: "its group may write to it (mode \(String(status.permissions, radix: 8)))")
        }
    }

    /// The identity of the socket file just bound at `path`, to remove it later only if it is
    /// still the same file (another process may have replaced the name meanwhile).
    package static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        guard let status = try? FileSystem.status(of: path, followLinks: false), status.kind == .socket else { return nil }
        return (status.device, status.inode)
    }

    /// Removes the socket at `path` only when it is still the file `identity` names, and the
    /// folder `made` for it when nothing else is left in it (rmdir removes only an empty one).
    package static func remove(_ path: String, ifStill identity: (device: UInt64, inode: UInt64), folder made: String? = nil) {
        guard let now = Self.identity(of: path), now == identity else { return }
        try? FileSystem.removeFile(path)
        if let made { _ = rmdir(made) }
    }
}
