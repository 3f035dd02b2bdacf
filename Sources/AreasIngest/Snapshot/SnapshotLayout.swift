import AreasCore
import AreasSystem

/// Writes version 5's body: after the header, padded to `SnapshotFile.bodyOffset`, a run of
/// items, each starting at a multiple of 8 bytes. A number is 8 bytes, little-endian. A column
/// is its count (8 bytes), zero bytes to the next multiple of 64 (so its values lie as aligned
/// in the file, and in a mapping of it, as in memory), its values as they lie in memory, and
/// zero bytes to the next multiple of 8.
struct SnapshotLayoutWriter: FlatLayoutWriter {
    /// The bytes laid out and not yet written: the whole file when it is kept in memory.
    private(set) var bytes: [UInt8]
    /// Where the bytes go as they fill, when the file is written as it is laid out.
    private let file: FileDescriptor?
    /// Bytes already written to `file`, and the checksum of those after the header.
    private var written = 0
    private var sum = StreamingChecksum()
    /// The first failure to write; later bytes are not written.
    private var failure: SystemError?
    /// How many bytes gather before they are written.
    private static let flushBytes = 1 << 20

    /// A file laid out in memory, for `seal()`.
    init(reservingCapacity capacity: Int) {
        bytes = [UInt8](repeating: 0, count: SnapshotFile.bodyOffset)
        bytes.reserveCapacity(capacity)
        file = nil
    }

    /// A file written to `file` as it is laid out, a megabyte at a time and each large column
    /// straight from where it lies, so that the file is never held whole; `finish()` ends it.
    /// A large column that lies in a mapped file is written a part at a time, each part's pages
    /// let go once written: writing it does not bring the whole of it into the process.
    init(writingTo file: FileDescriptor) {
        bytes = [UInt8](repeating: 0, count: SnapshotFile.bodyOffset)
        bytes.reserveCapacity(Self.flushBytes + 4096)
        self.file = file
    }

    /// The file's length so far.
    private var offset: Int { written + bytes.count }

    mutating func number(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func column<Element: BitwiseCopyable>(_ column: Column<Element>) {
        number(UInt64(column.count))
        pad(to: 64)
        column.withUnsafeBufferPointer { elements in
            let raw = UnsafeRawBufferPointer(elements)
            if file != nil && raw.count >= Self.flushBytes {
                flush()
                if let mapping = column.storage as? MappedFile {
                    MappedFile.forEachPart(of: raw) { part in
                        emit(part)
                        mapping.releaseResidentPages(of: part)
                    }
                } else {
                    emit(raw)
                }
            } else {
                bytes.append(contentsOf: raw)
                if file != nil && bytes.count >= Self.flushBytes { flush() }
            }
        }
        pad(to: 8)
    }

    private mutating func pad(to alignment: Int) {
        let over = offset % alignment
        if over != 0 { bytes.append(contentsOf: repeatElement(0, count: alignment - over)) }
    }

    /// Writes out what has gathered.
    private mutating func flush() {
        // Taken out while written (`emit` changes the writer), then put back, its capacity kept.
        var gathered: [UInt8] = []
        swap(&gathered, &bytes)
        gathered.withUnsafeBytes { emit($0) }
        gathered.removeAll(keepingCapacity: true)
        bytes = gathered
    }

    /// Writes `raw` at the end of the file, adding what follows the header to the checksum.
    private mutating func emit(_ raw: UnsafeRawBufferPointer) {
        guard let file, failure == nil else { return }
        let skipped = Swift.max(0, Swift.min(raw.count, SnapshotFile.headerSize - written))
        sum.update(UnsafeRawBufferPointer(rebasing: raw[skipped...]))
        do throws(SystemError) {
            try file.writeAll(raw)
        } catch {
            failure = error
        }
        written += raw.count
    }

    private static func header(magic: [UInt8], version: UInt32, payloadLength: Int, checksum: UInt64) -> [UInt8] {
        var header = ByteWriter()
        header.bytes.append(contentsOf: magic)
        header.append(version)
        header.append(UInt64(payloadLength))
        header.append(checksum)
        return header.bytes
    }

    /// Writes the header over the reserved bytes: magic, version, the payload's length and
    /// its checksum. The file is then complete.
    mutating func seal(magic: [UInt8] = SnapshotFile.magic, version: UInt32 = SnapshotFile.version) -> [UInt8] {
        let header = Self.header(magic: magic, version: version, payloadLength: bytes.count - SnapshotFile.headerSize, checksum: 0)
        bytes.replaceSubrange(0..<header.count, with: header)
        SnapshotFile.seal(&bytes)
        return bytes
    }

    /// Writes what is left, then the header at the file's start; the file is then complete.
    mutating func finish(magic: [UInt8] = SnapshotFile.magic, version: UInt32 = SnapshotFile.version) throws(SystemError) {
        flush()
        if let failure { throw failure }
        guard let file else { return }
        try file.write(Self.header(magic: magic, version: version, payloadLength: written - SnapshotFile.headerSize, checksum: sum.value), at: 0)
    }
}

/// Reads version 5's body in place: numbers are copied out, columns are handed back as
/// sections of `file`, kept alive by `owner` (the mapping, or a copy of the bytes).
struct SnapshotLayoutReader: FlatLayoutReader {
    let file: UnsafeRawBufferPointer
    let owner: AnyObject
    var offset = SnapshotFile.bodyOffset
    /// Called with the bytes before a column about to be read, once `MappedFile.partBytes` more
    /// of the file were read since the last call: a mapped file lets those pages go, so checking it
    /// holds about that much of it resident (and what later checks read again), not all of it.
    private let letGo: ((UnsafeRawBufferPointer) -> Void)?
    private var letGoneUpTo = 0

    init(file: UnsafeRawBufferPointer, owner: AnyObject, lettingGo letGo: ((UnsafeRawBufferPointer) -> Void)? = nil) {
        // Sections are aligned within the file; the file's start must be too (a mapping starts
        // on a page, a copy on 16 bytes).
        precondition(Int(bitPattern: file.baseAddress) % 16 == 0, "a snapshot image starts on 16 bytes")
        self.file = file
        self.owner = owner
        self.letGo = letGo
    }

    mutating func number() throws(FlatLayoutError) -> UInt64 {
        guard file.count - offset >= 8 else { throw FlatLayoutError("the file ends inside a number at byte \(offset)") }
        let value = file.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return UInt64(littleEndian: value)
    }

    mutating func column<Element: BitwiseCopyable>(of type: Element.Type) throws(FlatLayoutError) -> Column<Element> {
        let count = try number()
        let start = (offset + 63) / 64 * 64
        let stride = MemoryLayout<Element>.stride
        guard start <= file.count, count <= UInt64((file.count - start) / stride) else {
            throw FlatLayoutError("a column of \(count) values at byte \(offset) runs past the end of the file")
        }
        let end = start + Int(count) * stride
        if let letGo, start - letGoneUpTo >= MappedFile.partBytes {
            letGo(UnsafeRawBufferPointer(rebasing: file[..<start]))
            letGoneUpTo = start
        }
        offset = (end + 7) / 8 * 8
        guard count > 0, let base = file.baseAddress else { return Column() }
        let values = (base + start).bindMemory(to: Element.self, capacity: Int(count))
        return Column(unsafeBase: values, count: Int(count), owner: owner)
    }
}

/// A copy of a snapshot's bytes on an aligned block, for one that arrived in memory (over
/// HTTP) rather than as a file to map.
final class SnapshotImage: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer

    init(copying source: UnsafeRawBufferPointer) {
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(source.count, 1), alignment: 64)
        block.copyMemory(from: source)
        bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(block)[..<source.count])
    }

    deinit { UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate() }
}
