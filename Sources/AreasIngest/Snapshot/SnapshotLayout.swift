import AreasCore

/// Writes version 5's body: after the header, padded to `SnapshotFile.bodyOffset`, a run of
/// items, each starting at a multiple of 8 bytes. A number is 8 bytes, little-endian. A column
/// is its count (8 bytes), zero bytes to the next multiple of 64 (so its values lie as aligned
/// in the file, and in a mapping of it, as in memory), its values as they lie in memory, and
/// zero bytes to the next multiple of 8.
struct SnapshotLayoutWriter: FlatLayoutWriter {
    private(set) var bytes: [UInt8]

    init(reservingCapacity capacity: Int) {
        bytes = [UInt8](repeating: 0, count: SnapshotFile.bodyOffset)
        bytes.reserveCapacity(capacity)
    }

    mutating func number(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func column<Element: BitwiseCopyable>(_ column: Column<Element>) {
        number(UInt64(column.count))
        pad(to: 64)
        column.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeRawBufferPointer($0)) }
        pad(to: 8)
    }

    private mutating func pad(to alignment: Int) {
        let over = bytes.count % alignment
        if over != 0 { bytes.append(contentsOf: repeatElement(0, count: alignment - over)) }
    }

    /// Writes the header over the reserved bytes: magic, version, the payload's length and
    /// its checksum. The file is then complete.
    mutating func seal(magic: [UInt8] = SnapshotFile.magic, version: UInt32 = SnapshotFile.version) -> [UInt8] {
        var header = ByteWriter()
        header.bytes.append(contentsOf: magic)
        header.append(version)
        header.append(UInt64(bytes.count - SnapshotFile.headerSize))
        bytes.replaceSubrange(0..<header.bytes.count, with: header.bytes)
        SnapshotFile.seal(&bytes)
        return bytes
    }
}

/// Reads version 5's body in place: numbers are copied out, columns are handed back as
/// sections of `file`, kept alive by `owner` (the mapping, or a copy of the bytes).
struct SnapshotLayoutReader: FlatLayoutReader {
    let file: UnsafeRawBufferPointer
    let owner: AnyObject
    var offset = SnapshotFile.bodyOffset

    init(file: UnsafeRawBufferPointer, owner: AnyObject) {
        // Sections are aligned within the file; the file's start must be too (a mapping starts
        // on a page, a copy on 16 bytes).
        precondition(Int(bitPattern: file.baseAddress) % 16 == 0, "a snapshot image starts on 16 bytes")
        self.file = file
        self.owner = owner
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
