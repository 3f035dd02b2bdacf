import Glibc

/// Counts the bytes of ranges of this process's memory that it has in RAM, a page at a time,
/// each page once: ranges given in ascending order that share a page (the end of one column of
/// a mapped file and the start of the next) count it for the first only.
///
/// It reads the present bit of `/proc/self/pagemap`, which says what the process's resident
/// size counts. `mincore` would not do: for a file the caller owns it reports the kernel's
/// cache of the file, pages the process has let go of included.
package final class ResidentPages {
    package static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    private let pagemap: FileDescriptor?
    /// The number of the page just past the last one counted.
    private var countedThrough: UInt = 0
    /// Entries read at once: a bounded buffer however large the range.
    private static let batchPages = 16_384

    package init() {
        pagemap = try? FileDescriptor.open("/proc/self/pagemap", .readOnly)
    }

    deinit {
        pagemap?.close()
    }

    /// The resident bytes of the pages that `range` touches and no earlier range counted;
    /// nothing when `/proc/self/pagemap` cannot be read.
    package func count(_ range: UnsafeRawBufferPointer) -> Int {
        guard let pagemap, let base = range.baseAddress, range.count > 0 else { return 0 }
        let page = UInt(Self.pageSize)
        let end = (UInt(bitPattern: base) + UInt(range.count) + page - 1) / page
        var next = Swift.max(UInt(bitPattern: base) / page, countedThrough)
        guard next < end else { return 0 }
        countedThrough = end
        var resident = 0
        var entries = [UInt64](repeating: 0, count: Swift.min(Self.batchPages, Int(end - next)))
        while next < end {
            let pages = Swift.min(entries.count, Int(end - next))
            let read = entries.withUnsafeMutableBytes { buffer in
                pread(pagemap.rawValue, buffer.baseAddress, pages * 8, off_t(next) * 8)
            }
            guard read > 0 else { break }
            let got = read / 8
            // Bit 63: the page is present in RAM.
            for index in 0..<got where entries[index] >> 63 == 1 { resident += Int(page) }
            next += UInt(got)
        }
        return resident
    }
}
