import AreasCore
import AreasProtocol

/// `areasctl crowd` for people: each hotspot with its last level, the people estimated, when
/// and how old, and how the last asking went; the day's requests above them.
extension ResponseFormatter {
    static func hotspots(_ answer: Object, width: Int?) -> String {
        let hotspots = answer.array(.hotspots).compactMap { value -> Object? in
            if case .object(let members) = value { return Object(members) } else { return nil }
        }
        let known = hotspots.filter { $0.string(.level) != nil }.count
        let stale = hotspots.filter { $0.bool(.stale) == true }.count
        var text = "\(hotspots.count) hotspots, \(known) with a level" + (stale > 0 ? " (\(stale) stale)" : "")
        let outcomes = Object(answer.members(.outcomes))
        let counted = outcomes.members.map { "\($0.0.escapingControlCharacters()) \($0.1.double.map { String(Int($0)) } ?? "")" }
        let tally = counted.isEmpty ? "none yet" : counted.joined(separator: ", ")
        if answer.bool(.recorded) == true {
            // A recording costs the city nothing: its reads are not the day's requests.
            text += "; read from recorded answers, no requests to the city (answers since start: \(tally))"
        } else {
            text += "; \(answer.int(.requestsToday) ?? 0) of \(answer.int(.dailyRequestLimit) ?? 0) requests to the city today (answers since start: \(tally))"
        }
        text += "\n"
        if let stopped = answer.string(.stopped) { text += "asking stopped: \(stopped)\n" }
        // Times as the city gives them, in Korea's time.
        func minute(_ text: String?) -> String { text.map { String($0.prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? "" }
        var rows = [["CODE", "PLACE", "LEVEL", "PEOPLE", "AT (KST)", "AGE", "ASKED (KST)", "OUTCOME"]]
        for hotspot in hotspots {
            let people = switch (hotspot.int(.min), hotspot.int(.max)) {
            case let (low?, high?): "\(low)–\(high)"
            case let (low?, nil): "\(low)+"
            default: ""
            }
            let age = hotspot.double(.ageSeconds).map { MeasurementText.duration($0) + (hotspot.bool(.stale) == true ? " (stale)" : "") } ?? ""
            let outcome = hotspot.string(.lastOutcome).map { $0 == "ok" ? "ok" : "\($0): \(hotspot.string(.lastError) ?? "")" } ?? ""
            rows.append([hotspot.string(.code) ?? "", hotspot.string(.place) ?? "", hotspot.string(.level) ?? "–", people,
                         minute(hotspot.string(.at)), age, minute(hotspot.string(.lastAskedAt)), outcome])
        }
        return text + "\n" + align(rows, rightAligned: [3, 5], elastic: [7], width: width)
    }
}
