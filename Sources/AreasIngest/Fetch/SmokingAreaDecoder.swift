import AreasCore
import Foundation

/// Decodes a page of a district smoking-area data set from the odcloud gateway (JSON).
///
/// Every district names its columns differently, so rows are read as open maps of column to
/// value; values arrive as strings or numbers and are kept as text. JSON objects carry no
/// order, so a record's fields are kept sorted by column name.
public struct SmokingAreaDecoder: PageDecoder {
    public init() {}

    public func decode(_ body: [UInt8]) throws(UpstreamError) -> UpstreamPage {
        guard let first = body.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else {
            throw .malformedPage("empty body")
        }
        guard first == UInt8(ascii: "{") else {
            let start = String(decoding: body.prefix(40), as: UTF8.self).trimmed
            throw .malformedPage("not a JSON object (starts with '\(start)')")
        }
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: Data(body))
        } catch {
            throw .malformedPage("invalid JSON: \(Self.describe(error))")
        }
        if let code = envelope.code, code != 0 {
            throw .odcloudCode(code, message: envelope.msg ?? "")
        }
        guard let rows = envelope.data else { throw .malformedPage("no \"data\" array") }
        return UpstreamPage(records: rows.map(\.fields), totalCount: envelope.matchCount ?? envelope.totalCount)
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return context.codingPath.map(\.stringValue).joined(separator: ".") + ": " + context.debugDescription
        default: return "\(error)"
        }
    }

    private struct Envelope: Decodable {
        var totalCount: Int?
        var matchCount: Int?
        var data: [Row]?
        var code: Int?
        var msg: String?
    }

    private struct Row: Decodable {
        var fields: [Field]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            fields = try container.allKeys.sorted { $0.stringValue < $1.stringValue }.map { key in
                Field(key.stringValue, try Self.text(container, key))
            }
        }

        private static func text(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> String {
            if try container.decodeNil(forKey: key) { return "" }
            if let string = try? container.decode(String.self, forKey: key) { return string.trimmed }
            if let integer = try? container.decode(Int64.self, forKey: key) { return String(integer) }
            if let number = try? container.decode(Double.self, forKey: key) { return String(number) }
            if let flag = try? container.decode(Bool.self, forKey: key) { return String(flag) }
            throw DecodingError.typeMismatch(String.self, .init(codingPath: container.codingPath + [key], debugDescription: "column \(key.stringValue) is neither text nor a number"))
        }
    }
}
