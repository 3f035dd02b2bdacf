import CMemoryHints

/// Hints to the memory system, over the one-line C functions the standard library lacks.
enum MemoryHints {
    /// Starts loading every cache line of the `bytes` bytes from `start`, without waiting:
    /// reads known to come soon then overlap their misses instead of taking them one by one.
    @inline(__always)
    static func prefetch<T>(_ start: UnsafePointer<T>, bytes: Int) {
        let raw = UnsafeRawPointer(start)
        var offset = 0
        while offset < bytes {
            areas_prefetch(raw + offset)
            offset += 64
        }
        // The last byte's line, when the span straddles one more.
        areas_prefetch(raw + (bytes - 1))
    }
}
