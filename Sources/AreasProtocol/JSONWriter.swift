/// Writes JSON straight into a reusable byte buffer: no intermediate tree, no `Encodable`.
///
/// Callers put commas and keys in the right places through `key(_:)` and the container
/// methods; it tracks only whether a separator is due.
///
/// The bytes live in memory the writer owns outright: an answer is hundreds of small appends,
/// and an `Array` checks on every one of them whether its storage is shared. A writer cannot be
/// copied, only passed `inout`, so no two ever write into one buffer.
public struct JSONWriter: ~Copyable {
    /// The bytes written so far are `base[0..<written]`, in memory of `allocated` bytes.
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var written = 0
    @usableFromInline var allocated: Int
    @usableFromInline var needsComma = false

    public init(capacity: Int = 4096) {
        allocated = Swift.max(capacity, 64)
        base = .allocate(capacity: allocated)
    }

    deinit { base.deallocate() }

    /// Appends without checking the capacity: the caller has made room.
    @inlinable @inline(__always)
    mutating func put(_ byte: UInt8) {
        base[written] = byte
        written += 1
    }

    @inlinable @inline(__always)
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let target = base + written
        // Most pieces are a few bytes (keys, ids): a loop beats a call to memmove.
        if bytes.count <= 16 {
            for i in 0..<bytes.count { target[i] = source[i] }
        } else {
            target.update(from: source, count: bytes.count)
        }
        written += bytes.count
    }

    /// Appends a constant piece (a key, a run of punctuation) eight bytes a store, the last
    /// eight overlapping the rest, instead of byte by byte or through `memmove`.
    @inlinable @inline(__always)
    mutating func put(_ piece: StaticString) {
        let length = piece.utf8CodeUnitCount
        let source = UnsafeRawPointer(piece.utf8Start)
        let target = UnsafeMutableRawPointer(base + written)
        if length >= 8 {
            var offset = 0
            while offset + 8 < length {
                target.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self), toByteOffset: length - 8, as: UInt64.self)
        } else {
            for i in 0..<length { target.storeBytes(of: source.load(fromByteOffset: i, as: UInt8.self), toByteOffset: i, as: UInt8.self) }
        }
        written += length
    }

    @usableFromInline
    mutating func grow(toHold needed: Int) {
        // Doubling at least: growing to the exact size answer after answer would copy the
        // whole batch each time.
        let capacity = Swift.max(needed, 2 * allocated)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        larger.update(from: base, count: written)
        base.deallocate()
        base = larger
        allocated = capacity
    }

    /// A copy of the bytes written so far.
    public var bytes: [UInt8] { withBytes { Array($0) } }

    public var count: Int { written }
    public var isEmpty: Bool { written == 0 }
    /// Bytes the buffer can hold before it grows.
    public var capacity: Int { allocated }

    /// Calls `body` with the bytes written so far, in place.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: written))
    }

    /// Makes room for at least `count` more bytes, so a long answer grows the buffer once.
    @inlinable
    public mutating func reserve(_ count: Int) {
        let needed = written + count
        if needed > allocated { grow(toHold: needed) }
    }

    public mutating func reset() {
        written = 0
        needsComma = false
    }

    @inlinable @inline(__always)
    mutating func append(_ byte: UInt8) {
        if written == allocated { grow(toHold: written + 1) }
        base[written] = byte
        written += 1
    }

    @inlinable @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        if written + bytes.count > allocated { grow(toHold: written + bytes.count) }
        put(bytes)
    }

    @inlinable @inline(__always)
    mutating func separate() {
        if needsComma { append(UInt8(ascii: ",")) }
        needsComma = false
    }

    // Inlined: an answer has a few of these per area, and each is a byte or two.
    @inlinable @inline(__always) public mutating func beginObject() { separate(); append(UInt8(ascii: "{")) }
    @inlinable @inline(__always) public mutating func endObject() { append(UInt8(ascii: "}")); needsComma = true }
    @inlinable @inline(__always) public mutating func beginArray() { separate(); append(UInt8(ascii: "[")) }
    @inlinable @inline(__always) public mutating func endArray() { append(UInt8(ascii: "]")); needsComma = true }

    @inlinable @inline(__always)  // the name's length is then a constant and its copy unrolled
    public mutating func key(_ name: StaticString) {
        reserve(name.utf8CodeUnitCount + 4)
                if needsComma { put(UInt8(ascii: ",")) }
        needsComma = false
        put(UInt8(ascii: "\""))
        put(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        put(UInt8(ascii: "\""))
        put(UInt8(ascii: ":"))
    }

    /// A key known only at run time, escaped as a string. Named apart from `key(_:)` because a
    /// literal would otherwise pick this `String` overload over the `StaticString` one.
    public mutating func key(escaping name: String) {
        string(name)
        colon()
    }

    /// Members written before (`"a":1,"b":"x"`, by another writer), copied as they are into
    /// the object open here: an answer repeating the same members for many areas makes them
    /// once.
    public mutating func members(written bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        separate()
        append(bytes)
        needsComma = true
    }

    /// Ends a key written with `string(utf8:)`.
    @inlinable
    /// A value written as JSON already (a document made once), copied as it is.
    public mutating func value(written bytes: UnsafeBufferPointer<UInt8>) { members(written: bytes) }

    public mutating func colon() {
        append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A constant that needs no escaping (a member's fixed value, such as a footprint's basis),
    /// copied as it is.
    public mutating func string(constant value: StaticString) {
        separate()
        reserve(value.utf8CodeUnitCount + 2)
        put(UInt8(ascii: "\""))
        put(UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount))
        put(UInt8(ascii: "\""))
        needsComma = true
    }

    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { string(utf8: $0) }
    }

    /// A string given as its UTF-8 bytes, escaped as JSON requires.
    public mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        separate()
        reserve(utf8.count + 2)
        put(UInt8(ascii: "\""))
        var runStart = 0
        while true {
            let end = Self.firstEscape(in: utf8, from: runStart)
            append(UnsafeBufferPointer(rebasing: utf8[runStart..<end]))
            guard end < utf8.count else { break }
            let byte = utf8[end]
            append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): append(UInt8(ascii: "\\"))
            case 0x0A: append(UInt8(ascii: "n"))
            case 0x0D: append(UInt8(ascii: "r"))
            case 0x09: append(UInt8(ascii: "t"))
            default:
                let hex: StaticString = "0123456789abcdef"
                append(UInt8(ascii: "u"))
                append(UInt8(ascii: "0"))
                append(UInt8(ascii: "0"))
                append(hex.utf8Start[Int(byte >> 4)])
                append(hex.utf8Start[Int(byte & 15)])
            }
            runStart = end + 1
        }
        append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// The position of the first byte at or after `start` that JSON requires escaped (a control
    /// character, a quote or a backslash), or the end.
    ///
    /// Names and addresses are long runs of Hangul with nothing to escape: eight bytes are
    /// tested at a time, each test exact (a word is let through only when none of its bytes
    /// needs escaping).
    static func firstEscape(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        /// A high bit set in each byte below `n` (n <= 128) and only if some byte is.
        func anyBelow(_ word: UInt64, _ n: UInt64) -> Bool { (word &- ones &* n) & ~word & highs != 0 }
        var i = start
        while i + 8 <= utf8.count {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            if anyBelow(word, 0x20) || anyBelow(word ^ (ones &* 0x22), 1) || anyBelow(word ^ (ones &* 0x5C), 1) { break }
            i += 8
        }
        while i < utf8.count {
            let byte = base[i]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return i }
            i += 1
        }
        return i
    }

    public mutating func number(_ value: Int) {
        separate()
        let digits = Self.decimalDigits(value.magnitude)
        let sign = value < 0 ? 1 : 0
        reserve(sign + digits)
        let start = base + written
        if value < 0 { start[0] = UInt8(ascii: "-") }
        Self.put(value.magnitude, digits: digits, at: start + sign)
        written += sign + digits
        needsComma = true
    }

    /// Writes the last `digits` decimal digits of `value`, leading zeros included, into the
    /// `digits` bytes at `start`: straight to their places, last first, two at a time.
    @inline(__always)
    private static func put(_ value: UInt, digits: Int, at start: UnsafeMutablePointer<UInt8>) {
        var value = value
        var end = start + digits
        let pairs = digitPairs.utf8Start
        while end - start >= 2 {
            let pair = Int(value % 100) &* 2
            value /= 100
            end -= 2
            end[0] = pairs[pair]
            end[1] = pairs[pair &+ 1]
        }
        if end > start { start[0] = UInt8(ascii: "0") + UInt8(value % 10) }
    }

    /// How many decimal digits `value` has (1 for 0).
    @inline(__always)
    private static func decimalDigits(_ value: UInt) -> Int {
        // From the bit length: ⌊bits × log10(2)⌋ (1233/4096 ≈ log10 2) digits or one more.
        let bits = UInt.bitWidth - (value | 1).leadingZeroBitCount
        let guess = (bits &* 1233) &>> 12
        return guess &+ (value | 1 >= PowersOfTen.integer(guess) ? 1 : 0)  // | 1: zero has one digit
    }

    /// "00" to "99", back to back.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// A finite number in its shortest round-trip form; non-finite values become null.
    public mutating func number(_ value: Double) {
        guard value.isFinite else { null(); return }
        if value == value.rounded(), abs(value) < 1e15 {
            number(Int(value))
            return
        }
        if let (digits, decimals) = Self.shortDecimal(value) {
            separate()
            if value < 0 { append(UInt8(ascii: "-")) }
            let scale = UInt64(PowersOfTen.integer(decimals))
            number(Int(digits / scale))
            append(UInt8(ascii: "."))
            reserve(decimals)
            Self.put(UInt(digits % scale), digits: decimals, at: base + written)
            written += decimals
            needsComma = true
            return
        }
        separate()
        var text = value.description
        text.withUTF8 { append($0) }
        needsComma = true
    }

    /// More decimals than coordinates have in practice (upstream publishes six).
    private static let maximumDecimals = 10

    /// `|value|` as `digits / 10^decimals` with the fewest decimals (at most ten) that read back
    /// as exactly `value`, which is then its shortest round-trip form; nil when it needs more,
    /// or is too large or small for this to be exact.
    ///
    /// Formatting a double the general way (`description`) allocates, and a full answer writes
    /// two per area. Here: the value scaled by 10¹⁰ and rounded
    /// is, for any value with at most ten decimals, those decimals followed by zeros (the
    /// scaling's error is far below one half), so trailing zeros are stripped and the quotient
    /// checked. Both the digits (below 2⁵³) and the power of ten are exact doubles, so that one
    /// IEEE division is exactly how a reader converts the text back.
    static func shortDecimal(_ value: Double) -> (digits: UInt64, decimals: Int)? {
        let magnitude = abs(value)
        guard magnitude >= 1e-6, magnitude < 1e5 else { return nil }
        var digits = UInt64((magnitude * PowersOfTen.exactDoubles[maximumDecimals]).rounded())
        var decimals = maximumDecimals
        while decimals > 0 && digits % 10 == 0 {
            digits /= 10
            decimals -= 1
        }
        guard Double(digits) / PowersOfTen.exactDoubles[decimals] == magnitude else { return nil }
        return (digits, decimals)
    }

    /// A distance rounded to centimetres, enough for any use and shorter on the wire.
    ///
    /// Written from the whole number of centimetres, with no trailing zeros: the same text as
    /// the shortest form of `cm / 100`, without formatting a `Double` on every answer.
    public mutating func meters(_ value: Double) {
        let centimetres = (value * 100).rounded()
        guard centimetres.isFinite, abs(centimetres) < 1e15 else {
            number(centimetres / 100)
            return
        }
        separate()
        reserve(Self.metersRoom)
        putMeters(centimetres: Int(centimetres))
        needsComma = true
    }

    /// Room enough for any distance `meters` writes in place: a sign, 13 digits, a point and two.
    private static let metersRoom = 17

    /// Writes `centimetres / 100` with no trailing zeros where the caller has made room.
    @inline(__always)
    private mutating func putMeters(centimetres: Int) {
        let whole = centimetres.magnitude / 100
        var fraction = centimetres.magnitude % 100
        let digits = Self.decimalDigits(whole)
        let start = base + written
        let sign = centimetres < 0 ? 1 : 0
        start[0] = UInt8(ascii: "-")  // overwritten by the first digit when positive
        Self.put(whole, digits: digits, at: start + sign)
        var end = start + sign + digits
        if fraction != 0 {
            end[0] = UInt8(ascii: ".")
            end[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction / 10)
            fraction %= 10
            end[2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction)
            end += fraction != 0 ? 3 : 2
        }
        written = end - base
    }

    /// `{"id":"<id>","distanceMeters":<distance>`: an item of an `ids` answer up to its closing
    /// brace, with one check for room and the pieces stored straight, rather than a check for
    /// each piece through `beginObject`, `key`, `string` and `meters`: an `ids` answer is little
    /// else. An id that needs escaping takes that way still.
    public mutating func beginIDEntry(id: UnsafeBufferPointer<UInt8>, distanceMeters: Double?) {
        let centimetres = distanceMeters.map { ($0 * 100).rounded() } ?? 0
        guard Self.firstEscape(in: id, from: 0) == id.count, centimetres.isFinite, abs(centimetres) < 1e15 else {
            beginObject()
            key("id"); string(utf8: id)
            if let distanceMeters { key("distanceMeters"); meters(distanceMeters) }
            needsComma = true
            return
        }
        let head: StaticString = #"{"id":""#
        let middle: StaticString = #"","distanceMeters":"#
        reserve(1 + head.utf8CodeUnitCount + id.count + middle.utf8CodeUnitCount + Self.metersRoom)
                if needsComma { put(UInt8(ascii: ",")) }
        put(head)
        put(id)
        if distanceMeters != nil {
            put(middle)
            putMeters(centimetres: Int(centimetres))
        } else {
            put(UInt8(ascii: "\""))
        }
        needsComma = true
    }

    /// `"footprint":{"basis":"<basis>","shape":"circle","radiusMeters":<radius>`: a circular
    /// footprint up to its optional members, the object left open for them and `endObject`,
    /// with one check for room rather than one a piece: a full answer has one for each zone.
    public mutating func beginCircleFootprint(basis: StaticString, radiusMeters: Double) {
        let centimetres = (radiusMeters * 100).rounded()
        guard centimetres.isFinite, abs(centimetres) < 1e15 else {
            key("footprint"); beginObject()
            key("basis"); string(constant: basis)
            key("shape"); string(constant: "circle")
            key("radiusMeters"); meters(radiusMeters)
            return
        }
        let head: StaticString = #""footprint":{"basis":""#
        let tail: StaticString = #"","shape":"circle","radiusMeters":"#
        reserve(1 + head.utf8CodeUnitCount + basis.utf8CodeUnitCount + tail.utf8CodeUnitCount + Self.metersRoom)
        if needsComma { put(UInt8(ascii: ",")) }
        put(head)
        put(UnsafeBufferPointer(start: basis.utf8Start, count: basis.utf8CodeUnitCount))
        put(tail)
        putMeters(centimetres: Int(centimetres))
        needsComma = true
    }

    @inlinable
    public mutating func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    @inlinable
    public mutating func null() {
        raw("null")
    }

    /// A literal token, copied from static memory.
    @inlinable @inline(__always)
    mutating func raw(_ token: StaticString) {
        separate()
        append(UnsafeBufferPointer(start: token.utf8Start, count: token.utf8CodeUnitCount))
        needsComma = true
    }

    @inlinable
    public mutating func newline() {
        append(UInt8(ascii: "\n"))
        needsComma = false
    }
}
