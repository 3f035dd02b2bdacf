/// The name someone probably meant, for "did you mean" in the messages for a misspelt config
/// key or command.
public enum Suggestion {
    /// The candidate nearest to `typed` by edit distance (ties: the first in order), if one is
    /// within `maximumDistance` edits; but the one candidate `typed` begins, when there is one
    /// (a key without its unit: `maxAge` for `maxAgeSeconds`).
    public static func closest(to typed: String, among candidates: some Sequence<String>, maximumDistance: Int = .max) -> String? {
        if typed.count >= 3 {
            let extended = candidates.filter { $0.count > typed.count && $0.hasPrefix(typed) }
            if extended.count == 1 { return extended[0] }
        }
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(candidate, typed)
            if distance <= maximumDistance && distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance: insertions, deletions and substitutions of characters.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}
