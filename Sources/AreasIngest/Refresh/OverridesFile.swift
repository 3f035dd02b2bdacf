import AreasCore

/// The operator's corrections file (`overrides`): a CSV (UTF-8) or, ending in `.json`, JSON
/// rows, with the columns `action` (`hide`, `move`, `rename`, `add`), `id`, `name`, `kind`,
/// `latitude`, `longitude`, `note`. Read afresh at every refresh, so an edit takes effect at the
/// next one. A line that cannot be applied is reported, by line, and the rest apply.
package struct OverridesFile: Sendable {
    package var lines: [AreaOverride] = []
    /// What is wrong with the lines left out, each naming its line.
    package var problems: [String] = []

    package init() {}

    /// Reads `path`; a file that cannot be read or decoded throws, naming it.
    package init(path: String, bounds: GeoBox) throws(UpstreamError) {
        let bytes = try FileTransport.read(path, maxBytes: 16 << 20)
        let json = path.hasSuffix(".json")
        let decoder: any PageDecoder = json ? JSONRowsDecoder(encoding: .utf8) : CSVDecoder(encoding: .utf8)
        let rows = try decoder.decode(bytes).records
        for (i, row) in rows.enumerated() {
            let line = json ? i + 1 : i + 2
            func cell(_ key: String) -> String { row.first { $0.key == key }?.value.trimmed ?? "" }
            func problem(_ text: String) { problems.append("\(path) \(json ? "row" : "line") \(line): \(text)") }
            guard let action = AreaOverride.Action(rawValue: cell("action").lowercased()) else {
                problem("action '\(cell("action"))' is not one of hide, move, rename, add")
                continue
            }
            let id = cell("id")
            guard !id.isEmpty else { problem("\(action.rawValue) without an id"); continue }
            var override = AreaOverride(action: action, id: id, note: cell("note"), line: line)
            if action == .move || action == .add {
                switch RecordValidator.position(latitude: cell("latitude"), longitude: cell("longitude"), in: bounds) {
                case .success(let (point, repaired)):
                    guard !repaired else { problem("latitude and longitude swapped"); continue }
                    override.coordinate = point
                case .failure(let rejection):
                    problem("\(action.rawValue) \(id): \(rejection.rawValue)")
                    continue
                }
            }
            if action == .rename || action == .add {
                let name = cell("name")
                guard !name.isEmpty else { problem("\(action.rawValue) \(id) without a name"); continue }
                override.name = name
            }
            if action == .add {
                guard AreaKind(rawValue: cell("kind")) != nil else { problem("add \(id): kind '\(cell("kind"))' is not smoking or nonsmoking"); continue }
                guard !id.contains(":") else { problem("add \(id): an added area's id is a name of its own, without ':'"); continue }
            }
            lines.append(override)
            if action == .add { kinds[id] = AreaKind(rawValue: cell("kind")) }
        }
    }

    private var kinds: [String: AreaKind] = [:]

    /// The areas the `add` lines add, as the records of the source `AreaOverride.addedSource`,
    /// in id order: each with its note as its one field.
    package var added: AreaTable {
        let source = AreaOverride.addedSource
        let areas = lines.filter { $0.action == .add }.compactMap { line -> Area? in
            guard let coordinate = line.coordinate, let name = line.name, let kind = kinds[line.id] else { return nil }
            return Area(id: "\(source):\(line.id)", kind: kind, name: name, coordinate: coordinate, source: source,
                        fields: line.note.isEmpty ? [] : [Field("note", line.note)])
        }
        return AreaTable(areas: areas).sortedByID()
    }
}
