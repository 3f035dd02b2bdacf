import AreasCore
import AreasProtocol

/// `areasctl search` for people: the areas found, with how each matched, then the places
/// (regions, or the geocoder's answer) with a position to ask `near` about.
extension ResponseFormatter {
    static func search(_ answer: Object, format: ControlCommand.Format, width: Int?) -> ResponseFormatter.Output {
        let areas = answer.array(.areas).compactMap { value -> Object? in
            if case .object(let members) = value { return Object(members) } else { return nil }
        }
        let places = answer.array(.places).compactMap { value -> Object? in
            if case .object(let members) = value { return Object(members) } else { return nil }
        }
        let note = answer.string(.note).map { "note: \($0.escapingControlCharacters())\n" }
            ?? (answer.bool(.truncated) == true ? "note: more areas matched than the \(areas.count) shown; add a word or raise --limit\n" : "")
        switch format {
        case .tsv: return Output(stdout: tsv(areas, idsOnly: false), stderr: note, status: 0)
        case .csv: return Output(stdout: csv(areas, idsOnly: false), stderr: note, status: 0)
        case .ndjson: return Output(stdout: ndjson(answer.array(.areas)), stderr: note, status: 0)
        case .table, .json, .geojson: break
        }
        guard !areas.isEmpty || !places.isEmpty else { return Output(stdout: "", stderr: "nothing found\n", status: 1) }
        var text = ""
        if !areas.isEmpty {
            text += searchTable(areas, width: width)
        }
        if !places.isEmpty {
            var rows: [[String]] = [["PLACE", "LAT", "LON", "FROM"]]
            for place in places {
                // The whole name, so that one of the six 중구 is told from another.
                let whole = [place.string(.province), place.string(.district), place.string(.name)].compactMap { $0 }
                rows.append([whole.enumerated().filter { $0.offset == 0 || $0.element != whole[$0.offset - 1] }.map(\.element).joined(separator: " "), place.double(.lat).map(MeasurementText.coordinate) ?? "", place.double(.lon).map(MeasurementText.coordinate) ?? "", place.string(.from) ?? ""])
            }
            text += (text.isEmpty ? "" : "\n") + align(rows, rightAligned: [1, 2], elastic: [0], width: width)
        }
        return Output(stdout: text, stderr: note, status: 0)
    }

    /// The areas found: a column for each thing that tells the rows apart. Rows of one name and
    /// one address (booths a publisher lists at one street address) differ by their district
    /// and, without a distance, by their position; an address that only repeats the name is
    /// left blank, and a column blank in every row is left out.
    static func searchTable(_ areas: [Object], width: Int?) -> String {
        var seen = Set<[String]>()
        let repeated = areas.contains { !seen.insert([$0.string(.name) ?? "", $0.string(.address) ?? ""]).inserted }
        let hasDistance = areas.contains { $0.double(.distanceMeters) != nil }
        var shortNames = false
        func position(_ area: Object) -> String {
            guard let lat = area.double(.lat), let lon = area.double(.lon) else { return "" }
            return MeasurementText.coordinate(lat) + "," + MeasurementText.coordinate(lon)
        }
        func short(_ area: Object, _ text: String) -> String {
            guard shortNames else { return text }
            return withoutLeadingWords(text, in: Set([area.string(.province), area.string(.district)].compactMap { $0 }).union(KoreanGazetteer.provinceWritings))
        }
        func address(_ area: Object) -> String {
            let address = area.string(.address) ?? ""
            return address == area.string(.name) ? "" : short(area, address)
        }
        let all: [(title: String, shown: Bool, cell: (Object) -> String)] = [
            ("DISTANCE", hasDistance, { $0.double(.distanceMeters).map(MeasurementText.distance) ?? "" }),
            ("MATCHED", true, { $0.string(.matched) ?? "" }),
            ("KIND", true, { $0.string(.kind) ?? "" }),
            ("NAME", true, { short($0, $0.string(.name) ?? "") }),
            ("DISTRICT", true, { $0.string(.district) ?? $0.string(.province) ?? "" }),
            ("ADDRESS", true, address),
            ("POSITION", repeated && !hasDistance, position),
            ("ID", true, { $0.string(.id) ?? "" }),
        ]
        var columns = all.filter { column in column.shown && areas.contains { !column.cell($0).isEmpty } }
        // Too wide for a terminal: names lose their leading province and district (the DISTRICT
        // column says them: `서울역 광장 9번출구` in 용산구), never the words that end them.
        if let width, naturalWidth(rows(columns)) > width { shortNames = true }
        func rows(_ columns: [(title: String, shown: Bool, cell: (Object) -> String)]) -> [[String]] {
            [columns.map(\.title)] + areas.map { area in columns.map { $0.cell(area) } }
        }
        // For a terminal too narrow for whole names even without the address, the id goes
        // first (`--format tsv` and `--json` keep it): a name cut at its end loses the words
        // that tell booths apart (`... 9번출구`).
        if let width, naturalWidth(rows(columns.filter { $0.title != "ADDRESS" })) > width {
            columns.removeAll { $0.title == "ID" }
        }
        let rows = rows(columns)
        func index(_ title: String) -> Int? { columns.firstIndex { $0.title == title } }
        return align(rows, rightAligned: Set([index("DISTANCE")].compactMap { $0 }),
                     elastic: [index("ADDRESS"), index("NAME")].compactMap { $0 }, droppable: index("ADDRESS"),
                     middle: Set([index("ID")].compactMap { $0 }), width: width)
    }

    /// What a question's `q` found, in a line that names its province and district, so a
    /// place of another province is seen at once: `명동1가, 서울특별시 중구 (a region, 37.563,
    /// 126.983)`; nil when the question gave a position.
    static func origin(_ at: Object) -> String? {
        guard let name = at.string(.name), let lat = at.double(.lat), let lon = at.double(.lon) else { return nil }
        let from = at.string(.from).map { "\($0 == "area" ? "an" : "a") \($0), " } ?? ""
        let region = [at.string(.province), at.string(.district)].compactMap { $0 }.filter { !$0.isEmpty && $0 != name }
        let within = region.isEmpty ? "" : ", " + region.joined(separator: " ")
        return "\(name.escapingControlCharacters())\(within.escapingControlCharacters()) (\(from)\((lat * 1e6).rounded() / 1e6), \((lon * 1e6).rounded() / 1e6))"
    }
}
