import CMemoryHints

/// Hints to the memory system, over the one-line C functions the standard library lacks.
@usableFromInline
enum MemoryHints {
    /// Starts loading every cache line of the `bytes` bytes from `start`, without waiting:
    /// reads known to come soon then overlap their misses instead of taking them one by one.
    @inlinable @inline(__always)
    static func prefetch<T>(_ start: UnsafePointer<T>, bytes: Int) {
        // Each line the span touches, once: from the first byte's line to the last byte's.
        let first = UInt(bitPattern: UnsafeRawPointer(start)) & ~63
        let last = (UInt(bitPattern: UnsafeRawPointer(start)) &+ UInt(bitPattern: bytes) &- 1) & ~63
        var line = first
        while line <= last {
            areas_prefetch(UnsafeRawPointer(bitPattern: line))
            line &+= 64
        }
    }
}
