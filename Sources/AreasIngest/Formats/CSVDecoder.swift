import AreasCore

/// Reads a whole CSV file as one page: its text in the source's encoding, its header (or
/// column numbers), then a record per row.
///
/// Header names are trimmed and runs of white space in them made one space (`"구   분"` is
/// `"구 분"`), as configured column names are; an empty header name, or a cell past the last
/// header, is named by its 1-based column number. Cells are trimmed. Rows with no text in
/// any cell are skipped.
package struct CSVDecoder: PageDecoder {
    package let encoding: TextEncoding
    package let hasHeader: Bool
    package let parser: CSVParser

    package init(encoding: TextEncoding = .auto, hasHeader: Bool = true, delimiter: UInt8 = UInt8(ascii: ",")) {
        self.encoding = encoding
        self.hasHeader = hasHeader
        self.parser = CSVParser(delimiter: delimiter, trimsSpaces: true)
    }

    package func decode(_ body: [UInt8]) throws(UpstreamError) -> UpstreamPage {
        var records: [[Field]] = []
        try forEachRecord(utf8: try encoding.utf8Text(body)) { records.append($0) }
        return UpstreamPage(records: records, totalCount: nil)
    }

    /// Calls `body` with each record of `text` (already UTF-8) in turn, as `decode` reads them.
    package func forEachRecord(utf8 text: [UInt8], _ body: ([Field]) -> Void) throws(UpstreamError) {
        var names: [String] = []
        var sawHeader = !hasHeader
        do throws(CSVParser.Unterminated) {
            try parser.forEachRow(text) { row in
                guard sawHeader else {
                    names = Self.columnNames(row)
                    sawHeader = true
                    return
                }
                var fields: [Field] = []
                fields.reserveCapacity(row.count)
                var anyText = false
                for (column, cell) in row.enumerated() {
                    let value = cell.trimmed
                    if !value.isEmpty { anyText = true }
                    fields.append(Field(column < names.count ? names[column] : String(column + 1), value))
                }
                if anyText { body(fields) }
            }
        } catch {
            throw .malformedPage("\(error)")
        }
        guard sawHeader else { throw .malformedPage("the file is empty: no header row") }
    }

    /// The rows of the file, header included, as text.
    func rows(_ body: [UInt8]) throws(UpstreamError) -> [[String]] {
        let text = try encoding.utf8Text(body)
        do throws(CSVParser.Unterminated) {
            return try parser.rows(text)
        } catch {
            throw .malformedPage("\(error)")
        }
    }

    /// The names a header row gives its columns, as configured names are matched against them.
    package static func columnNames(_ header: [String]) -> [String] {
        header.enumerated().map { column, name in
            let collapsed = name.collapsingWhitespace
            return collapsed.isEmpty ? String(column + 1) : collapsed
        }
    }

    /// The column names of a file: its header, or nil for a headerless one.
    package func columnNames(of body: [UInt8]) throws(UpstreamError) -> [String]? {
        guard hasHeader else { return nil }
        guard let header = try rows(body).first else { throw .malformedPage("the file is empty: no header row") }
        return Self.columnNames(header)
    }
}
