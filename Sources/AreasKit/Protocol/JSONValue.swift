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

    /// Reads a JSON text that should be an object, handing each member's name (UTF-8, escapes
    /// resolved) and value to `visit` as it goes, without collecting the members. Returns nil
    /// for an object; any other value is returned whole, for the caller's error message.
    /// Later members of the same name come later, so a caller that keeps the last one agrees
    /// with `parse`.
    public static func forEachMember(of bytes: UnsafeBufferPointer<UInt8>, _ visit: (UnsafeBufferPointer<UInt8>, JSONValue) -> Void) throws(Failure) -> JSONValue? {
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
        try self.members(depth: depth) { name, value in members.append((String(decoding: name, as: UTF8.self), value)) }
        return .object(members)
    }

    /// Reads an object from its `{` to its `}`, handing each member's name (UTF-8, escapes
    /// resolved) and value to `visit`.
    private mutating func members(depth: Int, _ visit: (UnsafeBufferPointer<UInt8>, JSONValue) -> Void) throws(Failure) {
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
            let value = try value(depth: depth)
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
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        func digits() -> Int {
            let from = offset
            while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
            return offset - from
        }
        guard offset < bytes.count else { throw fail("unexpected end of input in a number") }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
        } else if digits() == 0 {
            throw fail("expected a digit")
        }
        if offset < bytes.count && bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { throw fail("expected a digit after '.'") }
        }
        if offset < bytes.count && (bytes[offset] | 0x20) == UInt8(ascii: "e") {
            offset += 1
            if offset < bytes.count && (bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")) { offset += 1 }
            guard digits() > 0 else { throw fail("expected a digit in the exponent") }
        }
        if let exact = Self.exactDecimal(UnsafeBufferPointer(rebasing: bytes[start..<offset])) { return exact }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw Failure(offset: start, reason: "number out of range") }
        return value
    }

    /// Plain decimals of at most 15 digits (coordinates, counts, meters) without `strtod`.
    ///
    /// Such a mantissa and a power of ten up to 10²² are both exact doubles, so one IEEE
    /// division gives the correctly rounded value, exactly what `strtod` returns (Clinger's fast
    /// path). Anything else, exponents included, returns nil and takes the general route.
    private static let powersOfTen: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    static func exactDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var mantissa: UInt64 = 0
        var digitCount = 0
        var fractionDigits = 0
        var negative = false
        var seenPoint = false
        for (i, byte) in text.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where i == 0:
                negative = true
            case UInt8(ascii: "."):
                seenPoint = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if mantissa != 0 || byte != UInt8(ascii: "0") {
                    // Leading zeros carry no precision; past 15 digits this path cannot be exact.
                    digitCount += 1
                    if digitCount > 15 { return nil }
                }
                mantissa = mantissa &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
                if seenPoint { fractionDigits += 1 }
            default:
                return nil
            }
        }
        guard fractionDigits < powersOfTen.count else { return nil }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    private mutating func string() throws(Failure) -> String {
        offset += 1
        let start = offset
        // Fast path: no escapes.
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let text = try validUTF8(start..<offset)
                offset += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail("control character in a string") }
            offset += 1
        }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: try validUTF8(start..<offset).unicodeScalars)
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                return String(scalars)
            }
            if byte < 0x20 { throw fail("control character in a string") }
            if byte != UInt8(ascii: "\\") {
                let runStart = offset
                while offset < bytes.count, bytes[offset] != UInt8(ascii: "\\"), bytes[offset] != UInt8(ascii: "\""), bytes[offset] >= 0x20 { offset += 1 }
                scalars.append(contentsOf: try validUTF8(runStart..<offset).unicodeScalars)
                continue
            }
            offset += 1
            guard offset < bytes.count else { break }
            let escape = bytes[offset]
            offset += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
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
                guard let scalar = Unicode.Scalar(code) else { throw fail("invalid \\u escape") }
                scalars.append(scalar)
            default:
                throw fail("invalid escape")
            }
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

    private func validUTF8(_ range: Range<Int>) throws(Failure) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        // Keys and most values are ASCII, always valid: skip the generic validator, which looks up
        // type metadata on every call.
        if slice.allSatisfy({ $0 < 0x80 }) { return String(decoding: slice, as: UTF8.self) }
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw Failure(offset: range.lowerBound, reason: "invalid UTF-8 in a string")
        }
        return text
    }
}
