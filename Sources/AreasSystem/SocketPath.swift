import Foundation
import Glibc

/// Makes a socket path ready to bind, without ever deleting what is not ours to delete.
public enum SocketPath {
    public enum Problem: Error, Sendable, CustomStringConvertible {
        case inUse(String)
        case notASocket(String)
        case tooLong(String)
        case cannotPrepare(String, SystemError)

        public var description: String {
            switch self {
            case .inUse(let path): return "\(path) is in use by a running areasd; stop it first or choose another --socket"
            case .notASocket(let path): return "\(path) exists and is not a socket; refusing to replace it"
            case .tooLong(let path): return Sockets.PathTooLong(path: path).description
            case .cannotPrepare(let path, let error): return "cannot prepare \(path): \(error)"
            }
        }
    }

    /// Creates the parent folder if needed, and removes a stale socket left by a dead daemon.
    public static func prepare(_ path: String) throws(Problem) {
        guard path.utf8.count <= Sockets.maximumPathLength else { throw .tooLong(path) }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && !FileManager.default.fileExists(atPath: parent) {
            guard mkdir(parent, 0o755) == 0 || errno == EEXIST else { throw .cannotPrepare(path, SystemError("mkdir", subject: parent)) }
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else { throw .notASocket(path) }
        if let probe = try? Sockets.connectUnix(path: path) {
            probe.close()
            throw .inUse(path)
        }
        guard unlink(path) == 0 || errno == ENOENT else { throw .cannotPrepare(path, SystemError("unlink", subject: path)) }
    }
}
