import Glibc

/// Strings stored back to back in one byte array, each named by the offset where it starts.
///
/// A million areas held as Swift `String`s cost a heap object for every name longer than 15
/// bytes (every Korean name), a retain on every copy, and hundreds of megabytes the kernel must
/// zero at startup. Here a string is its length (LEB128) followed by its UTF-8 bytes, so reading
/// one touches a single spot in memory and a whole data set's text is one allocation.
public struct StringArena: Sendable {
    /// Where a string starts in the arena.
    public typealias Ref = UInt32

    /// Each string: its byte length as LEB128, then its UTF-8 bytes.
    public let bytes: Column<UInt8>

    /// The empty string, present in every arena at offset 0.
    public static let empty: Ref = 0

    init(bytes: [UInt8]) {
        self.bytes = Column(bytes)
    }

    /// An arena over bytes whose every reference the caller checks before use (a mapped
    /// snapshot's, after `SnapshotFile` checked each string).
    package init(checkedBytes bytes: Column<UInt8>) {
        self.bytes = bytes
    }

    /// Calls `body` with the UTF-8 bytes of the string at `ref`.
    public func withUTF8<R>(_ ref: Ref, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { try body(Self.utf8(ref, in: $0)) }
    }

    /// The UTF-8 bytes of the string at `ref` inside the arena's buffer.
    @inlinable
    public static func utf8(_ ref: Ref, in arena: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let (offset, length) = bytes(of: ref, in: arena)
        return UnsafeBufferPointer(rebasing: arena[offset..<offset + length])
    }

    /// Where the bytes of the string at `ref` start, after its length, and how many they are.
    @inlinable
    static func bytes(of ref: Ref, in arena: UnsafeBufferPointer<UInt8>) -> (offset: Int, length: Int) {
        var offset = Int(ref)
        var length = 0
        var shift = 0
        while true {
            let byte = arena[offset]
            offset += 1
            length |= Int(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return (offset, length)
    }

    /// One past the last byte of the string at `ref`: where the next one starts.
    static func end(of ref: Ref, in arena: UnsafeBufferPointer<UInt8>) -> Int {
        let (offset, length) = bytes(of: ref, in: arena)
        return offset + length
    }

    public func string(_ ref: Ref) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: Self.utf8(ref, in: $0), as: UTF8.self) }
    }

    /// Whether the string at `ref` is `string`, without making a `String`.
    public func equals(_ ref: Ref, _ string: String) -> Bool {
        var string = string
        return string.withUTF8 { other in withUTF8(ref) { $0.sameBytes(as: other) } }
    }

    public func equals(_ a: Ref, _ b: Ref) -> Bool {
        a == b || bytes.withUnsafeBufferPointer { Self.utf8(a, in: $0).sameBytes(as: Self.utf8(b, in: $0)) }
    }

    /// Whether the string at `a` sorts before the one at `b`, comparing bytes (for UTF-8 the
    /// same order as comparing code points).
    public func precedes(_ a: Ref, _ b: Ref) -> Bool {
        bytes.withUnsafeBufferPointer { Self.utf8(a, in: $0).lexicographicallyPrecedes(Self.utf8(b, in: $0)) }
    }

    /// Compares the string at `ref` with `key`: negative, zero or positive like `memcmp`.
    public func compare(_ ref: Ref, _ key: UnsafeBufferPointer<UInt8>) -> Int {
        withUTF8(ref) { $0.byteOrder(comparedWith: key) }
    }

    /// Arena bytes in use (what the strings cost in memory).
    public var byteCount: Int { bytes.count }
}

extension StringArena {
    /// Appends strings, storing each distinct one once.
    public struct Builder: Sendable {
        private(set) var bytes: [UInt8] = [0]  // the empty string
        /// The distinct strings interned so far, by when they were first seen (the empty
        /// string is number 0).
        public private(set) var refs: [Ref] = [StringArena.empty]
        /// Open addressing over the interned strings, at most three quarters full: each slot is
        /// a string's number plus one (0 marks an empty slot). Keyed by a hash of the UTF-8
        /// bytes: `String` hashing normalises Unicode first, which made interning a large
        /// refresh take most of a second.
        private var slots = [UInt32](repeating: 0, count: 1024)
        /// Eight more bits of each slot's hash: a probe reads a string's text only when they
        /// match, which lets the table fill further (while a source comes in, the table is
        /// about as large as its rows).
        private var tags = [UInt8](repeating: 0, count: 1024)

        public init() {}

        /// A builder whose arena begins with `arena`'s strings at their references, for
        /// appending a few more (`append`); nothing earlier is interned.
        package init(continuing arena: StringArena) {
            bytes = Array(arena.bytes)
        }

        /// The reference of `string`, appending it if it is new.
        public mutating func intern(_ string: String) -> Ref {
            refs[number(of: string)]
        }

        /// The reference of the string with these UTF-8 bytes, appending it if it is new.
        public mutating func intern(_ utf8: UnsafeBufferPointer<UInt8>) -> Ref {
            refs[number(of: utf8)]
        }

        /// When `string` was first seen: its index in `refs`.
        public mutating func number(of string: String) -> Int {
            var string = string
            return string.withUTF8 { number(of: $0) }
        }

        public mutating func number(of utf8: UnsafeBufferPointer<UInt8>) -> Int {
            if utf8.isEmpty { return 0 }
            if 4 * refs.count > 3 * slots.count { rehash(capacity: 2 * slots.count) }
            let mask = slots.count - 1
            let hash = Self.hash(utf8)
            let tag = Self.tag(hash)
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 {
                if tags[slot] == tag {
                    let number = Int(slots[slot] - 1)
                    if bytes.withUnsafeBufferPointer({ StringArena.utf8(refs[number], in: $0).sameBytes(as: utf8) }) { return number }
                }
                slot = (slot + 1) & mask
            }
            // (Bytes that are not UTF-8 are stored repaired, so they never match and a repeat is
            // stored again: harmless, and a `String` is always valid.)
            refs.append(append(utf8))
            slots[slot] = UInt32(refs.count)
            tags[slot] = tag
            return refs.count - 1
        }

        private mutating func rehash(capacity: Int) {
            var larger = [UInt32](repeating: 0, count: capacity)
            var largerTags = [UInt8](repeating: 0, count: capacity)
            let mask = capacity - 1
            bytes.withUnsafeBufferPointer { arena in
                for entry in slots where entry != 0 {
                    let hash = Self.hash(StringArena.utf8(refs[Int(entry - 1)], in: arena))
                    var slot = Int(truncatingIfNeeded: hash) & mask
                    while larger[slot] != 0 { slot = (slot + 1) & mask }
                    larger[slot] = entry
                    largerTags[slot] = Self.tag(hash)
                }
            }
            slots = larger
            tags = largerTags
        }

        /// The hash's top byte: its low bits choose the slot.
        private static func tag(_ hash: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: hash >> 56) }

        /// Eight bytes a step, each mixed in by a multiply and a shift (Korean text is three
        /// bytes a character, so a byte at a time was most of the cost of interning).
        private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var hash = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
            guard let base = bytes.baseAddress else { return hash }
            let raw = UnsafeRawPointer(base)
            var offset = 0
            while offset + 8 <= bytes.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
                hash ^= hash >> 31
                offset += 8
            }
            var tail: UInt64 = 0
            while offset < bytes.count {
                tail = tail << 8 | UInt64(base[offset])
                offset += 1
            }
            hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
            return hash ^ (hash >> 29)
        }

        /// Appends `utf8` without looking for an earlier copy (the caller knows it is distinct);
        /// it is not numbered in `refs`.
        /// Bytes that are not valid UTF-8 are stored repaired, as `String(decoding:as:)` would.
        public mutating func append(_ utf8: UnsafeBufferPointer<UInt8>) -> Ref {
            if utf8.isEmpty { return StringArena.empty }
            guard StringArena.isValidUTF8(utf8) else {
                var repaired = String(decoding: utf8, as: UTF8.self)
                return repaired.withUTF8 { append($0) }
            }
            // Offsets are 32 bits: four gigabytes of text is far beyond any data set here.
            precondition(bytes.count + utf8.count + 10 <= Int(UInt32.max), "more than 4 GiB of area text")
            let ref = Ref(bytes.count)
            var length = utf8.count
            while length >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: length) | 0x80)
                length >>= 7
            }
            bytes.append(UInt8(length))
            bytes.append(contentsOf: utf8)
            return ref
        }

        public mutating func reserveCapacity(_ count: Int) {
            bytes.reserveCapacity(count)
        }

        /// Room for `byteCount` bytes of text and `count` numbered strings in all, so that
        /// neither grows by doubling (the old array and the new one held at once).
        public mutating func reserveCapacity(_ byteCount: Int, strings count: Int) {
            bytes.reserveCapacity(byteCount)
            refs.reserveCapacity(count)
        }

        /// The string at `ref`, appended earlier.
        public func string(_ ref: Ref) -> String {
            bytes.withUnsafeBufferPointer { String(decoding: StringArena.utf8(ref, in: $0), as: UTF8.self) }
        }

        /// Arena bytes so far.
        public var byteCount: Int { bytes.count }

        public func build() -> StringArena {
            StringArena(bytes: bytes)
        }

        /// The arena, leaving this builder empty: the lookup table goes first and the bytes
        /// once copied, so the text is never held twice beside the table.
        public mutating func take() -> StringArena {
            slots = [UInt32](repeating: 0, count: 1024)
            tags = [UInt8](repeating: 0, count: 1024)
            refs = [StringArena.empty]
            var taken: [UInt8] = [0]
            swap(&taken, &bytes)
            return StringArena(bytes: taken)
        }
    }
}

extension StringArena {
    /// Whether `bytes` is well-formed UTF-8 (no stray continuation bytes, overlong forms,
    /// surrogates or values past U+10FFFF): the arena hands its bytes to clients unchecked.
    public static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let count = bytes.count
        while i < count {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            // The allowed range of the second byte depends on the lead (Unicode table 3-7).
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return false
            }
            guard count - i >= length, (low...high).contains(bytes[i + 1]) else { return false }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return false }
            i += length
        }
        return true
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether both hold the same bytes: lengths first, then one `memcmp`.
    package func sameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard let x = baseAddress, let y = other.baseAddress else { return true }
        return memcmp(x, y, count) == 0
    }

    /// How these bytes sort against `other`'s, one byte at a time, a prefix before what it
    /// begins: below zero, zero or above (the order of the table's ids).
    package func byteOrder(comparedWith other: UnsafeBufferPointer<UInt8>) -> Int {
        let common = Swift.min(count, other.count)
        if common > 0, let x = baseAddress, let y = other.baseAddress {
            let order = memcmp(x, y, common)
            if order != 0 { return Int(order) }
        }
        return count - other.count
    }
}
