import CMemoryHints
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Hands memory that the allocator holds free back to the kernel.
///
/// Building a data set allocates and frees hundreds of megabytes of temporaries (the decoded
/// snapshot, sort keys, the arrays a tree is packed from). glibc keeps freed heap pages mapped
/// for reuse, and after the first large free it stops using fresh mappings for large blocks, so
/// without this the daemon's resident size would carry a build's high-water mark for good.
package enum FreeMemory {
    /// Returns free heap pages to the kernel; true when any were released.
    @discardableResult
    package static func release() -> Bool {
        guard let trim = mallocTrim else { return false }
        return trim(0) == 1
    }

    /// Lets go of the pages of the program's files that no one can have written: read-only
    /// private mappings with no page copied (`Anonymous: 0` in `/proc/self/smaps`), such as
    /// the code and constants of libraries a refresh used (URLSession, curl, TLS, XML) and the
    /// serving path never calls. They stay in the kernel's page cache, and a page the process
    /// touches again comes back from there. Mappings that were ever written (relocated tables,
    /// data) are left alone: letting them go would bring back the file's bytes. Returns the
    /// bytes let go.
    @discardableResult
    package static func releaseUnwrittenFilePages() -> Int {
        guard let mappings = MemoryMapping.ofProcess() else { return 0 }
        var released = 0
        for mapping in mappings where mapping.isFile && !mapping.writable && !mapping.shared
            && mapping.anonymousBytes == 0 && mapping.residentBytes > 0 && mapping.end > mapping.start {
            guard let base = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            if madvise(base, Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 { released += mapping.residentBytes }
        }
        return released
    }

    /// `release` and `releaseUnwrittenFilePages`, unless this process did so less than
    /// `interval` seconds ago: for work that runs a while (a refresh's fetching), so that the
    /// code it ran once (TLS set-up, a decoder's first use, the locale data) goes and only the
    /// code it keeps running stays resident, and the heap that each page's bytes and rows took,
    /// freed as the next page comes, does not stay resident beside the tables the rows went
    /// into until the fetch ends. Returns the file bytes let go.
    @discardableResult
    package static func releaseUnusedPages(atMostEvery interval: Double) -> Int {
        let now = MonotonicClock.microseconds
        let due = lastRelease.withLock { last in
            guard last == 0 || Double(now - last) >= interval * 1e6 else { return false }
            last = now
            return true
        }
        guard due else { return 0 }
        release()
        return releaseUnwrittenFilePages()
    }

    /// When `releaseUnusedPages(atMostEvery:)` last let pages go (monotonic µs).
    private static let lastRelease = LockedValue(0)

    /// From now on, blocks of `threshold` bytes or more (an answer's buffer, a large result)
    /// get mappings of their own, given back to the kernel as soon as they are freed.
    ///
    /// glibc raises its threshold for this each time such a block is freed, so after the first
    /// few large answers they come from the heap instead, and the pages stay resident after
    /// they are freed: a serving daemon's size then drifts up with the largest answers it has
    /// given. A fixed threshold stops the drift; true when set.
    @discardableResult
    package static func mapLargeBlocksSeparately(threshold: Int = 256 * 1024) -> Bool {
        guard let set = mallopt else { return false }
        return set(mmapThreshold, Int32(clamping: threshold)) == 1
    }

    /// At most `count` allocator arenas. glibc gives threads arenas of their own as they
    /// contend, up to eight per core, and each keeps the pages of what was freed in it: a server
    /// whose data is a mapped file and whose answers are written into buffers each connection
    /// reuses gains nothing from them, and holds their pages (half of its heap after a load).
    @discardableResult
    package static func limitArenas(to count: Int) -> Bool {
        guard let set = mallopt else { return false }
        return set(arenaMax, Int32(clamping: count)) == 1
    }

    /// What the process's memory is made of, for `stats`: the allocator's heap in use and
    /// held free, and the resident pages by what backs them (`/proc/self/status`).
    package struct Usage: Sendable {
        package var heapInUse = 0
        package var heapFree = 0
        package var resident = 0
        /// Anonymous pages: the heap, stacks, the allocator's free space.
        package var residentAnonymous = 0
        /// Pages of mapped files: the snapshot, the program and its libraries.
        package var residentFile = 0
    }

    package static func usage() -> Usage {
        var usage = Usage()
        var inUse = 0, held = 0
        areas_heap_usage(&inUse, &held)
        (usage.heapInUse, usage.heapFree) = (inUse, held)
        guard let status = ProcFile.read("/proc/self/status") else { return usage }
        for line in status.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count >= 2, let kilobytes = Int(parts[1]) else { continue }
            switch parts[0] {
            case "VmRSS:": usage.resident = kilobytes * 1024
            case "RssAnon:": usage.residentAnonymous = kilobytes * 1024
            case "RssFile:", "RssShmem:": usage.residentFile += kilobytes * 1024
            default: continue
            }
        }
        return usage
    }

    /// `M_MMAP_THRESHOLD` in glibc's `malloc.h`.
    private static let mmapThreshold: Int32 = -3
    /// `M_ARENA_MAX`.
    private static let arenaMax: Int32 = -8

    /// glibc's `mallopt`.
    private static let mallopt = glibc("mallopt", as: (@convention(c) (Int32, Int32) -> Int32).self)

    /// glibc's `malloc_trim`.
    private static let mallocTrim = glibc("malloc_trim", as: (@convention(c) (Int) -> Int32).self)

    /// A glibc function looked up at run time: the Glibc module does not export `malloc.h`, and
    /// other C libraries lack these calls.
    private static func glibc<Function>(_ name: String, as type: Function.Type) -> Function? {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
        #else
        return nil
        #endif
    }
}
