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
    var sum = StreamingChecksum()
    sum.update(bytes)
    return sum.value
}

/// XXH64 (seed 0) fed in pieces, as a snapshot is written: the same value as `checksum` over
/// the pieces laid end to end.
struct StreamingChecksum {
    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87, p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9, p4: UInt64 = 0x85EB_CA77_C2B2_AE63, p5: UInt64 = 0x27D4_EB2F_1656_67C5
    private var v1 = p1 &+ p2, v2 = p2, v3: UInt64 = 0, v4 = 0 &- p1
    private var total = 0
    /// Bytes after the last whole 32-byte stripe.
    private var tail: [UInt8] = []

    @inline(__always) private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        ((acc &+ input &* p2).rotatedLeft(31)) &* p1
    }

    @inline(__always) private static func merge(_ acc: UInt64, _ value: UInt64) -> UInt64 {
        (acc ^ round(0, value)) &* p1 &+ p4
    }

    /// Consumes the whole stripes of `bytes` from `offset`; the offset after them.
    private mutating func stripes(_ bytes: UnsafeRawBufferPointer, from offset: Int) -> Int {
        @inline(__always) func word(_ at: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        var offset = offset
        var (a, b, c, d) = (v1, v2, v3, v4)
        while offset + 32 <= bytes.count {
            a = Self.round(a, word(offset))
            b = Self.round(b, word(offset + 8))
            c = Self.round(c, word(offset + 16))
            d = Self.round(d, word(offset + 24))
            offset += 32
        }
        (v1, v2, v3, v4) = (a, b, c, d)
        return offset
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        total += bytes.count
        var offset = 0
        if !tail.isEmpty {
            offset = Swift.min(32 - tail.count, bytes.count)
            tail.append(contentsOf: bytes[0..<offset])
            guard tail.count == 32 else { return }
            _ = tail.withUnsafeBytes { stripes($0, from: 0) }
            tail.removeAll(keepingCapacity: true)
        }
        offset = stripes(bytes, from: offset)
        tail.append(contentsOf: bytes[offset...])
    }

    var value: UInt64 {
        let (p1, p2, p3, p5) = (Self.p1, Self.p2, Self.p3, Self.p5)
        var hash: UInt64
        if total >= 32 {
            hash = v1.rotatedLeft(1) &+ v2.rotatedLeft(7) &+ v3.rotatedLeft(12) &+ v4.rotatedLeft(18)
            hash = Self.merge(hash, v1)
            hash = Self.merge(hash, v2)
            hash = Self.merge(hash, v3)
            hash = Self.merge(hash, v4)
        } else {
            hash = p5
        }
        hash &+= UInt64(total)
        tail.withUnsafeBytes { bytes in
            var offset = 0
            while offset + 8 <= bytes.count {
                hash ^= Self.round(0, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                hash = hash.rotatedLeft(27) &* p1 &+ Self.p4
                offset += 8
            }
            if offset + 4 <= bytes.count {
                hash ^= UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) &* p1
                hash = hash.rotatedLeft(23) &* p2 &+ p3
                offset += 4
            }
            while offset < bytes.count {
                hash ^= UInt64(bytes[offset]) &* p5
                hash = hash.rotatedLeft(11) &* p1
                offset += 1
            }
        }
        hash ^= hash >> 33
        hash = hash &* p2
        hash ^= hash >> 29
        hash = hash &* p3
        hash ^= hash >> 32
        return hash
    }
}

extension UInt64 {
    @inline(__always)
    func rotatedLeft(_ count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
