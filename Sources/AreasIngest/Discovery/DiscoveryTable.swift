import AreasCore

/// A file being discovered, as rows of named cells: delimited text in the shape found, or
/// JSON rows. The rows come through the decoders a refresh uses, so the column names
/// discovery prints are the names the source will match.
enum DiscoveryTable: Sendable, CustomStringConvertible {
    case delimited([UInt8], DelimitedTextShape)
    case json([[Field]])
    /// A GeoJSON FeatureCollection's features: their properties, and each one's position as
    /// one cell of both numbers (a feature's geometry is its position).
    case geojson([[Field]])

    func forEachRecord(_ body: ([Field]) -> Void) throws(DiscoveryError) {
        switch self {
        case .delimited(let text, let shape):
            do throws(UpstreamError) {
                try CSVDecoder(encoding: .utf8, hasHeader: shape.hasHeader, delimiter: shape.delimiter).forEachRecord(utf8: text, body)
            } catch {
                throw .unreadable("\(error)")
            }
        case .json(let records), .geojson(let records):
            records.forEach(body)
        }
    }

    func format(for origin: SourceDiscovery.Origin) -> SourceFormat {
        switch self {
        case .delimited: return .csv
        case .json:
            if case .url(let url) = origin, url.contains("api.odcloud.kr") { return .odcloudJSON }
            return .jsonRows
        case .geojson: return .geojson
        }
    }

    var description: String {
        switch self {
        case .delimited(_, let shape):
            let delimiter = shape.delimiter == UInt8(ascii: "\t") ? "tab" : "'\(Character(Unicode.Scalar(shape.delimiter)))'"
            return "delimited text, cells split by \(delimiter); \(shape.headerReason)"
        case .json: return "JSON rows"
        case .geojson: return "a GeoJSON FeatureCollection (positions from the features' geometry)"
        }
    }
}
