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
        var text = "\(hotspots.count) hotspots, \(known) with a level; \(answer.int(.requestsToday) ?? 0) of \(answer.int(.dailyRequestLimit) ?? 0) requests to the city today"
        let outcomes = Object(answer.members(.outcomes))
        let counted = outcomes.members.map { "\($0.0.escapingControlCharacters()) \($0.1.double.map { String(Int($0)) } ?? "")" }
        if !counted.isEmpty { text += " (" + counted.joined(separator: ", ") + ")" }
        text += "\n"
        if let stopped = answer.string(.stopped) { text += "asking stopped: \(stopped)\n" }
        var rows = [["CODE", "PLACE", "LEVEL", "PEOPLE", "AT", "AGE", "LAST ASKED"]]
        for hotspot in hotspots {
            let people = switch (hotspot.int(.min), hotspot.int(.max)) {
            case let (low?, high?): "\(low)–\(high)"
            case let (low?, nil): "\(low)+"
            default: ""
            }
            let at = hotspot.string(.at).map { String($0.prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? ""
            let age = hotspot.double(.ageSeconds).map { MeasurementText.duration($0) } ?? ""
            let outcome = hotspot.string(.lastOutcome).map { $0 == "ok" ? "ok" : "\($0): \(hotspot.string(.lastError) ?? "")" } ?? ""
            rows.append([hotspot.string(.code) ?? "", hotspot.string(.place) ?? "", hotspot.string(.level) ?? "–", people, at, age,
                         outcome])
        }
        return text + "\n" + align(rows, rightAligned: [3, 5], elastic: [6], width: width)
    }
}
