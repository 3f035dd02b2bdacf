import Glibc

/// Files read or written whole: a config's data file, the geocoder's memory, a snapshot.
package enum WholeFile {
    /// Why a whole-file read refused the file.
    package enum ReadFailure: Error, Sendable, Equatable, CustomStringConvertible {
        case system(SystemError)
        /// Something other than a regular file (a FIFO would block the reader forever).
        case notRegular(FileStatus.Kind)
        case tooLarge(size: Int, limit: Int)

        package var description: String {
            switch self {
            case .system(let error): return error.reason
            case .notRegular(let kind): return "not a regular file (\(kind))"
            case .tooLarge(let size, let limit): return "\(size) bytes is more than the limit of \(limit)"
            }
        }
    }

    /// The bytes of the regular file at `path`, refused before reading when it is not a regular
    /// file or is larger than `limit`; nil when nothing is there.
    package static func read(_ path: String, limit: Int) throws(ReadFailure) -> [UInt8]? {
        let file: FileDescriptor
        do throws(SystemError) {
            guard try FileSystem.status(of: path) != nil else { return nil }
            file = try FileDescriptor.open(path, [.nonBlocking])
        } catch {
            throw .system(error)
        }
        defer { file.close() }
        let status: FileStatus
        do throws(SystemError) { status = try file.status() } catch { throw .system(error) }
        guard status.kind == .regular else { throw .notRegular(status.kind) }
        guard status.size <= limit else { throw .tooLarge(size: status.size, limit: limit) }
        var failure: SystemError?
        let bytes = [UInt8](unsafeUninitializedCapacity: status.size) { buffer, initialized in
            do throws(SystemError) {
                initialized = try file.readFully(into: UnsafeMutableRawBufferPointer(buffer))
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw .system(failure) }
        return bytes
    }

    /// Replaces the file at `path` in one step: a temporary file in the same folder, fsync,
    /// rename, fsync of the folder. A crash leaves the old file or the new one, never a mix;
    /// on failure the old file is untouched and the temporary removed.
    package static func replace(_ path: String, with bytes: [UInt8], permissions: mode_t = 0o640) throws(SystemError) {
        let temporary = try writeTemporary(for: path, bytes, permissions: permissions)
        try commit(temporary, to: path)
    }

    /// The first half of `replace`: writes and syncs `bytes` to a new temporary file beside
    /// `path` and returns its name, so the caller can check it before `commit` puts it in place
    /// (or `discard` removes it).
    ///
    /// The temporary is created new (`O_EXCL | O_NOFOLLOW`): a symbolic link planted at its
    /// name is removed, never written through.
    package static func writeTemporary(for path: String, _ bytes: [UInt8], permissions: mode_t = 0o640) throws(SystemError) -> String {
        try writeTemporary(for: path, permissions: permissions) { file throws(SystemError) in try file.writeAll(bytes) }
    }

    /// A new temporary beside `path` that `write` fills, synced to disk; its name.
    package static func writeTemporary(for path: String, permissions: mode_t = 0o640,
                                       _ write: (FileDescriptor) throws(SystemError) -> Void) throws(SystemError) -> String {
        let temporary = try temporaryName(for: path)
        do throws(SystemError) {
            let file: FileDescriptor
            do {
                file = try FileDescriptor.open(temporary, [.writeOnly, .create, .exclusive, .noFollow], permissions: permissions)
            } catch where error.errno == EEXIST {
                // Left by a process that died with this pid, or planted: remove the name, not its target.
                try FileSystem.removeFile(temporary)
                file = try FileDescriptor.open(temporary, [.writeOnly, .create, .exclusive, .noFollow], permissions: permissions)
            }
            do throws(SystemError) {
                try write(file)
                try file.sync()
            } catch {
                file.close()
                throw error
            }
            file.close()
            return temporary
        } catch {
            if error.call != "open" || error.errno != EEXIST { discard(temporary) }
            throw error
        }
    }

    /// A second name for the file at `source` as a temporary beside `path` (a hard link: the
    /// same file, so processes mapping either share its pages), or nil when the two are on
    /// different file systems or the link is refused; then the caller copies.
    package static func linkTemporary(for path: String, to source: String) throws(SystemError) -> String? {
        let temporary = try temporaryName(for: path)
        if link(source, temporary) == 0 { return temporary }
        if errno == EEXIST {
            try FileSystem.removeFile(temporary)
            if link(source, temporary) == 0 { return temporary }
        }
        return nil
    }

    /// The second half of `replace`: renames `temporary` over `path` and syncs the folder; on
    /// failure the temporary is removed and the old file is untouched.
    package static func commit(_ temporary: String, to path: String) throws(SystemError) {
        do throws(SystemError) {
            try FileSystem.rename(temporary, to: path)
            FileSystem.syncDirectory(folder(of: path))
        } catch {
            discard(temporary)
            throw error
        }
    }

    /// Removes a temporary that will not be committed.
    package static func discard(_ temporary: String) {
        try? FileSystem.removeFile(temporary)
    }

    private static func temporaryName(for path: String) throws(SystemError) -> String {
        try createDirectories(folder(of: path))
        return "\(path).tmp-\(getpid())"
    }

    private static func folder(of path: String) -> String {
        let slash = path.lastIndex(of: "/")
        return slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    }

    /// `mkdir -p`: every missing folder on the way to `path`.
    package static func createDirectories(_ path: String) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { throw SystemError("mkdir", subject: prefix) }
            prefix += "/"
        }
    }
}
