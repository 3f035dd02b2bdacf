#if canImport(Glibc)
import Glibc
#endif

/// Hands memory that the allocator holds free back to the kernel.
///
/// Building a data set allocates and frees hundreds of megabytes of temporaries (the decoded
/// snapshot, sort keys, the arrays a tree is packed from). glibc keeps freed heap pages mapped
/// for reuse, and after the first large free it stops using fresh mappings for large blocks, so
/// without this the daemon's resident size would carry a build's high-water mark for good.
public enum FreeMemory {
    /// Returns free heap pages to the kernel; true when any were released.
    @discardableResult
    public static func release() -> Bool {
        guard let trim = mallocTrim else { return false }
        return trim(0) == 1
    }

    /// glibc's `malloc_trim`, looked up at run time: the Glibc module does not export
    /// `malloc.h`, and other C libraries lack the call.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()
}
