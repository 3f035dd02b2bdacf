import AreasCore
import Foundation

extension GeoJSONDecoder {
    /// A forward-only JSON scanner over a file's bytes, for reading GeoJSON without building a
    /// tree of values: objects and arrays are walked with a closure per member or element,
    /// and coordinates are read as numbers where they lie.
    struct Reader {
        struct Failure: Error {
            var offset: Int
            var reason: String
        }

        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0
        private var depth = 0
        /// Deeper nesting than any GeoJSON has (a MultiPolygon's positions are at depth 8).
        static let maximumDepth = 64

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            // A UTF-8 byte-order mark, which some exporters write.
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3 }
        }

        var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        func failure(_ reason: String) -> Failure { Failure(offset: offset, reason: reason) }

        mutating func skipSpace() throws(Failure) {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
        }

        mutating func expect(_ byte: UInt8) throws(Failure) {
            try skipSpace()
            guard peek == byte else { throw failure("expected '\(Character(Unicode.Scalar(byte)))'") }
            offset += 1
        }

        mutating func nest() throws(Failure) {
            depth += 1
            guard depth <= Self.maximumDepth else { throw failure("nested more than \(Self.maximumDepth) deep") }
        }

        /// Calls `member` with each member's name, the reader at its value, which it must read.
        mutating func object(_ member: (String, inout Reader) throws(Failure) -> Void) throws(Failure) {
            try sequence(open: "{", close: "}", what: "an object") { reader throws(Failure) in
                let key = try reader.string()
                try reader.expect(UInt8(ascii: ":"))
                try reader.skipSpace()
                try member(key, &reader)
            }
        }

        /// Calls `element` with the reader at each element, which it must read.
        mutating func array(_ element: (inout Reader) throws(Failure) -> Void) throws(Failure) {
            try sequence(open: "[", close: "]", what: "an array", element)
        }

        /// An object's members or an array's elements, each read by `item`, separated by commas.
        private mutating func sequence(open: Unicode.Scalar, close: Unicode.Scalar, what: String,
                                       _ item: (inout Reader) throws(Failure) -> Void) throws(Failure) {
            try nest()
            try expect(UInt8(ascii: open))
            try skipSpace()
            if peek == UInt8(ascii: close) { offset += 1; depth -= 1; return }
            while true {
                try skipSpace()
                try item(&self)
                try skipSpace()
                guard let next = peek else { throw failure("the file ends inside \(what)") }
                offset += 1
                if next == UInt8(ascii: close) { break }
                guard next == UInt8(ascii: ",") else { throw Failure(offset: offset - 1, reason: "expected ',' or '\(close)' in \(what)") }
            }
            depth -= 1
        }

        mutating func string() throws(Failure) -> String {
            try skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw failure("expected a string") }
            offset += 1
            var raw: [UInt8] = []
            while let byte = peek {
                offset += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard let text = String(validating: raw, as: UTF8.self) else { throw failure("a string that is not UTF-8") }
                    return text
                case UInt8(ascii: "\\"):
                    guard let escaped = peek else { throw failure("the file ends inside a string") }
                    offset += 1
                    switch escaped {
                    case UInt8(ascii: "n"): raw.append(0x0A)
                    case UInt8(ascii: "t"): raw.append(0x09)
                    case UInt8(ascii: "r"): raw.append(0x0D)
                    case UInt8(ascii: "b"): raw.append(0x08)
                    case UInt8(ascii: "f"): raw.append(0x0C)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800..<0xDC00).contains(scalar), peek == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") {
                            offset += 2
                            let low = try hex4()
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low &- 0xDC00)
                        }
                        raw.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8))
                    default: raw.append(escaped)
                    }
                case 0..<0x20:
                    throw failure("a control character inside a string")
                default:
                    raw.append(byte)
                }
            }
            throw failure("the file ends inside a string")
        }

        private mutating func hex4() throws(Failure) -> UInt32 {
            guard offset + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16) else {
                throw failure("a \\u escape without four hexadecimal digits")
            }
            offset += 4
            return value
        }

        /// A number, as its text and its value (infinite for one out of `Double`'s range). The
        /// `NaN` and `Infinity` some writers put where JSON has no number are read as what they
        /// say, for the geometry to refuse.
        mutating func number() throws(Failure) -> (text: String, value: Double) {
            try skipSpace()
            for (word, value) in [("NaN", Double.nan), ("Infinity", .infinity), ("-Infinity", -.infinity)] where starts(with: word) {
                offset += word.utf8.count
                return (word, value)
            }
            let start = offset
            while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { offset += 1 }
            let text = String(decoding: bytes[start..<offset], as: UTF8.self)
            guard offset > start, let value = Double(text) else { throw Failure(offset: start, reason: "expected a number") }
            return (text, value)
        }

        /// A property's value as text: a string trimmed, a number as written, `true`/`false`,
        /// and `null` or a nested value as an empty cell.
        mutating func text() throws(Failure) -> String {
            try skipSpace()
            switch peek {
            case UInt8(ascii: "\""): return try string().trimmed
            case UInt8(ascii: "t"), UInt8(ascii: "f"):
                let word = peek == UInt8(ascii: "t") ? "true" : "false"
                try literal(word)
                return word
            case UInt8(ascii: "n"): try literal("null"); return ""
            case UInt8(ascii: "{"), UInt8(ascii: "["): try skipValue(); return ""
            default: return try number().text
            }
        }

        func starts(with word: String) -> Bool {
            let utf8 = Array(word.utf8)
            return offset + utf8.count <= bytes.count && Array(bytes[offset..<offset + utf8.count]) == utf8
        }

        mutating func literal(_ word: String) throws(Failure) {
            let utf8 = Array(word.utf8)
            guard offset + utf8.count <= bytes.count, Array(bytes[offset..<offset + utf8.count]) == utf8 else { throw failure("expected \(word)") }
            offset += utf8.count
        }

        mutating func skipValue() throws(Failure) {
            try skipSpace()
            switch peek {
            case UInt8(ascii: "{"): try object { _, reader throws(Failure) in try reader.skipValue() }
            case UInt8(ascii: "["): try array { reader throws(Failure) in try reader.skipValue() }
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case nil: throw failure("the file ends where a value should be")
            default: _ = try number()
            }
        }
    }
}
