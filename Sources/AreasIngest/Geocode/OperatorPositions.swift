import AreasCore

/// Positions an operator gives for rows no geocoder places (a description such as "사당역 2번
/// 출구와 3번 출구 사이 보도"), or places wrongly: a CSV or JSON file of rows with the columns
/// `source`, `name` or `query` (the rendered geocoder question), `latitude`, `longitude`.
/// They win over the geocoder and are read afresh each refresh, so an edit takes effect at the
/// next one.
package struct OperatorPositions: Sendable {
    private var byName: [String: GeoPoint] = [:]
    private var byQuery: [String: GeoPoint] = [:]

    package var count: Int { byName.count + byQuery.count }

    package init() {}

    /// Reads the file at `path` (`.json` as JSON rows, anything else as CSV); a row that names
    /// no source, no name or query, or no usable position in `bounds` is an error naming it.
    package init(path: String, bounds: GeoBox) throws(UpstreamError) {
        let bytes = try FileTransport.read(path, maxBytes: 64 << 20)
        let decoder: any PageDecoder = path.hasSuffix(".json") ? JSONRowsDecoder() : CSVDecoder()
        let rows = try decoder.decode(bytes).records
        for (i, row) in rows.enumerated() {
            func cell(_ key: String) -> String { row.first { $0.key == key }?.value.trimmed ?? "" }
            let line = path.hasSuffix(".json") ? "row \(i + 1)" : "line \(i + 2)"
            let source = cell("source")
            guard !source.isEmpty else { throw .malformedPage("\(path) \(line): no source") }
            let point: GeoPoint
            switch RecordValidator.position(latitude: cell("latitude"), longitude: cell("longitude"), in: bounds) {
            case .success(let (found, _)): point = found
            case .failure(let rejection): throw .malformedPage("\(path) \(line): \(rejection.rawValue)")
            }
            let name = cell("name"), query = cell("query").collapsingWhitespace
            guard !name.isEmpty || !query.isEmpty else { throw .malformedPage("\(path) \(line): give a name or a query") }
            if !name.isEmpty { byName[Self.key(source, name)] = point }
            if !query.isEmpty { byQuery[Self.key(source, query)] = point }
        }
    }

    /// The operator's position for a row of `source`, by its name or its question.
    package func position(source: String, name: String, query: String) -> GeoPoint? {
        byName[Self.key(source, name)] ?? (query.isEmpty ? nil : byQuery[Self.key(source, query)])
    }

    private static func key(_ source: String, _ text: String) -> String { source + "\u{1F}" + text }
}
