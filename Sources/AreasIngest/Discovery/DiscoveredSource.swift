import AreasCore
import AreasProtocol

/// What `--discover` found: the source that serves the file, what is missing for it to serve
/// anything, and a report for the person who will paste it into a config.
package struct DiscoveredSource: Sendable {
    /// The source, as the config loader would make it from the printed block.
    package var source: SourceConfig
    let encodingFound: String
    let bytes: Int
    let table: String
    package let rows: Int
    let columns: [String]
    let chosen: DiscoveredColumns
    let region: RegionConstants
    let kindFound: (AreaKind, String)?
    let tally: DiscoveryTally
    let profiles: [ColumnProfile]

    /// Rows a refresh would serve with their published position, and send to the geocoder.
    package var rowsWithPositions: Int { tally.withPositions }
    package var rowsToGeocode: Int { tally.toGeocode }

    /// What keeps the source from serving anything; empty when it is usable.
    package var problems: [String] {
        var problems: [String] = []
        if kindFound == nil { problems.append("the file's words do not say whether these are smoking areas or non-smoking zones: give --kind smoking or --kind nonsmoking") }
        if chosen.name == nil { problems.append("no column holds names: every column is numbers, dates, regions or empty") }
        if chosen.name != nil, tally.withPositions == 0, tally.toGeocode == 0 {
            problems.append("no row would be served: no column holds positions in Korea and none holds addresses to geocode")
        }
        return problems
    }

    /// The source as a config's `sources` entry, keys in the order the README writes them. No
    /// `kind` when neither the file's words nor `--kind` said it: the block is then no source
    /// to paste as it is, and does not pretend to be one.
    package var block: JSONValue {
        var object: [(String, JSONValue)] = [("name", .string(source.name))]
        if kindFound != nil { object.append(("kind", .string(source.kind.rawValue))) }
        object.append(("format", .string(source.format.rawValue)))
        switch source.location {
        case .file(let path): object.append(("file", .string(path)))
        case .url(let url): object.append(("url", .string(url)))
        case .recordedPages(let directory): object.append(("pages", .string(directory)))
        case .dataset(let id): object.append(("dataset", .string(id)))
        }
        if let variable = source.serviceKeyEnv { object.append(("serviceKeyEnv", .string(variable))) }
        if source.format == .odcloudJSON { object.append(("pageSize", .number(Double(source.pageSize)))) }
        if source.format.isSingleFile { object.append(("encoding", .string(source.encoding.rawValue))) }
        if source.format == .csv {
            object.append(("header", .bool(source.hasHeader)))
            object.append(("delimiter", .string(String(Character(Unicode.Scalar(source.delimiter))))))
        }
        if source.maxPageBytes != SourceConfig.defaultMaxPageBytes { object.append(("maxPageBytes", .number(Double(source.maxPageBytes)))) }
        if let province = source.province { object.append(("province", .string(province))) }
        if let district = source.district { object.append(("district", .string(district))) }
        object.append(("fields", .object(source.fields.written.map { ($0.0, .string($0.1)) })))
        if let geocode = source.geocode {
            var questions: [(String, JSONValue)] = [("query", .string(geocode.query.description))]
            if let keyword = geocode.keyword { questions.append(("keyword", .string(keyword.description))) }
            object.append(("geocode", .object(questions)))
        }
        return .object(object)
    }

    /// The operator's positions file for the rows no published position places, to fill in
    /// by hand (the offline way, with no geocoder): `source,name,query,latitude,longitude`, one
    /// row each, latitude and longitude left empty. `positions` in the config reads it back.
    package var positionsTemplate: String {
        func quoted(_ text: String) -> String {
            text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        var lines = ["source,name,query,latitude,longitude"]
        var seen = Set<String>()
        for row in tally.toPlace where seen.insert(row.name + "\u{1F}" + row.query).inserted {
            lines.append([source.name, row.name, row.query, "", ""].map(quoted).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// For a person, on stderr: what was read, what each column was taken for and why, and
    /// what a refresh would make of the rows.
    package var report: String {
        var lines: [String] = []
        lines.append("read: \(grouped(bytes)) bytes, \(encodingFound), \(table)")
        lines.append("rows: \(grouped(rows)), columns: \(columns.map { "'\($0)'" }.joined(separator: ", "))")
        if let (kind, why) = kindFound { lines.append("kind: \(kind.rawValue) (\(why))") } else { lines.append("kind: unknown") }
        lines.append("columns chosen:")
        func line(_ role: String, _ choice: DiscoveredColumns.Choice?) {
            guard let choice else { return }
            lines.append("  \(role.padding(toLength: 13, withPad: " ", startingAt: 0)) '\(choice.column)': \(choice.why)")
        }
        line("name", chosen.name)
        if let place = chosen.namePlace { lines.append("    after '\(place.column)': \(place.why)") }
        if let detail = chosen.nameDetail { lines.append("    with '\(detail.column)': \(detail.why)") }
        for runnerUp in chosen.nameRunnersUp { lines.append("    not '\(runnerUp.column)': \(runnerUp.why)") }
        line("position", chosen.pair)
        line("latitude", chosen.latitude)
        line("longitude", chosen.longitude)
        if chosen.pair == nil && chosen.latitude == nil { lines.append("  position      none: no column holds latitudes and longitudes in Korea") }
        line("address", chosen.address)
        line("lotAddress", chosen.lotAddress)
        line("province", chosen.province)
        line("district", chosen.district)
        line("referenceDate", chosen.referenceDate)
        if source.kind == .nonsmoking {
            line("extent", chosen.extent)
            line("zoneType", chosen.zoneType)
            line("size", chosen.size)
        }
        if let constant = region.province { lines.append("  province      \(constant.value) for every row: \(constant.why)") }
        if let constant = region.district { lines.append("  district      \(constant.value) for every row: \(constant.why)") }
        if let geocode = source.geocode {
            lines.append("geocode: query \"\(geocode.query)\", keyword \"\(geocode.keyword?.description ?? "")\" (the config needs a top-level \"geocoder\", "
                         + "or a \"positions\" file: --positions-template writes one to fill in)")
        }
        var counts = "rows: \(grouped(tally.withPositions)) with usable positions"
        if tally.repaired > 0 { counts += " (\(tally.repaired) with latitude and longitude swapped, repaired)" }
        counts += ", \(grouped(tally.toGeocode)) to geocode"
        if tally.nothingToAsk > 0 { counts += " (\(tally.nothingToAsk) with nothing to ask)" }
        if tally.duplicates > 0 { counts += ", \(tally.duplicates) exact repeats" }
        let rejected = tally.rejected.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key.rawValue < $1.key.rawValue) }
        counts += rejected.isEmpty ? ", none rejected" : ", rejected: " + rejected.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
        lines.append(counts)
        if !tally.firstAreas.isEmpty {
            lines.append("first areas:")
            for area in tally.firstAreas { lines.append("  \(area)") }
        }
        for problem in problems { lines.append("not usable: \(problem)") }
        // Column names and cells are the file's text: a control character in one is shown,
        // never sent to the terminal (each entry is one line, so a newline in a cell is too).
        return lines.map { $0.escapingControlCharacters() }.joined(separator: "\n") + "\n"
    }
}

/// `26143` as `26,143`.
func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return (n < 0 ? "-" : "") + out
}
