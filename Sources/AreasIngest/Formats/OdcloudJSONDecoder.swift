import AreasCore
import Foundation

/// Decodes a page of the odcloud gateway's JSON answers (`odcloud-json`), whatever kind of area
/// the data set lists: districts publish smoking areas and zones alike this way.
///
/// Every district names its columns differently, so rows are read as open maps of column to
/// value; values arrive as strings or numbers and are kept as text. JSON objects carry no
/// order, so a record's fields are kept sorted by column name.
package struct OdcloudJSONDecoder: PageDecoder {
    package init() {}

    package func decode(_ body: [UInt8]) throws(UpstreamError) -> UpstreamPage {
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
            throw .malformedPage("invalid JSON: \(JSONRow.describe(error))")
        }
        if let code = envelope.code, code != 0 {
            throw .odcloudCode(code, message: envelope.msg ?? "")
        }
        guard let rows = envelope.data else { throw .malformedPage("no \"data\" array") }
        return UpstreamPage(records: rows.map(\.fields), totalCount: envelope.matchCount ?? envelope.totalCount)
    }

    private struct Envelope: Decodable {
        var totalCount: Int?
        var matchCount: Int?
        var data: [JSONRow]?
        var code: Int?
        var msg: String?
    }
}
