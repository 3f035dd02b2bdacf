/// Writes JSON straight into a reusable byte buffer: no intermediate tree, no `Encodable`.
///
/// Callers put commas and keys in the right places through `key(_:)` and the container
/// methods; it tracks only whether a separator is due.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    public init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    /// Makes room for at least `count` more bytes, so a long answer grows the buffer once.
    public mutating func reserve(_ count: Int) {
        let needed = bytes.count + count
        // Doubling at least: reserving the exact size answer after answer would copy the
        // whole batch each time.
        if needed > bytes.capacity { bytes.reserveCapacity(Swift.max(needed, 2 * bytes.capacity)) }
    }

    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = false
    }

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")) }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")) }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    public mutating func key(_ name: String) {
        string(name)
        colon()
    }

    /// Ends a key written with `string(utf8:)`.
    public mutating func colon() {
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { string(utf8: $0) }
    }

    /// A string given as its UTF-8 bytes, escaped as JSON requires.
    public mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for (i, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            }
            runStart = i + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    public mutating func number(_ value: Int) {
        separate()
        // Digits fill a stack buffer from its end, then go out in one append.
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + start, count: buffer.count - start))
        }
        needsComma = true
    }

    /// A finite number in its shortest round-trip form; non-finite values become null.
    public mutating func number(_ value: Double) {
        guard value.isFinite else { null(); return }
        if value == value.rounded(), abs(value) < 1e15 {
            number(Int(value))
            return
        }
        separate()
        bytes.append(contentsOf: value.description.utf8)
        needsComma = true
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
        let whole = Int(centimetres)
        number(whole / 100)
        var fraction = whole.magnitude % 100
        if whole < 0 && whole > -100 && fraction != 0 {
            // -0.05: the integer part printed as 0 has lost its sign.
            bytes.insert(UInt8(ascii: "-"), at: bytes.count - 1)
        }
        guard fraction != 0 else { return }
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10))
        fraction %= 10
        if fraction != 0 { bytes.append(UInt8(ascii: "0") + UInt8(fraction)) }
    }

    public mutating func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    public mutating func null() {
        raw("null")
    }

    /// A literal token, copied from static memory.
    private mutating func raw(_ token: StaticString) {
        separate()
        bytes.append(contentsOf: UnsafeBufferPointer(start: token.utf8Start, count: token.utf8CodeUnitCount))
        needsComma = true
    }

    public mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        needsComma = false
    }
}
