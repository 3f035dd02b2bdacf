import AreasSystem

/// The character set a source file is written in.
package enum TextEncoding: String, Sendable, CaseIterable {
    /// UTF-8 when the bytes are valid UTF-8, else CP949: a CP949 file of Korean text is almost
    /// never valid UTF-8 by accident (its lead bytes 0x81-0xFE need continuation bytes in
    /// 0x80-0xBF, which CP949's second bytes mostly are not).
    case auto
    case utf8 = "utf-8"
    /// Microsoft's code page 949, a superset of EUC-KR (KS X 1001).
    case cp949

    /// Accepts the names people write, `euc-kr` among them (decoded as its superset CP949).
    package init?(configName: String) {
        switch configName.lowercased() {
        case "auto": self = .auto
        case "utf-8", "utf8": self = .utf8
        case "cp949", "euc-kr", "euckr", "ms949", "uhc": self = .cp949
        default: return nil
        }
    }

    /// The text of `bytes` as UTF-8, without a byte-order mark.
    package func utf8Text(_ bytes: [UInt8]) throws(UpstreamError) -> [UInt8] {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        switch self {
        case .utf8:
            guard String(validating: body, as: UTF8.self) != nil else {
                throw .undecodableText("not valid UTF-8 (set \"encoding\": \"cp949\" if the file is in the Korean Windows code page)")
            }
            return Array(body)
        case .auto:
            if String(validating: body, as: UTF8.self) != nil { return Array(body) }
            return try Self.cp949(Array(body))
        case .cp949:
            return try Self.cp949(Array(body))
        }
    }

    private static func cp949(_ bytes: [UInt8]) throws(UpstreamError) -> [UInt8] {
        do throws(TextConverter.Failure) {
            let converter = try TextConverter(from: "CP949", to: "UTF-8")
            return try converter.convert(bytes)
        } catch {
            throw .undecodableText("not CP949 either: \(error)")
        }
    }
}
