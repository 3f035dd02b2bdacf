/// How a delimited text file is laid out: its delimiter, and whether its first row names the
/// columns. Read from the first rows, as a person glancing at the file would.
struct DelimitedTextShape: Sendable, Equatable {
    var delimiter: UInt8
    var hasHeader: Bool
    /// Why the first row was taken for a header or for data, for the report.
    var headerReason: String

    static let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: "\t"), UInt8(ascii: ";"), UInt8(ascii: "|")]
    /// Rows looked at to decide; enough for a pattern, few enough to be instant on any file.
    static let sampleRows = 200

    /// The shape of `text` (UTF-8): the delimiter that splits the most rows into the same
    /// number of cells, then the header judged by `header(_:)`.
    static func of(_ text: [UInt8]) -> DelimitedTextShape {
        let head = Self.head(of: text)
        var best: (delimiter: UInt8, score: Double, rows: [[String]]) = (UInt8(ascii: ","), -1, [])
        for delimiter in candidates {
            guard let rows = try? CSVParser(delimiter: delimiter, trimsSpaces: true).rows(head).prefix(sampleRows) else { continue }
            var widths: [Int: Int] = [:]
            for row in rows { widths[row.count, default: 0] += 1 }
            guard let (width, count) = widths.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }), width > 1 else { continue }
            // Rows of one width, and more columns, make the likelier split.
            let score = Double(count) / Double(rows.count) + Double(min(width, 20)) / 1000
            if score > best.score { best = (delimiter, score, Array(rows)) }
        }
        if best.score < 0 { best.rows = (try? CSVParser(trimsSpaces: true).rows(head)).map { Array($0.prefix(sampleRows)) } ?? [] }
        let (hasHeader, reason) = header(best.rows.map { $0.map(\.trimmed) })
        return DelimitedTextShape(delimiter: best.delimiter, hasHeader: hasHeader, headerReason: reason)
    }

    /// The text up to the end of a line near its first 256 KiB: the rows to judge by.
    private static func head(of text: [UInt8]) -> [UInt8] {
        let limit = 256 << 10
        guard text.count > limit else { return text }
        let end = text[limit...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? text.count
        return Array(text[..<end])
    }

    /// Whether the first of `rows` is a header: a headerless file's first row looks like the
    /// others (numbers where they have numbers, one of their repeating values where they
    /// repeat one); a header has words where the rows have numbers, or the words columns are
    /// named with.
    static func header(_ rows: [[String]]) -> (Bool, String) {
        guard let first = rows.first else { return (true, "the file is empty") }
        let rest = rows.dropFirst()
        guard !rest.isEmpty else { return (true, "only one row: taken for the header") }
        var wordsOverNumbers: [String] = []
        var numbersLikeTheRest: [String] = []
        var repeatedValues: [String] = []
        var columnWords: [String] = []
        for (column, cell) in first.enumerated() where !cell.isEmpty {
            let below = rest.compactMap { $0.count > column ? $0[column] : nil }.filter { !$0.isEmpty }
            let numbers = below.filter { RecordValidator.decimal($0) != nil }.count
            if below.count >= 2, Double(numbers) >= 0.8 * Double(below.count) {
                if RecordValidator.decimal(cell) != nil { numbersLikeTheRest.append(cell) } else { wordsOverNumbers.append(cell) }
            }
            if below.count >= 3, below.filter({ $0 == cell }).count * 2 >= below.count { repeatedValues.append(cell) }
            if isColumnWord(cell) { columnWords.append(cell) }
        }
        let headerEvidence = wordsOverNumbers.count + min(columnWords.count, 2)
        let dataEvidence = numbersLikeTheRest.count + repeatedValues.count
        func list(_ cells: [String]) -> String { cells.prefix(3).map { "'\($0)'" }.joined(separator: ", ") }
        if dataEvidence > headerEvidence {
            var why: [String] = []
            if !numbersLikeTheRest.isEmpty { why.append("numbers where the rows below have numbers (\(list(numbersLikeTheRest)))") }
            if !repeatedValues.isEmpty { why.append("values the rows below repeat (\(list(repeatedValues)))") }
            return (false, "no header row: the first row has " + why.joined(separator: " and "))
        }
        var why: [String] = []
        if !wordsOverNumbers.isEmpty { why.append("words over columns of numbers (\(list(wordsOverNumbers)))") }
        if !columnWords.isEmpty { why.append("the words columns are named with (\(list(columnWords)))") }
        return (true, why.isEmpty ? "a header row (nothing says otherwise)" : "a header row: " + why.joined(separator: " and "))
    }

    private static func isColumnWord(_ cell: String) -> Bool {
        ColumnNameWords.isLatitude(cell) || ColumnNameWords.isLongitude(cell) || ColumnNameWords.isRoadAddress(cell)
            || ColumnNameWords.isLotAddress(cell) || ColumnNameWords.isProvince(cell) || ColumnNameWords.isDistrict(cell)
            || ColumnNameWords.isReferenceDate(cell) || ColumnNameWords.placeNameWeight(cell).weight != 0
    }
}
