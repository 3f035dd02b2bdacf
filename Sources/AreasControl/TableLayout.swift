import AreasCore

/// Tables for people: columns padded to their widest cell (wide characters counted as two),
/// fitted to a terminal by cutting the cells that matter least, and the text measures that
/// fitting reads.
extension ResponseFormatter {
    /// Columns padded to the widest cell, counting wide (Hangul, CJK) characters as two. With
    /// a `width`, the lines are made to fit it: the `elastic` columns (addresses, names) give
    /// up space in their order, their long cells ending in "…", the last of them (the one that
    /// matters most) keeping 24 columns while the `middle` columns (ids) lose their middle down
    /// to 17; the `droppable` column (an address) goes when it would be cut below 16 columns or
    /// the name below 24 and leaving it out gives the name more. Distances stay whole.
    static func align(_ rows: [[String]], rightAligned: Set<Int>, elastic: [Int] = [], droppable: Int? = nil, middle: Set<Int> = [],
                      width: Int? = nil) -> String {
        guard let columns = rows.map(\.count).max() else { return "" }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = Swift.max(widths[i], displayWidth(cell)) } }
        var shown = Array(0..<columns)
        if let width {
            // Who gives way, and down to what: the lesser elastic columns to 8, the last (most
            // important) to 24, the ids to 17, and only then the last to 8.
            let kept = elastic.last
            let order = elastic.dropLast().map { ($0, 8) } + (kept.map { [($0, 24)] } ?? []) + middle.map { ($0, 17) } + (kept.map { [($0, 8)] } ?? [])
            func fit(_ widths: inout [Int], _ shown: [Int]) {
                var excess = shown.map { widths[$0] }.reduce(2 * (shown.count - 1), +) - width
                for (column, narrowest) in order where shown.contains(column) && excess > 0 {
                    let given = Swift.min(excess, Swift.max(0, widths[column] - narrowest))
                    widths[column] -= given
                    excess -= given
                }
            }
            var fitted = widths
            fit(&fitted, shown)
            // A column cut to a few characters says nothing: better give its room to the name.
            if let droppable, let kept, kept != droppable,
               fitted[kept] < Swift.min(24, widths[kept]) || fitted[droppable] < Swift.min(16, widths[droppable]) {
                let without = shown.filter { $0 != droppable }
                var narrower = widths
                fit(&narrower, without)
                let uselessLeft = fitted[droppable] < Swift.min(16, widths[droppable])
                if narrower[kept] > fitted[kept] || (uselessLeft && narrower[kept] >= fitted[kept]) { (shown, fitted) = (without, narrower) }
            }
            // An id cut by a character or two is still unusable: the name gives those instead.
            if let kept {
                for column in middle where shown.contains(column) {
                    let cut = widths[column] - fitted[column]
                    if cut > 0 && cut < 6 && fitted[kept] - cut >= 8 {
                        fitted[column] += cut
                        fitted[kept] -= cut
                    }
                }
            }
            widths = fitted
        }
        var text = ""
        for row in rows {
            var line = ""
            let cells = shown.filter { $0 < row.count }
            for (position, i) in cells.enumerated() {
                let cell = row[i]
                let fits = displayWidth(cell) <= widths[i]
                let written = fits ? cell : middle.contains(i) ? elideMiddle(cell, to: widths[i]) : elide(cell, to: widths[i])
                let pad = String(repeating: " ", count: Swift.max(0, widths[i] - displayWidth(written)))
                let isLast = position == cells.count - 1
                line += rightAligned.contains(i) ? pad + written : (isLast ? written : written + pad)
                if !isLast { line += "  " }
            }
            text += line + "\n"
        }
        return text
    }

    /// `text` with its middle replaced by "…" to fit `width` columns: both ends of an id stay.
    static func elideMiddle(_ text: String, to width: Int) -> String {
        let characters = Array(text)
        guard characters.count > width, width >= 3 else { return text }
        let head = (width - 1) / 2, tail = width - 1 - head
        return String(characters.prefix(head)) + "…" + String(characters.suffix(tail))
    }

    /// The longest start of `text` that fits `width` columns with "…" after it.
    static func elide(_ text: String, to width: Int) -> String {
        var kept = ""
        var used = 0
        for character in text {
            let characterWidth = displayWidth(String(character))
            if used + characterWidth > width - 1 { break }
            kept.append(character)
            used += characterWidth
        }
        return kept + "…"
    }

    package static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6:
                return width + 2
            case 0x0300...0x036F, 0x200B...0x200F:
                return width
            default:
                return width + 1
            }
        }
    }

    /// The width `rows` take with every cell whole.
    static func naturalWidth(_ rows: [[String]]) -> Int {
        let columns = rows.map(\.count).max() ?? 0
        return (0..<columns).map { i in rows.map { i < $0.count ? displayWidth($0[i]) : 0 }.max() ?? 0 }.reduce(2 * Swift.max(columns - 1, 0), +)
    }

    /// `text` without the leading words found in `words` (`서울특별시 용산구 서울역` less its
    /// province and district), unless nothing would be left.
    static func withoutLeadingWords(_ text: String, in words: Set<String>) -> String {
        var rest = Substring(text)
        while let space = rest.firstIndex(of: " "), words.contains(String(rest[..<space])) {
            let after = rest[rest.index(after: space)...].drop { $0 == " " }
            guard !after.isEmpty else { break }
            rest = after
        }
        return String(rest)
    }

    /// The whole words, each with the space after it, that every one of `texts` begins with
    /// and that leave each of them something more.
    static func commonLeadingWords(_ texts: [String]) -> String {
        guard var prefix = texts.first else { return "" }
        for text in texts.dropFirst() { prefix = String(prefix.commonPrefix(with: text)) }
        guard let lastSpace = prefix.lastIndex(of: " ") else { return "" }
        let words = String(prefix[...lastSpace])
        return texts.allSatisfy { $0.count > words.count } ? words : ""
    }
}
