/// Appends little-endian numbers and length-prefixed strings to a byte array.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ value: Double) {
        append(value.bitPattern)
    }

    mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            append(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }
}

/// Reads what `ByteWriter` wrote, refusing to read past the end.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    struct Truncated: Error {}

    mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) throws(Truncated) -> T {
        let size = MemoryLayout<T>.size
        guard bytes.count - offset >= size else { throw Truncated() }
        var value: T = 0
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + size])) }
        offset += size
        return T(littleEndian: value)
    }

    mutating func readDouble() throws(Truncated) -> Double {
        Double(bitPattern: try read(UInt64.self))
    }

    mutating func readString() throws(Truncated) -> String {
        let count = Int(try read(UInt32.self))
        guard bytes.count - offset >= count else { throw Truncated() }
        let string = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]), as: UTF8.self)
        offset += count
        return string
    }
}

/// 64-bit FNV-1a over bytes: detects truncation and flipped bytes in a snapshot.
func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    return hash
}
