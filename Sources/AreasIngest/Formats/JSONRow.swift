import AreasCore
import Foundation

/// One JSON object of a data set read as an open map of column to text: every district names
/// its columns differently, values arrive as strings or numbers, and a number is kept as its
/// decimal text, `null` as an empty cell. JSON objects carry no order, so the columns are
/// kept sorted by name.
struct JSONRow: Decodable {
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

    /// A decoding error in words, with the path to the value it is about.
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return context.codingPath.map(\.stringValue).joined(separator: ".") + ": " + context.debugDescription
        default: return "\(error)"
        }
    }
}
