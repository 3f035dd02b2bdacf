import AreasCore
import Foundation

/// Whether a file lists smoking areas or non-smoking zones, by its own words: its name, its
/// column names and its values (`흡연부스`, `흡연구역명`; `금연구역명`, `nonsmoking`).
enum KindWords {
    static let smoking = ["흡연구역", "흡연부스", "흡연시설", "흡연실", "흡연장소", "흡연소", "smoking"]
    static let nonsmoking = ["금연", "nonsmoking", "non-smoking", "no-smoking", "no_smoking", "non_smoking"]

    /// The kind and why, or nil when the words do not say (or say both equally).
    static func kind(of origin: String, columns: [String], profiles: [ColumnProfile]) -> (AreaKind, String)? {
        var votes: [AreaKind: [String]] = [:]
        func read(_ text: String, weight: Int) {
            var lower = text.lowercased()
            if let word = nonsmoking.first(where: { lower.contains($0) }) {
                votes[.nonsmoking, default: []] += Array(repeating: word, count: weight)
                // "nonsmoking" holds "smoking": what is left says smoking on its own, or not.
                for word in nonsmoking { lower = lower.replacingOccurrences(of: word, with: " ") }
            }
            if let word = smoking.first(where: { lower.contains($0) }) { votes[.smoking, default: []] += Array(repeating: word, count: weight) }
        }
        read(origin.split(separator: "/").last.map(String.init) ?? origin, weight: 2)
        for column in columns { read(column, weight: 2) }
        for profile in profiles { for value in profile.sample { read(value, weight: 1) } }
        let smokingVotes = votes[.smoking]?.count ?? 0
        let nonsmokingVotes = votes[.nonsmoking]?.count ?? 0
        guard smokingVotes != nonsmokingVotes else { return nil }
        let kind: AreaKind = smokingVotes > nonsmokingVotes ? .smoking : .nonsmoking
        let words = Array(Set(votes[kind] ?? [])).sorted().prefix(3).map { "'\($0)'" }.joined(separator: ", ")
        return (kind, "the file's words say so (\(words))")
    }
}
