/// Appends little-endian numbers to a byte array (a snapshot's header).
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}

/// Reads the numbers and length-prefixed strings of a snapshot of versions 2 to 4, refusing
/// to read past the end.
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

    /// A length-prefixed string's bytes, in place.
    mutating func readBytes() throws(Truncated) -> UnsafeBufferPointer<UInt8> {
        let count = Int(try read(UInt32.self))
        guard bytes.count - offset >= count else { throw Truncated() }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
        offset += count
        return slice.assumingMemoryBound(to: UInt8.self)
    }
}

/// XXH64 (seed 0) over bytes: detects truncation and flipped bytes in a snapshot, and reads
/// eight bytes a step, so checking a 200 MB snapshot costs tens of milliseconds.
func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    let p1: UInt64 = 0x9E37_79B1_85EB_CA87, p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    let p3: UInt64 = 0x1656_67B1_9E37_79F9, p4: UInt64 = 0x85EB_CA77_C2B2_AE63, p5: UInt64 = 0x27D4_EB2F_1656_67C5
    @inline(__always) func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        ((acc &+ input &* p2).rotatedLeft(31)) &* p1
    }
    @inline(__always) func merge(_ acc: UInt64, _ value: UInt64) -> UInt64 {
        (acc ^ round(0, value)) &* p1 &+ p4
    }
    @inline(__always) func word(_ offset: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    let count = bytes.count
    var offset = 0
    var hash: UInt64
    if count >= 32 {
        var v1 = p1 &+ p2, v2 = p2, v3: UInt64 = 0, v4 = 0 &- p1
        while offset + 32 <= count {
            v1 = round(v1, word(offset))
            v2 = round(v2, word(offset + 8))
            v3 = round(v3, word(offset + 16))
            v4 = round(v4, word(offset + 24))
            offset += 32
        }
        hash = v1.rotatedLeft(1) &+ v2.rotatedLeft(7) &+ v3.rotatedLeft(12) &+ v4.rotatedLeft(18)
        hash = merge(hash, v1)
        hash = merge(hash, v2)
        hash = merge(hash, v3)
        hash = merge(hash, v4)
    } else {
        hash = p5
    }
    hash &+= UInt64(count)
    while offset + 8 <= count {
        hash ^= round(0, word(offset))
        hash = hash.rotatedLeft(27) &* p1 &+ p4
        offset += 8
    }
    if offset + 4 <= count {
        hash ^= UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) &* p1
        hash = hash.rotatedLeft(23) &* p2 &+ p3
        offset += 4
    }
    while offset < count {
        hash ^= UInt64(bytes[offset]) &* p5
        hash = hash.rotatedLeft(11) &* p1
        offset += 1
    }
    hash ^= hash >> 33
    hash = hash &* p2
    hash ^= hash >> 29
    hash = hash &* p3
    hash ^= hash >> 32
    return hash
}

extension UInt64 {
    @inline(__always)
    func rotatedLeft(_ count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
