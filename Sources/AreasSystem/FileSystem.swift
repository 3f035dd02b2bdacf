import Glibc

/// Calls on paths, each turning errno into a thrown `SystemError` naming the path.
package enum FileSystem {
    /// The status of the file at `path`, or nil when nothing is there. With `followLinks`
    /// false, a symbolic link is described rather than its target.
    package static func status(of path: String, followLinks: Bool = true) throws(SystemError) -> FileStatus? {
        var info = stat()
        let result = followLinks ? stat(path, &info) : lstat(path, &info)
        if result != 0 {
            if errno == ENOENT { return nil }
            throw SystemError(followLinks ? "stat" : "lstat", subject: path)
        }
        return FileStatus(info)
    }

    /// The status of the file at `path`; nothing there is an error too.
    package static func existingStatus(of path: String) throws(SystemError) -> FileStatus {
        guard let status = try status(of: path) else { throw SystemError("stat", errno: ENOENT, subject: path) }
        return status
    }

    /// Renames in one step: anything at `target` is replaced.
    package static func rename(_ source: String, to target: String) throws(SystemError) {
        try systemCall("rename", subject: "\(source) to \(target)") { Glibc.rename(source, target) }
    }

    /// Removes the name `path` (a link itself, never its target); nothing there is no error.
    package static func removeFile(_ path: String) throws(SystemError) {
        if unlink(path) != 0 && errno != ENOENT { throw SystemError("unlink", subject: path) }
    }

    /// Flushes a folder's entries (a rename in it) to the device; best effort, as some file
    /// systems refuse to sync a folder.
    package static func syncDirectory(_ path: String) {
        guard let directory = try? FileDescriptor.open(path, [.directory]) else { return }
        try? directory.sync()
        directory.close()
    }

    package static func setPermissions(_ path: String, _ permissions: mode_t) throws(SystemError) {
        try systemCall("chmod", subject: path) { chmod(path, permissions) }
    }

    /// The name of group `id`, or nil when the system has none by that number.
    package static func groupName(_ id: gid_t) -> String? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getgrgid_r(id, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.gr_name else { return nil }
        return String(cString: name)
    }

    /// Gives `path` to the group named `group`.
    package static func setGroup(_ path: String, named group: String) throws(SystemError) {
        guard let entry = getgrnam(group) else { throw SystemError("getgrnam", errno: ENOENT, subject: group) }
        try systemCall("chown", subject: path) { chown(path, uid_t.max, entry.pointee.gr_gid) }
    }
}
