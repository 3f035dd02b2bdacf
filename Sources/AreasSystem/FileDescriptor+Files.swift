import Glibc

extension FileDescriptor {
    /// How a file is opened. Every descriptor is close-on-exec.
    package struct OpenOptions: OptionSet, Sendable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }

        package static let readOnly = OpenOptions([])
        package static let writeOnly = OpenOptions(rawValue: O_WRONLY)
        package static let readWrite = OpenOptions(rawValue: O_RDWR)
        package static let create = OpenOptions(rawValue: O_CREAT)
        /// With `create`: fail if anything, a symbolic link included, is at the path.
        package static let exclusive = OpenOptions(rawValue: O_EXCL)
        /// Fail rather than follow a symbolic link at the path's last component.
        package static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
        /// Open without waiting (a FIFO with no writer would otherwise block the open).
        package static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        package static let directory = OpenOptions(rawValue: O_DIRECTORY)
    }

    package static func open(_ path: String, _ options: OpenOptions, permissions: mode_t = 0o640) throws(SystemError) -> FileDescriptor {
        let raw = try systemCall("open", subject: path) { Glibc.open(path, options.rawValue | O_CLOEXEC, permissions) }
        return FileDescriptor(rawValue: raw)
    }

    /// Writes every byte of `bytes` at `offset` in the file (a header filled in last),
    /// leaving the file's position where it was.
    package func write(_ bytes: [UInt8], at offset: Int) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { raw in pwrite(rawValue, raw.baseAddress! + done, raw.count - done, off_t(offset + done)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError("pwrite")
            }
            done += count
        }
    }

    /// What the open file is: its kind, size, owner and identity.
    package func status() throws(SystemError) -> FileStatus {
        var info = stat()
        try systemCall("fstat") { fstat(rawValue, &info) }
        return FileStatus(info)
    }

    /// Flushes what was written to the device.
    package func sync() throws(SystemError) {
        try systemCall("fsync") { fsync(rawValue) }
    }

    /// Reads until `count` bytes or the end of the file, whichever comes first.
    package func read(upTo count: Int) throws(SystemError) -> [UInt8] {
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
    package func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if n == 0 { break }
            filled += n
        }
        return filled
    }
}
