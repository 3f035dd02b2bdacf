import Glibc

/// A file mapped read-only into memory, unmapped when the last holder lets go.
///
/// Pages are shared with the kernel's cache of the file and with every other process that maps
/// it, and are read in only when touched. The file must never change in place while mapped (a
/// shortened file would fault a reader): files mapped here are only ever replaced by renaming a
/// new file over the name, which leaves the mapped one whole until it is unmapped.
package final class MappedFile: @unchecked Sendable {
    /// The whole file.
    package let bytes: UnsafeRawBufferPointer
    /// The file's identity and size when it was mapped.
    package let status: FileStatus

    /// Maps the regular file open at `file` whole; it must not be empty.
    package init(_ file: FileDescriptor, path: String) throws(SystemError) {
        let status = try file.status()
        guard status.kind == .regular, status.size > 0 else { throw SystemError("mmap", errno: EINVAL, subject: path) }
        guard let address = mmap(nil, status.size, PROT_READ, MAP_SHARED, file.rawValue, 0), address != MAP_FAILED else {
            throw SystemError("mmap", subject: path)
        }
        self.bytes = UnsafeRawBufferPointer(start: address, count: status.size)
        self.status = status
    }

    /// Takes the pages out of this process's resident set, leaving them in the kernel's cache:
    /// after a check has read every byte, the process then holds only what queries touch.
    package func releaseResidentPages() {
        releaseResidentPages(of: bytes)
    }

    /// Takes the pages holding `part` of the file out of this process's resident set (the
    /// pages it shares with its neighbours too: they come back from the cache when touched).
    package func releaseResidentPages(of part: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, let start = part.baseAddress, start >= base, start + part.count <= base + bytes.count, !part.isEmpty else { return }
        let page = ResidentPages.pageSize
        let first = (start - base) / page * page
        let end = min((start - base + part.count + page - 1) / page * page, bytes.count)
        _ = madvise(UnsafeMutableRawPointer(mutating: base + first), end - first, MADV_DONTNEED)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }

    /// How much of a mapped file a pass over it (a checksum, a check of its layout, a copy)
    /// reads before it lets those pages go: a pass then holds about this much resident, not the
    /// file.
    package static let partBytes = 4 << 20

    /// Calls `body` with `bytes` cut in consecutive parts of at most `partBytes`, in order.
    package static func forEachPart(of bytes: UnsafeRawBufferPointer, partBytes: Int = partBytes,
                                    _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        for start in stride(from: 0, to: bytes.count, by: partBytes) {
            try body(UnsafeRawBufferPointer(rebasing: bytes[start..<Swift.min(start + partBytes, bytes.count)]))
        }
    }
}
