import AreasCore
import AreasSystem
import Glibc

/// A column moved out of memory into a file of its own that has no name, then mapped: its
/// pages are then the kernel's cache, written back and dropped as it needs, and come into the
/// process only as they are read. The file goes when the column's last copy does.
///
/// A refresh moves its new search index there as soon as it is built, so the trees built next
/// do not add to it; laying out the new snapshot then reads it a part at a time
/// (`SnapshotLayoutWriter` lets each part's pages go once written).
enum ColumnOnDisk {
    /// Below this a column stays in memory: the file costs more than it frees.
    static let smallestBytes = 4 << 20

    /// `column` in an unnamed file in `folder`, mapped; nil when it is smaller than
    /// `smallestBytes` or the file cannot be made or written (a full disk), and the column
    /// then stays where it was.
    static func moving<Element: BitwiseCopyable>(_ column: Column<Element>, into folder: String) -> Column<Element>? {
        guard column.count * MemoryLayout<Element>.stride >= smallestBytes else { return nil }
        do throws(SystemError) {
            let file = try unnamedFile(in: folder)
            defer { file.close() }
            try column.withUnsafeBufferPointer { (elements) throws(SystemError) in try file.writeAll(UnsafeRawBufferPointer(elements)) }
            let mapping = try MappedFile(file, path: folder)
            guard mapping.bytes.count == column.count * MemoryLayout<Element>.stride, let base = mapping.bytes.baseAddress else { return nil }
            return Column(unsafeBase: base.assumingMemoryBound(to: Element.self), count: column.count, owner: mapping)
        } catch {
            return nil
        }
    }

    /// `O_TMPFILE`, which Glibc's module does not bring into Swift: a value every Linux
    /// architecture this builds for shares.
    private static let temporaryFileFlag: Int32 = 0o20000000 | O_DIRECTORY

    /// A file in `folder` that no path names: made so where the file system can, else made
    /// under a name that is removed at once.
    private static func unnamedFile(in folder: String) throws(SystemError) -> FileDescriptor {
        let raw = Glibc.open(folder, temporaryFileFlag | O_RDWR | O_CLOEXEC, 0o600)
        if raw >= 0 { return FileDescriptor(rawValue: raw) }
        let path = "\(folder)/.areas-column-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let file = try FileDescriptor.open(path, [.readWrite, .create, .exclusive, .noFollow], permissions: 0o600)
        unlink(path)
        return file
    }
}
