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
            let hasDistance = areas.contains { $0.double(.distanceMeters) != nil }
            var rows: [[String]] = [(hasDistance ? ["DISTANCE"] : []) + ["MATCHED", "KIND", "NAME", "ADDRESS", "ID"]]
            for area in areas {
                rows.append((hasDistance ? [area.double(.distanceMeters).map(MeasurementText.distance) ?? ""] : [])
                    + [area.string(.matched) ?? "", area.string(.kind) ?? "", area.string(.name) ?? "", area.string(.address) ?? "", area.string(.id) ?? ""])
            }
            let first = hasDistance ? 1 : 0
            text += align(rows, rightAligned: hasDistance ? [0] : [], elastic: [first + 4, first + 3], droppable: first + 4, middle: [first + 5], width: width)
        }
        if !places.isEmpty {
            var rows: [[String]] = [["PLACE", "LAT", "LON", "FROM"]]
            for place in places {
                // The whole name, so that one of the six 중구 is told from another.
                let whole = [place.string(.province), place.string(.district), place.string(.name)].compactMap { $0 }
                rows.append([whole.enumerated().filter { $0.offset == 0 || $0.element != whole[$0.offset - 1] }.map(\.element).joined(separator: " "), place.double(.lat).map { String($0) } ?? "", place.double(.lon).map { String($0) } ?? "", place.string(.from) ?? ""])
            }
            text += (text.isEmpty ? "" : "\n") + align(rows, rightAligned: [1, 2], elastic: [0], width: width)
        }
        return Output(stdout: text, stderr: note, status: 0)
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
