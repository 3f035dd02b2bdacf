/// A parsed JSON value. Requests are small flat objects, so this is all the tree they need.
public enum JSONValue: Sendable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.null, .null): return true
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The JSON type name, for error messages.
    var typeName: String {
        switch self {
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "true or false"
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A strict JSON parser over UTF-8 bytes (RFC 8259), with a nesting limit so a hostile line
/// cannot exhaust the stack.
public struct JSONParser {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var offset: Int
        public var reason: String
        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    public static let maximumDepth = 32

    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses one complete JSON text; trailing bytes other than white space are an error.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.offset == bytes.count else { throw parser.fail("unexpected bytes after the value") }
        return value
    }

    /// A member's value as `forEachMember` hands it over: a string with no escapes stays in the
    /// input's bytes (already checked as UTF-8), so the words of a request cost no allocation.
    public enum Member {
        case text(UnsafeBufferPointer<UInt8>)
        case value(JSONValue)
    }

    /// Reads a JSON text that should be an object, handing each member's name (UTF-8, escapes
    /// resolved) and value to `visit` as it goes, without collecting the members. Returns nil
    /// for an object; any other value is returned whole, for the caller's error message.
    /// Later members of the same name come later, so a caller that keeps the last one agrees
    /// with `parse`. The buffers handed over point into `bytes`.
    public static func forEachMember(of bytes: UnsafeBufferPointer<UInt8>, _ visit: (UnsafeBufferPointer<UInt8>, Member) -> Void) throws(Failure) -> JSONValue? {
        var parser = JSONParser(bytes)
        parser.skipSpace()
        guard parser.offset < bytes.count, bytes[parser.offset] == UInt8(ascii: "{") else {
            let value = try parser.value(depth: 0)
            parser.skipSpace()
            guard parser.offset == bytes.count else { throw parser.fail("unexpected bytes after the value") }
            return value
        }
        try parser.members(depth: 1, visit)
        parser.skipSpace()
        guard parser.offset == bytes.count else { throw parser.fail("unexpected bytes after the value") }
        return nil
    }

    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        let result: Result<JSONValue, Failure> = bytes.withUnsafeBufferPointer { buffer in
            do throws(Failure) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private func fail(_ reason: String) -> Failure { Failure(offset: offset, reason: reason) }

    private mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard offset < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - offset >= count else { throw fail("unexpected end of input") }
        for i in 0..<count where bytes[offset + i] != word.utf8Start[i] { throw fail("unexpected character") }
        offset += count
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        var members: [(String, JSONValue)] = []
        try self.members(depth: depth) { name, member in
            let value: JSONValue
            switch member {
            case .text(let bytes): value = .string(String(decoding: bytes, as: UTF8.self))
            case .value(let other): value = other
            }
            members.append((String(decoding: name, as: UTF8.self), value))
        }
        return .object(members)
    }

    /// Reads an object from its `{` to its `}`, handing each member's name (UTF-8, escapes
    /// resolved) and value to `visit`.
    private mutating func members(depth: Int, _ visit: (UnsafeBufferPointer<UInt8>, Member) -> Void) throws(Failure) {
        guard depth <= Self.maximumDepth else { throw fail("nested deeper than \(Self.maximumDepth) levels") }
        offset += 1
        skipSpace()
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return
        }
        while true {
            skipSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
            // Plain ASCII names are used in place; anything else is decoded.
            let nameStart = offset + 1
            var nameEnd = nameStart
            while nameEnd < bytes.count, bytes[nameEnd] != UInt8(ascii: "\""), bytes[nameEnd] != UInt8(ascii: "\\"),
                  bytes[nameEnd] >= 0x20, bytes[nameEnd] < 0x80 { nameEnd += 1 }
            var decoded: String?
            if nameEnd < bytes.count, bytes[nameEnd] == UInt8(ascii: "\"") {
                offset = nameEnd + 1
            } else {
                decoded = try string()
            }
            skipSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw fail("expected ':' after a member name") }
            offset += 1
            skipSpace()
            let value: Member
            if let text = try plainText() {
                value = .text(text)
            } else {
                value = .value(try self.value(depth: depth))
            }
            if var decoded {
                decoded.withUTF8 { visit($0, value) }
            } else {
                visit(UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd]), value)
            }
            skipSpace()
            guard offset < bytes.count else { throw fail("unexpected end of input in an object") }
            if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
            if bytes[offset] == UInt8(ascii: "}") { offset += 1; return }
            throw fail("expected ',' or '}' in an object")
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw fail("nested deeper than \(Self.maximumDepth) levels") }
        offset += 1
        var elements: [JSONValue] = []
        skipSpace()
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return .array(elements)
        }
        while true {
            skipSpace()
            elements.append(try value(depth: depth))
            skipSpace()
            guard offset < bytes.count else { throw fail("unexpected end of input in an array") }
            if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
            if bytes[offset] == UInt8(ascii: "]") { offset += 1; return .array(elements) }
            throw fail("expected ',' or ']' in an array")
        }
    }

    private mutating func number() throws(Failure) -> Double {
        let start = offset
        if let exact = try exactNumber() { return exact }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw Failure(offset: start, reason: "number out of range") }
        return value
    }

    /// Plain decimals (no exponent) without `strtod`, when the answer can be had exactly.
    ///
    /// Up to 15 digits, the mantissa and a power of ten up to 10²² are both exact doubles, so one
    /// IEEE division gives the correctly rounded value, exactly what `strtod` returns (Clinger's
    /// fast path). Coordinates usually come with 16 or 17 digits (the shortest text that
    /// round-trips a double); on x86 those take the same path in 80-bit arithmetic, see
    /// `extendedQuotient`. Anything else returns nil and takes the general route.
    static func exactDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !text.isEmpty else { return nil }
        var parser = JSONParser(text)
        guard let value = try? parser.exactNumber(), parser.offset == text.count else { return nil }
        return value
    }

    /// Reads one number (checking its grammar) in a single pass that also gathers its digits;
    /// returns its value when that can be had exactly, else nil with the number read, for the
    /// general route.
    private mutating func exactNumber() throws(Failure) -> Double? {
        let negative = bytes[offset] == UInt8(ascii: "-")
        if negative { offset += 1 }
        var mantissa: UInt64 = 0
        var digitCount = 0  // leading zeros carry no precision and are not counted
        func digits() -> Int {
            let from = offset
            while offset < bytes.count {
                let digit = bytes[offset] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                if digitCount > 0 || mantissa != 0 { digitCount += 1 }
                offset += 1
            }
            return offset - from
        }
        guard offset < bytes.count else { throw fail("unexpected end of input in a number") }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
        } else if digits() == 0 {
            throw fail("expected a digit")
        }
        var fractionDigits = 0
        if offset < bytes.count && bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            fractionDigits = digits()
            guard fractionDigits > 0 else { throw fail("expected a digit after '.'") }
        }
        if offset < bytes.count && (bytes[offset] | 0x20) == UInt8(ascii: "e") {
            offset += 1
            if offset < bytes.count && (bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")) { offset += 1 }
            guard digits() > 0 else { throw fail("expected a digit in the exponent") }
            return nil  // exponents take the general route
        }
        // 19 digits always fit in 64 bits; past that the mantissa has wrapped.
        guard digitCount <= 19 else { return nil }
        let value: Double
        if digitCount <= 15 && fractionDigits < PowersOfTen.exactDoubles.count {
            value = Double(mantissa) / PowersOfTen.exactDoubles[fractionDigits]
        } else if let extended = Self.extendedQuotient(mantissa, fractionDigits: fractionDigits) {
            value = extended
        } else {
            return nil
        }
        return negative ? -value : value
    }

    #if arch(x86_64) || arch(i386)
    /// 10⁰ … 10²⁷: each fits the 64-bit significand of a `Float80` exactly (5²⁷ < 2⁶³).
    private static let extendedPowersOfTen: [Float80] = (0...27).reduce(into: []) { powers, k in
        powers.append(k == 0 ? 1 : powers[k - 1] * 10)
    }
    #endif

    /// `mantissa / 10^fractionDigits` correctly rounded to a double, or nil where this cannot
    /// be sure of it.
    ///
    /// A mantissa below 2⁶⁴ and a power of ten up to 10²⁷ are exact `Float80`s, so their
    /// quotient is the exact value rounded once to 64 significant bits. Rounding that again to
    /// 53 bits can differ from rounding the exact value only when the 64-bit result lies on the
    /// midpoint between two doubles (the 11 dropped bits are `100…0`); those few, and a margin
    /// of one unit either side, go to `strtod`.
    static func extendedQuotient(_ mantissa: UInt64, fractionDigits: Int) -> Double? {
        #if arch(x86_64) || arch(i386)
        guard fractionDigits < extendedPowersOfTen.count else { return nil }
        let quotient = Float80(mantissa) / extendedPowersOfTen[fractionDigits]
        let dropped = quotient.significandBitPattern & 0x7FF
        guard dropped < 0x3FF || dropped > 0x401 else { return nil }
        return Double(quotient)
        #else
        return nil
        #endif
    }

    /// A string value with no escapes, as the bytes between its quotes; nil (reading nothing)
    /// when the next value is not a string or has escapes to resolve.
    private mutating func plainText() throws(Failure) -> UnsafeBufferPointer<UInt8>? {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return nil }
        let start = offset + 1
        var end = start
        var ascii = true
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }  // the general path resolves or refuses it
            if byte >= 0x80 { ascii = false }
            end += 1
        }
        guard end < bytes.count else { return nil }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if !ascii && String(validating: text, as: UTF8.self) == nil {
            throw Failure(offset: start, reason: "invalid UTF-8 in a string")
        }
        offset = end + 1
        return text
    }

    private mutating func string() throws(Failure) -> String {
        if let text = try plainText() { return String(decoding: text, as: UTF8.self) }
        offset += 1
        // Built as UTF-8 bytes and made a String once: appending to a String's scalar view
        // copies the whole string whenever it grows, which made a long text with many escapes
        // (the metrics answer: 2 MB of lines) quadratic.
        var utf8: [UInt8] = []
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            if byte < 0x20 { throw fail("control character in a string") }
            if byte != UInt8(ascii: "\\") {
                let runStart = offset
                while offset < bytes.count, bytes[offset] != UInt8(ascii: "\\"), bytes[offset] != UInt8(ascii: "\""), bytes[offset] >= 0x20 { offset += 1 }
                try validateUTF8(runStart..<offset)
                utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<offset]))
                continue
            }
            offset += 1
            guard offset < bytes.count else { break }
            let escape = bytes[offset]
            offset += 1
            let scalar: Unicode.Scalar
            switch escape {
            case UInt8(ascii: "\""): scalar = "\""
            case UInt8(ascii: "\\"): scalar = "\\"
            case UInt8(ascii: "/"): scalar = "/"
            case UInt8(ascii: "b"): scalar = "\u{08}"
            case UInt8(ascii: "f"): scalar = "\u{0C}"
            case UInt8(ascii: "n"): scalar = "\n"
            case UInt8(ascii: "r"): scalar = "\r"
            case UInt8(ascii: "t"): scalar = "\t"
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard bytes.count - offset >= 6, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                        throw fail("unpaired surrogate in \\u escape")
                    }
                    offset += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired surrogate in \\u escape") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw fail("unpaired surrogate in \\u escape")
                }
                guard let decoded = Unicode.Scalar(code) else { throw fail("invalid \\u escape") }
                scalar = decoded
            default:
                throw fail("invalid escape")
            }
            UTF8.encode(scalar) { utf8.append($0) }
        }
        throw fail("unterminated string")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - offset >= 4 else { throw fail("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    private func validateUTF8(_ range: Range<Int>) throws(Failure) {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        // Keys and most values are ASCII, always valid: skip the generic validator, which looks up
        // type metadata on every call.
        if slice.allSatisfy({ $0 < 0x80 }) { return }
        guard String(validating: slice, as: UTF8.self) != nil else {
            throw Failure(offset: range.lowerBound, reason: "invalid UTF-8 in a string")
        }
    }
}
