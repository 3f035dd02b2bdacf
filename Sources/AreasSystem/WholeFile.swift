import Glibc

/// Files read or written whole: a config's data file, the geocoder's memory, a snapshot.
public enum WholeFile {
    /// Why a whole-file read refused the file.
    public enum ReadFailure: Error, Sendable, Equatable, CustomStringConvertible {
        case system(SystemError)
        /// Something other than a regular file (a FIFO would block the reader forever).
        case notRegular(FileStatus.Kind)
        case tooLarge(size: Int, limit: Int)

        public var description: String {
            switch self {
            case .system(let error): return error.reason
            case .notRegular(let kind): return "not a regular file (\(kind))"
            case .tooLarge(let size, let limit): return "\(size) bytes is more than the limit of \(limit)"
            }
        }
    }

    /// The bytes of the regular file at `path`, refused before reading when it is not a regular
    /// file or is larger than `limit`; nil when nothing is there.
    public static func read(_ path: String, limit: Int) throws(ReadFailure) -> [UInt8]? {
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
    ///
    /// The temporary is created new (`O_EXCL | O_NOFOLLOW`): a symbolic link planted at its
    /// name is removed, never written through.
    public static func replace(_ path: String, with bytes: [UInt8], permissions: mode_t = 0o640) throws(SystemError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        try createDirectories(directory)
        let temporary = "\(path).tmp-\(getpid())"
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
                try file.writeAll(bytes)
                try file.sync()
            } catch {
                file.close()
                throw error
            }
            file.close()
            try FileSystem.rename(temporary, to: path)
            FileSystem.syncDirectory(directory)
        } catch {
            if error.call != "open" || error.errno != EEXIST { try? FileSystem.removeFile(temporary) }
            throw error
        }
    }

    /// `mkdir -p`: every missing folder on the way to `path`.
    public static func createDirectories(_ path: String) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { throw SystemError("mkdir", subject: prefix) }
            prefix += "/"
        }
    }
}
