extension String {
    /// The text with every control character made visible: C0 controls, DEL, the C1 controls
    /// (NEL, U+0085, among them), the Unicode line and paragraph separators and the
    /// bidirectional controls (the marks, embeddings, overrides and isolates) become `\n`,
    /// `\r`, `\t`, `\e` or `\u{XXXX}`. Text from upstream goes through this before a log line
    /// or a terminal sees it: a NUL or `\n<0>` would forge a journal entry, an escape sequence
    /// would drive the terminal, a right-to-left override would show text in another order
    /// than it has. `lineBreak`, when given, stands for each `\n` instead.
    package func escapingControlCharacters(lineBreak: String? = nil) -> String {
        // Fast path, by bytes: almost every value has nothing to escape.
        if !utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) { return self }
        var result = ""
        result.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x0A: result += lineBreak ?? "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0x1B: result += "\\e"
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
