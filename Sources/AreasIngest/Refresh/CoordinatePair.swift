/// Both numbers of a position written in one cell, as some files do: `37.5012, 127.0396`,
/// `(37.5012 127.0396)`, `37.5012/127.0396`. Which is which is left to the bounds check, which
/// also takes the pair the other way round.
package enum CoordinatePair {
    /// The two numbers' texts, or nil when the cell holds other than two parts.
    package static func split(_ text: String) -> (String, String)? {
        var body = Substring(text)
        if let first = body.first, "([{".contains(first), let last = body.last, ")]}".contains(last) {
            body = body.dropFirst().dropLast()
        }
        let parts = body.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "/" || $0 == ";" || $0 == "\t" })
        guard parts.count == 2 else { return nil }
        return (String(parts[0]), String(parts[1]))
    }
}
