import AreasCore
import AreasProtocol
import Glibc

/// Turns a response line into what areasctl prints, and its exit status.
package enum ResponseFormatter {
    package struct Output {
        package var stdout: String
        package var stderr: String
        package var status: Int32
    }

    /// `width`: the columns a table may take (the terminal's), nil for no limit.
    package static func render(_ answer: DaemonAnswer, for command: ControlCommand, width: Int? = nil, now: Double? = nil) -> Output {
        switch answer {
        case .line(let line): return render(line, for: command, width: width, now: now)
        case .metrics(let text): return metrics(text, for: command)
        }
    }

    /// The exposition text line by line, each line still safe for a terminal; with `--json`,
    /// the socket's answer (`{"ok":true,"metrics":..}`), whichever door it came through.
    static func metrics(_ text: String, for command: ControlCommand) -> Output {
        guard command.format != .json else {
            var writer = JSONWriter(capacity: text.utf8.count + 64)
            writer.beginObject()
            writer.key(.ok); writer.bool(true)
            writer.key(.metrics); writer.string(text)
            writer.endObject()
            writer.newline()
            return Output(stdout: String(decoding: writer.bytes, as: UTF8.self), stderr: "", status: 0)
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).escapingControlCharacters() }
        return Output(stdout: lines.joined(separator: "\n"), stderr: "", status: 0)
    }

    package static func render(_ line: [UInt8], for command: ControlCommand, width: Int? = nil, now: Double? = nil) -> Output {
        guard case .object(let response)? = try? JSONParser.parse(line) else {
            return Output(stdout: "", stderr: "areasctl: the daemon sent an unreadable answer\n", status: 1)
        }
        let object = Object(response)
        if object.bool(.ok) != true {
            let error = Object(object.members(.error))
            let text = "areasctl: \(error.string(.code) ?? "error"): \(error.string(.message) ?? "")\n"
            // A refusal is not a failed source: cron and scripts can tell the two apart (77, as
            // sysexits' EX_NOPERM).
            // A busy daemon gave no answer, like one that timed out: 3, so a probe can tell
            // "could not ask" from "asked, and the answer is bad".
            let status: Int32 = switch error.string(.code) {
            case "permission_denied": 77
            case "busy": 3
            default: 1
            }
            return Output(stdout: command.format == .json ? String(decoding: line, as: UTF8.self) + "\n" : "", stderr: text, status: status)
        }
        guard let asked = command.operation.command else {
            return Output(stdout: "", stderr: "areasctl: no way to show a \(command.operation.name) answer\n", status: 1)
        }
        if command.format == .json {
            return Output(stdout: String(decoding: line, as: UTF8.self) + "\n", stderr: "", status: asked.jsonStatus(object))
        }
        return asked.show(ShownAnswer(object: object, response: response, line: line, command: command, width: width, now: now ?? Double(time(nil))))
    }

    /// How a list of areas can be shown: the daemon's JSON, GeoJSON and the other formats.
    static let listPresentation = ["--json", "--geojson", "--format"]

    /// A list of areas (`near`, `radius`, `bbox`, `along`) as the format asks, its notes on
    /// stderr; exit 1 when its region names what the data lacks.
    static func areaList(_ answer: ShownAnswer) -> Output {
        let object = answer.object, command = answer.command, width = answer.width
        let areas = object.array(.areas).compactMap { value -> Object? in
            if case .object(let m) = value { return Object(m) } else { return nil }
        }
        // Notes go to stderr, so what is printed stays the answer alone.
        let truncated = object.bool(.truncated) == true
        let count = object.int(.count) ?? areas.count
        var note = truncated ? "note: more areas matched than the \(count) shown; narrow the query or raise --limit\n" : ""
        // The daemon's word on how a region was read, or on an empty answer: a province or
        // district the data lacks, a question that could not be answered (exit 1).
        if let why = object.string(.note) { note += "note: \(why.escapingControlCharacters())\n" }
        if let origin = origin(Object(object.members(.at))) { note += "note: asked from \(origin)\n" }
        let status: Int32 = object.bool(.unknownRegion) == true ? 1 : 0
        if command.output == .count {
            switch command.format {
            case .tsv: return Output(stdout: "\(count)\n", stderr: note, status: status)
            case .csv: return Output(stdout: "count\r\n\(count)\r\n", stderr: note, status: status)
            case .ndjson: return Output(stdout: "{\"count\":\(count)}\n", stderr: note, status: status)
            default: return Output(stdout: Self.areas(count) + "\n", stderr: note, status: status)
            }
        }
        switch command.format {
        case .geojson: return Output(stdout: geoJSON(.object(answer.response), idsOnly: command.output == .ids), stderr: note, status: status)
        case .tsv: return Output(stdout: tsv(areas, idsOnly: command.output == .ids), stderr: note, status: status)
        case .csv: return Output(stdout: csv(areas, idsOnly: command.output == .ids), stderr: note, status: status)
        case .ndjson: return Output(stdout: ndjson(object.array(.areas)), stderr: note, status: status)
        default: return Output(stdout: table(areas, count: count, idsOnly: command.output == .ids, width: width), stderr: note, status: status)
        }
    }

    // MARK: Pieces

    /// A `where` answer (or `check`'s `region`) in one line: `서울특별시 용산구 한강로2가 (11170129)`,
    /// nil when no region holds the point.
    static func place(_ answer: Object) -> String? {
        let names = [AnswerKey.province, .district, .town].compactMap { answer.string($0) }
        guard !names.isEmpty else { return nil }
        let codes = Object(answer.members(.codes))
        let code = [AnswerKey.town, .district, .province].lazy.compactMap { codes.string($0) }.first
        return names.joined(separator: " ") + (code.map { " (\($0))" } ?? "")
    }

    static func check(_ answer: Object, width: Int? = nil) -> String {
        var text = (origin(Object(answer.members(.at))).map { "at \($0)\n" } ?? "") + (answer.string(.summary) ?? "") + "\n"
        if let place = place(Object(answer.members(.region))) { text += "in \(place)\n" }
        if let crowd = crowd(Object(answer.members(.crowd))) { text += "crowd: \(crowd)\n" }
        let zones = answer.array(.zones).compactMap { value -> Object? in
            if case .object(let m) = value { return Object(m) } else { return nil }
        }
        if !zones.isEmpty {
            var rows: [[String]] = [["CENTRE", "FOOTPRINT", "TO LEAVE", "ZONE", "ADDRESS", "ID"]]
            for zone in zones {
                // An approximate footprint (a route drawn as a circle of its length) says so.
                let approximate = Object(zone.members(.footprint)).bool(.approximate) == true
                rows.append([zone.double(.distanceMeters).map(MeasurementText.distance) ?? "",
                             zone.double(.footprintMeters).map { (approximate ? "about " : "") + MeasurementText.distance($0) } ?? "",
                             zone.double(.edgeMeters).map(MeasurementText.distance) ?? "",
                             zone.string(.name) ?? "", zone.string(.address) ?? "", zone.string(.id) ?? ""])
            }
            text += "\n" + align(rows, rightAligned: [0, 1, 2], elastic: [4, 3], droppable: 4, middle: [5], width: width)
        }
        for (key, verb) in [(AnswerKey.entered, "entered"), (AnswerKey.exited, "left")] {
            let ids = answer.array(key).compactMap(\.string)
            if !ids.isEmpty { text += "\n\(verb): " + ids.map { $0.escapingControlCharacters() }.joined(separator: ", ") + "\n" }
        }
        // The summary names the nearest smoking area in a sentence; this line gives how far and
        // which way, its name as the summary gives it, its address when that says more, and its
        // id, to be read at a glance or cut.
        let nearest = Object(answer.members(.nearestSmoking))
        let heading = [nearest.double(.distanceMeters).map(MeasurementText.distance), nearest.string(.direction)].compactMap { $0 }.joined(separator: " ")
        let name = nearest.string(.name)
        let address = nearest.string(.address).flatMap { $0 == name ? nil : $0 }
        let whereabouts = [heading, name, address, nearest.string(.id)].compactMap { $0 }.filter { !$0.isEmpty }
        if nearest.string(.id) != nil {
            text += "\nnearest smoking area: " + whereabouts.map { $0.escapingControlCharacters() }.joined(separator: "  ") + "\n"
        }
        return text
    }

    /// "1 area", "3,379 areas".
    static func areas(_ count: Int) -> String { "\(count) area\(count == 1 ? "" : "s")" }

    /// A table for people; with `--output ids`, only the distance and id columns.
    static func table(_ areas: [Object], count: Int, idsOnly: Bool = false, width: Int? = nil) -> String {
        guard !areas.isEmpty else { return count > 0 ? Self.areas(count) + "\n" : "no areas found\n" }
        let hasDistance = areas.contains { $0.double(.distanceMeters) != nil }
        let onRoute = areas.contains { $0.double(.alongMeters) != nil }
        let described = idsOnly ? [] : ["KIND", "NAME", "ADDRESS"]
        var rows: [[String]] = [(hasDistance ? ["DISTANCE"] : []) + (onRoute ? ["ALONG", "OFF ROUTE"] : []) + described + ["ID"]]
        for area in areas {
            var row: [String] = []
            if hasDistance { row.append(area.double(.distanceMeters).map(MeasurementText.distance) ?? "") }
            if onRoute { row += [area.double(.alongMeters).map(MeasurementText.distance) ?? "", area.double(.sideMeters).map(MeasurementText.distance) ?? ""] }
            if !idsOnly { row += [area.string(.kind) ?? "", area.string(.name) ?? "", area.string(.address) ?? ""] }
            row.append(area.string(.id) ?? "")
            rows.append(row)
        }
        // When the table is too wide, names lose first the words every area there says alike:
        // their own province and district (`서울특별시 용산구 `), then words all of them begin
        // with, so that cutting keeps the part that tells them apart.
        let nameColumn = (hasDistance ? 1 : 0) + (onRoute ? 2 : 0) + 1
        if let width, !idsOnly, naturalWidth(rows) > width {
            var names = zip(rows.dropFirst(), areas).map { row, area in
                withoutLeadingWords(row[nameColumn], in: Set([area.string(.province), area.string(.district)].compactMap { $0 }).union(KoreanGazetteer.provinceWritings))
            }
            let shared = commonLeadingWords(names)
            if names.count > 1 && displayWidth(shared) >= 4 { names = names.map { String($0.dropFirst(shared.count)) } }
            for (i, name) in zip(rows.indices.dropFirst(), names) where name != rows[i][nameColumn] { rows[i][nameColumn] = "…" + name }
        }
        let measured = (hasDistance ? 1 : 0) + (onRoute ? 2 : 0)
        // KIND is short; ADDRESS, then NAME give way to fit the terminal, ADDRESS goes before
        // a name is cut to a few syllables, and an id loses its middle only when nothing else
        // is left.
        let elastic = idsOnly ? [] : [measured + 2, measured + 1]
        return align(rows, rightAligned: Set(0..<measured), elastic: elastic, droppable: idsOnly ? nil : measured + 2,
                     middle: [rows[0].count - 1], width: width)
    }

    /// Tab-separated lines without a header, for `cut` and `awk`: id, then the distance in
    /// meters (empty without a query point), then, unless `ids`, kind, latitude, longitude,
    /// name and address. Tabs and line breaks inside a cell become spaces.
    static func tsv(_ areas: [Object], idsOnly: Bool) -> String {
        cells(areas, idsOnly: idsOnly).map { row in
            row.map { cell in cell.map { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : String($0) }.joined().escapingControlCharacters() }
                .joined(separator: "\t") + "\n"
        }.joined()
    }

    /// The same columns as CSV (RFC 4180) with a header row naming them, for spreadsheets and
    /// tools that read columns by name.
    static func csv(_ areas: [Object], idsOnly: Bool) -> String {
        let header = idsOnly ? ["id", "distanceMeters"] : ["id", "distanceMeters", "kind", "lat", "lon", "name", "address"]
        return ([header] + cells(areas, idsOnly: idsOnly)).map { row in
            row.map { raw in
                let cell = raw.escapingControlCharacters()
                return cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
                    ? "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : cell
            }.joined(separator: ",") + "\r\n"
        }.joined()
    }

    /// Each area's cells for TSV and CSV, as the daemon sent them.
    private static func cells(_ areas: [Object], idsOnly: Bool) -> [[String]] {
        func cell(_ area: Object, _ key: AnswerKey) -> String {
            guard case .string(let raw)? = area.value(key) else { return "" }
            return raw
        }
        return areas.map { area in
            var cells = [cell(area, .id), area.double(.distanceMeters).map { String($0) } ?? ""]
            if !idsOnly {
                cells += [cell(area, .kind), area.text(.lat) ?? "", area.text(.lon) ?? "", cell(area, .name), cell(area, .address)]
            }
            return cells
        }
    }

    /// One area a line, each as the daemon sent it: JSON, so the text is exact.
    static func ndjson(_ areas: [JSONValue]) -> String {
        areas.map { value in
            var writer = JSONWriter()
            write(value, into: &writer)
            return String(decoding: writer.bytes, as: UTF8.self) + "\n"
        }.joined()
    }

    private static func write(_ value: JSONValue, into writer: inout JSONWriter) {
        switch value {
        case .null: writer.null()
        case .bool(let b): writer.bool(b)
        case .number(let n): writer.number(n)
        case .string(let text): writer.string(text)
        case .array(let items):
            writer.beginArray()
            for item in items { write(item, into: &writer) }
            writer.endArray()
        case .object(let members):
            writer.beginObject()
            for (key, member) in members {
                writer.key(escaping: key)
                write(member, into: &writer)
            }
            writer.endObject()
        }
    }

    static func detail(_ area: Object) -> String {
        var rows: [[String]] = []
        // Every member the schema names but the structured two, below; what the area lacks or
        // leaves empty is not shown.
        for member in AreaSchema.members where member.key != .fields && member.key != .records {
            let value = member.key == .footprint ? footprint(Object(area.members(.footprint)))
                : member.key == .crowd ? crowd(Object(area.members(.crowd))) : area.text(member.key)
            if let value, !value.isEmpty { rows.append([member.key.name, value]) }
        }
        var text = align(rows, rightAligned: [])
        let fields = area.members(.fields)
        if !fields.isEmpty {
            text += "upstream fields:\n"
            text += align(fields.map { ["  " + $0.0.escapingControlCharacters(), Object.text($0.1)] }, rightAligned: [])
        }
        // An area merged from several records: which, each by its source and id.
        let records = area.array(.records).compactMap { value -> Object? in
            if case .object(let members) = value { return Object(members) } else { return nil }
        }
        if records.count > 1 {
            // Each record, and why it was folded into the first's area: how far, which name test.
            text += "merged from:\n"
            text += align(records.map { record in
                let reason = Object(record.members(.mergeReason))
                let why = reason.double(.meters).map { "\(MeasurementText.distance($0)) from the first; \(reason.string(.names) ?? "")" } ?? "the area's first record"
                return ["  " + (record.string(.source) ?? ""), record.string(.id) ?? "", record.string(.name) ?? "", why].map { $0.escapingControlCharacters() }
            }, rightAligned: [])
        }
        return text
    }

    /// A hotspot's crowd for a person: `강남역: 약간 붐빔, 36000–38000 people at 2026-08-18 17:20 (15 min old)`.
    static func crowd(_ crowd: Object) -> String? {
        guard let place = crowd.string(.place), let level = crowd.string(.level) else { return nil }
        var text = "\(place): \(level)"
        if let low = crowd.int(.min), let high = crowd.int(.max) { text += ", \(low)–\(high) people" }
        if let at = crowd.string(.at) { text += " at " + String(at.prefix(16)).replacingOccurrences(of: "T", with: " ") }
        if let age = crowd.double(.ageSeconds) { text += " (\(MeasurementText.duration(age)) old)" }
        return text
    }

    /// A zone's footprint for a person: `50 m circle, stated: "학교출입문으로부터 50미터 이내"`.
    static func footprint(_ footprint: Object) -> String? {
        guard let basis = footprint.string(.basis) else { return nil }
        var text = [footprint.double(.radiusMeters).map(MeasurementText.distance), footprint.string(.shape)].compactMap { $0 }.joined(separator: " ")
        text += ", \(basis)"
        if let words = footprint.string(.words) { text += ": \"\(words.escapingControlCharacters())\"" }
        if footprint.bool(.approximate) == true { text += " (approximate: the route's course is not published)" }
        if footprint.bool(.clamped) == true { text += " (clamped)" }
        return text
    }

    static func refresh(_ report: Object, quiet: Bool) -> Output {
        var out = ""
        var err = ""
        var failed = false
        for case .object(let members) in report.array(.sources) {
            let source = Object(members)
            let ok = source.string(.status) == "updated" || source.string(.status) == "unchanged"
            failed = failed || !ok
            let line = (source.string(.summary) ?? "") + "\n"
            if ok { if !quiet { out += line } } else { err += line }
        }
        return Output(stdout: out, stderr: err, status: failed ? 1 : 0)
    }

    /// The answer as a GeoJSON FeatureCollection (the daemon's HTTP front door writes the same).
    static func geoJSON(_ answer: JSONValue, idsOnly: Bool = false) -> String {
        var writer = JSONWriter()
        GeoJSONCollection.write(answer, idsOnly: idsOnly, into: &writer)
        writer.newline()
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Read access to a response object.
    struct Object {
        let members: [(String, JSONValue)]
        init(_ members: [(String, JSONValue)]) { self.members = members }

        func value(_ key: AnswerKey) -> JSONValue? { members.first { $0.0 == key.name }?.1 }
        /// A string member, its control characters made visible: everything the formatter
        /// prints for a terminal comes through here or `text`.
        func string(_ key: AnswerKey) -> String? { if case .string(let s)? = value(key) { return s.escapingControlCharacters() }; return nil }
        func double(_ key: AnswerKey) -> Double? { if case .number(let n)? = value(key) { return n }; return nil }
        func int(_ key: AnswerKey) -> Int? { double(key).map { Int($0) } }
        func bool(_ key: AnswerKey) -> Bool? { if case .bool(let b)? = value(key) { return b }; return nil }
        func array(_ key: AnswerKey) -> [JSONValue] { if case .array(let a)? = value(key) { return a }; return [] }
        func members(_ key: AnswerKey) -> [(String, JSONValue)] { if case .object(let m)? = value(key) { return m }; return [] }
        func text(_ key: AnswerKey) -> String? { value(key).map(Object.text) }

        static func text(_ value: JSONValue) -> String {
            switch value {
            case .string(let s): return s.escapingControlCharacters()
            case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
            case .bool(let b): return String(b)
            case .null: return "-"
            case .array(let a): return a.map(text).joined(separator: ", ")
            case .object(let m): return m.map { "\($0.0.escapingControlCharacters())=\(text($0.1))" }.joined(separator: " ")
            }
        }
    }
}
