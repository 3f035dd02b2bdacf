import AreasCore
import Foundation

/// Reads a JSON file of rows as one page: an array of row objects, or an object whose `data`
/// member is that array (how the portal's file downloads wrap them).
package struct JSONRowsDecoder: PageDecoder {
    package let encoding: TextEncoding

    package init(encoding: TextEncoding = .auto) {
        self.encoding = encoding
    }

    package func decode(_ body: [UInt8]) throws(UpstreamError) -> UpstreamPage {
        let text = try encoding.utf8Text(body)
        guard let first = text.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else {
            throw .malformedPage("empty body")
        }
        let rows: [JSONRow]
        do {
            if first == UInt8(ascii: "[") {
                rows = try JSONDecoder().decode([JSONRow].self, from: Data(text))
            } else if first == UInt8(ascii: "{") {
                guard let data = try JSONDecoder().decode(Wrapped.self, from: Data(text)).data else {
                    throw UpstreamError.malformedPage("an object without a \"data\" array of rows")
                }
                rows = data
            } else {
                let start = String(decoding: text.prefix(40), as: UTF8.self).trimmed
                throw UpstreamError.malformedPage("neither a JSON array nor an object (starts with '\(start)')")
            }
        } catch let error as UpstreamError {
            throw error
        } catch {
            throw .malformedPage("invalid JSON: \(JSONRow.describe(error))")
        }
        // Column names are matched as a CSV header's are: runs of white space made one space.
        let records = rows.map { $0.fields.map { Field($0.key.collapsingWhitespace, $0.value) } }
            .filter { fields in fields.contains { !$0.value.isEmpty } }
        return UpstreamPage(records: records, totalCount: nil)
    }

    private struct Wrapped: Decodable {
        var data: [JSONRow]?
    }
}
