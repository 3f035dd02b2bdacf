/// Percent-decoding of a request target (RFC 3986 §2.1), strictly: `%` must start two hex
/// digits, and what it decodes to must be UTF-8 without control characters, so a province
/// name such as `%EC%84%9C%EC%9A%B8` arrives as 서울 and nothing else slips through.
public enum PercentDecoding {
    public static func decode<C: Collection>(_ bytes: C, plusIsSpace: Bool, what: String) throws(HTTPError) -> String where C.Element == UInt8 {
        // Most targets are plain ASCII: nothing to decode or check.
        if bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "%") && ($0 != UInt8(ascii: "+") || !plusIsSpace) }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                let high = bytes.index(after: index)
                guard high != bytes.endIndex, bytes.index(after: high) != bytes.endIndex,
                      let h = hexValue(bytes[high]), let l = hexValue(bytes[bytes.index(after: high)]) else {
                    throw HTTPError(.badRequest, "\(what) has a % not followed by two hex digits")
                }
                out.append(h << 4 | l)
                index = bytes.index(high, offsetBy: 2)
                continue
            }
            out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = bytes.index(after: index)
        }
        guard let text = String(validating: out, as: UTF8.self) else { throw HTTPError(.badRequest, "\(what) is not UTF-8 once decoded") }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw HTTPError(.badRequest, "\(what) holds a control character once decoded")
        }
        return text
    }

    /// `name=value&name=value`, form-style (`+` is a space); empty pieces are skipped.
    public static func query<C: Collection>(_ bytes: C) throws(HTTPError) -> [(name: String, value: String)] where C.Element == UInt8 {
        var parameters: [(name: String, value: String)] = []
        for piece in bytes.split(separator: UInt8(ascii: "&")) {
            let equals = piece.firstIndex(of: UInt8(ascii: "="))
            let name = try decode(piece[..<(equals ?? piece.endIndex)], plusIsSpace: true, what: "a query parameter's name")
            let value = try equals.map { index throws(HTTPError) in
                try decode(piece[piece.index(after: index)...], plusIsSpace: true, what: "the query parameter \(name)")
            } ?? ""
            parameters.append((name, value))
        }
        return parameters
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
