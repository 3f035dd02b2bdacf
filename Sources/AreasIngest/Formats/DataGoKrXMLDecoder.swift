import AreasCore
import Foundation
import Glibc

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Decodes a page of the nationwide non-smoking zone API (data.go.kr, `type=xml`).
///
/// A streaming parse straight into records: each `<item>`'s children become its fields, in
/// order. It also reads the result code, in the normal `<response><header>` or in the gateway's
/// `<OpenAPI_ServiceResponse>` envelope (which arrives with HTTP 200), and the total count.
package struct DataGoKrXMLDecoder: PageDecoder {
    package init() {}

    package func decode(_ body: [UInt8]) throws(UpstreamError) -> UpstreamPage {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw .malformedPage("empty body")
        }
        try Self.preflight(body)
        let reader = Reader()
        let failure: String? = body.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return "empty body" }
            // The parser reads the page in place: no copy of a page that can be megabytes.
            let data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none)
            let parser = XMLParser(data: data)
            parser.delegate = reader  // weak: `reader` keeps it alive for the parse
            let completed = parser.parse()
            guard completed, parser.parserError == nil, reader.failure == nil else {
                return reader.failure ?? parser.parserError.map { "XML error: \(($0 as NSError).code) \($0.localizedDescription)" } ?? "parse stopped"
            }
            return nil
        }
        if let failure { throw .malformedPage(failure) }
        return try reader.page()
    }

    /// Refuses what the service never sends and Foundation's XMLParser cannot survive: it traps
    /// on an element name that is not valid UTF-8 and crashes on a processing instruction
    /// without data (both found by fuzzing). Document type declarations are refused too, so no
    /// page can declare entities. The XML declaration at the start is allowed.
    static func preflight(_ body: [UInt8]) throws(UpstreamError) {
        try body.withUnsafeBufferPointer { bytes throws(UpstreamError) in
            if let bad = firstInvalidUTF8(bytes) { throw .malformedPage("not valid UTF-8 at byte \(bad)") }
            var start = 0
            if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
            while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x0A || bytes[start] == 0x0D || bytes[start] == 0x09 { start += 1 }
            // "<?xml" followed by white space is the declaration, not an instruction.
            if bytes.count - start > 6, bytes[start] == UInt8(ascii: "<"), bytes[start + 1] == UInt8(ascii: "?"),
               bytes[start + 2] == UInt8(ascii: "x"), bytes[start + 3] == UInt8(ascii: "m"), bytes[start + 4] == UInt8(ascii: "l"),
               [0x20, 0x0A, 0x0D, 0x09].contains(bytes[start + 5]) {
                var end = start + 5
                while end + 1 < bytes.count && !(bytes[end] == UInt8(ascii: "?") && bytes[end + 1] == UInt8(ascii: ">")) { end += 1 }
                guard end + 1 < bytes.count else { throw .malformedPage("unterminated XML declaration") }
                start = end + 2
            }
            guard let base = bytes.baseAddress else { return }
            // "<?" and "<!" are the only markup refused; '?' and '!' are rare, so look for those
            // and then at the byte before.
            var i = Swift.max(start, 1)
            while let at = nextQuestionOrBang(base, from: i, count: bytes.count) {
                i = at + 1
                guard bytes[at - 1] == UInt8(ascii: "<") else { continue }
                let mark = at - 1
                if bytes[at] == UInt8(ascii: "?") { throw .malformedPage("unexpected processing instruction at byte \(mark)") }
                if at + 1 < bytes.count && bytes[at + 1] != UInt8(ascii: "-") && bytes[at + 1] != UInt8(ascii: "[") {
                    throw .malformedPage("document type declarations are not accepted (byte \(mark))")
                }
            }
        }
    }

    /// The offset of the next '?' or '!' at or after `from`.
    static func nextQuestionOrBang(_ base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int? {
        var i = from
        while i < count {
            if base[i] == UInt8(ascii: "?") || base[i] == UInt8(ascii: "!") { return i }
            i += 1
        }
        return nil
    }

    /// The offset of the first byte that is not part of well-formed UTF-8, or nil.
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// The parser's delegate: a small state machine over the element path.
    ///
    /// Its state is only ever touched from the one thread running `parse()`, so the per-access
    /// exclusivity checks Swift would make on a class's properties are turned off: they cost
    /// more than the rest of the delegate's work.
    private final class Reader: NSObject, XMLParserDelegate {
        @exclusivity(unchecked) var root: String?
        @exclusivity(unchecked) var depth = 0
        @exclusivity(unchecked) var inItem = false
        @exclusivity(unchecked) var itemDepth = 0
        @exclusivity(unchecked) var record: [Field] = []
        @exclusivity(unchecked) var records: [[Field]] = []
        @exclusivity(unchecked) var text = ""
        @exclusivity(unchecked) var header: [String: String] = [:]
        @exclusivity(unchecked) var failure: String?
        @exclusivity(unchecked) var closedRoot = false

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            depth += 1
            if depth == 1 {
                root = name
                guard name == "response" || name == "OpenAPI_ServiceResponse" else {
                    failure = "unexpected document <\(name)>, not a data.go.kr response"
                    parser.abortParsing()
                    return
                }
            }
            if !inItem && name == "item" {
                inItem = true
                itemDepth = depth
                record = []
                record.reserveCapacity(16)
            }
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            // Usually one call per element: adopt the string rather than copy it.
            if text.isEmpty { text = string } else { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
            if depth == 0 { closedRoot = true }
            if inItem {
                // By depth, not by name: no string comparison per field.
                if depth < itemDepth {
                    inItem = false
                    records.append(record)
                } else {
                    record.append(Field(name, text.trimmed))
                }
            } else {
                switch name {
                case "resultCode", "resultMsg", "totalCount", "errMsg", "returnAuthMsg", "returnReasonCode":
                    header[name] = text.trimmed
                default:
                    break
                }
            }
            text = ""
        }

        func page() throws(UpstreamError) -> UpstreamPage {
            guard closedRoot else { throw .malformedPage("document ended before </\(root ?? "response")>") }
            if root == "OpenAPI_ServiceResponse" {
                let code = header["returnReasonCode"] ?? "99"
                let message = [header["errMsg"], header["returnAuthMsg"]].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " / ")
                throw .resultCode(code, message: message)
            }
            guard let code = header["resultCode"] else { throw .malformedPage("no header/resultCode") }
            // Some gateways write the code as a bare number ("0", "3").
            let normalized = code.count == 1 ? "0" + code : code
            if normalized == "03" { return UpstreamPage(records: [], totalCount: nil, isPastEnd: true) }
            guard normalized == "00" else { throw .resultCode(normalized, message: header["resultMsg"] ?? "") }
            var total: Int?
            if let text = header["totalCount"], !text.isEmpty {
                guard let value = Int(text), value >= 0 else { throw .malformedPage("totalCount '\(text)' is not a count") }
                total = value
            }
            return UpstreamPage(records: records, totalCount: total)
        }
    }
}
