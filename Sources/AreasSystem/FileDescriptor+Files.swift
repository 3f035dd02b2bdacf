import Glibc

extension FileDescriptor {
    /// How a file is opened. Every descriptor is close-on-exec.
    public struct OpenOptions: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let readOnly = OpenOptions([])
        public static let writeOnly = OpenOptions(rawValue: O_WRONLY)
        public static let create = OpenOptions(rawValue: O_CREAT)
        /// With `create`: fail if anything, a symbolic link included, is at the path.
        public static let exclusive = OpenOptions(rawValue: O_EXCL)
        /// Fail rather than follow a symbolic link at the path's last component.
        public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
        /// Open without waiting (a FIFO with no writer would otherwise block the open).
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
    }

    public static func open(_ path: String, _ options: OpenOptions, permissions: mode_t = 0o640) throws(SystemError) -> FileDescriptor {
        let raw = try systemCall("open", subject: path) { Glibc.open(path, options.rawValue | O_CLOEXEC, permissions) }
        return FileDescriptor(rawValue: raw)
    }

    /// What the open file is: its kind, size, owner and identity.
    public func status() throws(SystemError) -> FileStatus {
        var info = stat()
        try systemCall("fstat") { fstat(rawValue, &info) }
        return FileStatus(info)
    }

    /// Flushes what was written to the device.
    public func sync() throws(SystemError) {
        try systemCall("fsync") { fsync(rawValue) }
    }

    /// Reads until `count` bytes or the end of the file, whichever comes first.
    public func read(upTo count: Int) throws(SystemError) -> [UInt8] {
        var failure: SystemError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(SystemError) {
                initialized = try readFully(into: UnsafeMutableRawBufferPointer(buffer))
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Fills `buffer` from the file, however many reads it takes, stopping early only at the
    /// end of the file; the bytes read.
    public func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if n == 0 { break }
            filled += n
        }
        return filled
    }
}

/// What `stat` says of a file.
public struct FileStatus: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink, fifo, socket, characterDevice, blockDevice, unknown
    }

    public var kind: Kind
    public var size: Int
    /// Seconds since 1970.
    public var modified: Double
    public var owner: uid_t
    public var permissions: mode_t
    /// Device and inode: the file's identity, whatever its name.
    public var device: UInt64
    public var inode: UInt64

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFSOCK: kind = .socket
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        default: kind = .unknown
        }
        size = Int(info.st_size)
        modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        owner = info.st_uid
        permissions = info.st_mode & 0o7777
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// Calls on paths, each turning errno into a thrown `SystemError` naming the path.
public enum FileSystem {
    /// The status of the file at `path`, or nil when nothing is there. With `followLinks`
    /// false, a symbolic link is described rather than its target.
    public static func status(of path: String, followLinks: Bool = true) throws(SystemError) -> FileStatus? {
        var info = stat()
        let result = followLinks ? stat(path, &info) : lstat(path, &info)
        if result != 0 {
            if errno == ENOENT { return nil }
            throw SystemError(followLinks ? "stat" : "lstat", subject: path)
        }
        return FileStatus(info)
    }

    /// Renames in one step: anything at `target` is replaced.
    public static func rename(_ source: String, to target: String) throws(SystemError) {
        try systemCall("rename", subject: "\(source) to \(target)") { Glibc.rename(source, target) }
    }

    /// Removes the name `path` (a link itself, never its target); nothing there is no error.
    public static func removeFile(_ path: String) throws(SystemError) {
        if unlink(path) != 0 && errno != ENOENT { throw SystemError("unlink", subject: path) }
    }

    /// Flushes a folder's entries (a rename in it) to the device; best effort, as some file
    /// systems refuse to sync a folder.
    public static func syncDirectory(_ path: String) {
        guard let directory = try? FileDescriptor.open(path, [.directory]) else { return }
        try? directory.sync()
        directory.close()
    }

    public static func setPermissions(_ path: String, _ permissions: mode_t) throws(SystemError) {
        try systemCall("chmod", subject: path) { chmod(path, permissions) }
    }

    /// Gives `path` to the group named `group`.
    public static func setGroup(_ path: String, named group: String) throws(SystemError) {
        guard let entry = getgrnam(group) else { throw SystemError("getgrnam", errno: ENOENT, subject: group) }
        try systemCall("chown", subject: path) { chown(path, uid_t.max, entry.pointee.gr_gid) }
    }
}

/// Process-wide signal dispositions.
public enum Signals {
    /// The signal is ignored from now on (SIGPIPE: a write to a closed peer is an error
    /// return, not the end of the process).
    public static func ignore(_ signal: Int32) {
        _ = Glibc.signal(signal, SIG_IGN)
    }

    /// On SIGBUS, writes `message` (a line) to standard error and ends the process with
    /// status 75 (EX_TEMPFAIL). A bus error here means a mapped file was cut short under a
    /// reader (a snapshot overwritten in place rather than replaced by a rename); no thread
    /// can go on from it, but the log then says what happened and the service manager starts
    /// the daemon again, which loads whatever file is there.
    public static func exitOnBusError(message: String) {
        let line = Array((message + "\n").utf8)
        let text = UnsafeMutablePointer<UInt8>.allocate(capacity: line.count)
        text.initialize(from: line, count: line.count)
        BusErrorMessage.text = UnsafePointer(text)
        BusErrorMessage.count = line.count
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            // Only async-signal-safe calls: write(2) and _exit(2).
            if let text = BusErrorMessage.text { _ = write(STDERR_FILENO, text, BusErrorMessage.count) }
            _exit(75)
        }
        sigemptyset(&action.sa_mask)
        _ = sigaction(SIGBUS, &action, nil)
    }
}

/// The line the SIGBUS handler writes, set once before the handler is installed.
private enum BusErrorMessage {
    nonisolated(unsafe) static var text: UnsafePointer<UInt8>?
    nonisolated(unsafe) static var count = 0
}

/// The monotonic clock systemd's messages are stamped with.
public enum MonotonicClock {
    public static var microseconds: Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int(now.tv_sec) * 1_000_000 + Int(now.tv_nsec) / 1000
    }
}
