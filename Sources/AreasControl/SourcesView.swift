import AreasProtocol

/// `areasctl sources` for people: a row per source (what it read, kept, rejected and merged,
/// and the dates it states), then a row per district with its areas by kind. `--json` gives
/// the daemon's answer as it is.
extension ResponseFormatter {
    static func sources(_ answer: Object, width: Int?) -> String {
        func objects(_ key: AnswerKey) -> [Object] {
            answer.array(key).compactMap { value -> Object? in
                if case .object(let members) = value { return Object(members) } else { return nil }
            }
        }
        func number(_ source: Object, _ key: AnswerKey) -> String { source.int(key).map(String.init) ?? "-" }
        func dates(_ object: Object) -> String {
            let dates = Object(object.members(.referenceDates))
            guard let oldest = dates.string(.oldest), let newest = dates.string(.newest) else { return "-" }
            return oldest == newest ? oldest : "\(oldest) to \(newest)"
        }
        // ROWS = ACCEPTED + DUPLICATES + REJECTED; of the accepted, GEOCODED were placed from
        // their address, MERGED folded into an earlier source's area, OVERRIDDEN corrected.
        var rows = [["SOURCE", "KIND", "AREAS", "ROWS", "ACCEPTED", "DUPLICATES", "REJECTED", "GEOCODED", "MERGED", "OVERRIDDEN", "DATED", "STATUS"]]
        for source in objects(.sources) {
            let rejected = source.members(.rejected).compactMap { reason, count -> (String, Int)? in
                if case .number(let n) = count { return (reason, Int(n)) } else { return nil }
            }
            let rejectedText = source.value(.rejected) == nil || source.value(.rejected) == .null
                ? "-" : String(rejected.reduce(0) { $0 + $1.1 })
            let status = (source.string(.lastStatus) ?? "-") + (source.string(.lastError).map { ": " + $0 } ?? "")
            rows.append([source.string(.name) ?? "?", source.string(.kind) ?? "-", number(source, .areas), number(source, .rows),
                         number(source, .accepted), number(source, .duplicates), rejectedText, number(source, .geocodedCount),
                         number(source, .merged), number(source, .overridden), dates(source), status]
                .map { $0.escapingControlCharacters() })
        }
        var text = align(rows, rightAligned: [2, 3, 4, 5, 6, 7, 8, 9], elastic: [0, 11], width: width)
        // A data set by id: the upload it serves, and the columns chosen for it.
        for source in objects(.sources) {
            let revision = Object(source.members(.revision))
            guard let title = revision.string(.title) else { continue }
            let chosen = Object(revision.members(.fields)).members.compactMap { field, column in column.string.map { "\(field) \($0)" } }
            text += "  \((source.string(.name) ?? "?").escapingControlCharacters()) serves upload \(title.escapingControlCharacters()) (\(revision.string(.date) ?? "?"), \(revision.string(.uddi) ?? "?"))"
                + (chosen.isEmpty ? "" : ", columns chosen: " + chosen.joined(separator: ", ").escapingControlCharacters()) + "\n"
        }
        // The rejected rows by reason, and the overrides file's lines that could not apply.
        for source in objects(.sources) {
            let reasons = source.members(.rejected).compactMap { reason, count -> String? in
                if case .number(let n) = count, n > 0 { return "\(reason) \(Int(n))" } else { return nil }
            }
            if !reasons.isEmpty { text += "  \((source.string(.name) ?? "?").escapingControlCharacters()) rejected: \(reasons.joined(separator: ", ").escapingControlCharacters())\n" }
        }
        let problems = answer.array(.problems).compactMap(\.string)
        if !problems.isEmpty {
            text += "\noverrides file:\n" + problems.map { "  \($0.escapingControlCharacters())\n" }.joined()
        }
        let districts = objects(.districts)
        if !districts.isEmpty {
            var table = [["PROVINCE", "DISTRICT", "SMOKING", "NON-SMOKING", "DATED"]]
            for district in districts {
                table.append([district.string(.province).map { $0.isEmpty ? "(unknown)" : $0 } ?? "-",
                              district.string(.district).map { $0.isEmpty ? "(unknown)" : $0 } ?? "-",
                              number(district, .smoking), number(district, .nonsmoking), dates(district)]
                    .map { $0.escapingControlCharacters() })
            }
            // Counted by what each record states (the map's shading counts by position).
            text += "\nby the district each record states (stating none: the one its position lies in):\n"
                + align(table, rightAligned: [2, 3], elastic: [0, 1], width: width)
        }
        return text
    }
}
