/// Splits comma-separated text into rows of cells, as RFC 4180 describes and as spreadsheet
/// programs write it.
///
/// A quoted cell may hold the delimiter, doubled quotes (one quote each) and line breaks.
/// Rows end at CRLF, LF or a lone CR. Rows may differ in length. Leniency where real files
/// stray: text after a closing quote is kept as part of the cell (`"a"b` is `ab`), and a quote
/// inside an unquoted cell is an ordinary character. The one error is a quoted cell that never
/// closes, which would otherwise swallow the rest of the file into one cell.
package struct CSVParser: Sendable {
    package let delimiter: UInt8
    /// Whether spaces and tabs around a cell (outside its quotes) are dropped as it is read
    /// (cells padded to a fixed width then make no second string).
    package let trimsSpaces: Bool

    package init(delimiter: UInt8 = UInt8(ascii: ","), trimsSpaces: Bool = false) {
        self.delimiter = delimiter
        self.trimsSpaces = trimsSpaces
    }

    package struct Unterminated: Error, Sendable, Equatable, CustomStringConvertible {
        /// The 1-based line the quoted cell opens on.
        package var line: Int
        package var description: String { "a quoted cell opened on line \(line) is never closed" }
    }

    /// Every row of `text` (UTF-8), cells as written apart from quoting; no row for a line
    /// ending at the very end of the text.
    package func rows(_ text: [UInt8]) throws(Unterminated) -> [[String]] {
        var rows: [[String]] = []
        try forEachRow(text) { rows.append($0) }
        return rows
    }

    /// Calls `body` with each row in turn (the array is reused between calls).
    package func forEachRow(_ text: [UInt8], _ body: ([String]) -> Void) throws(Unterminated) {
        let result: Unterminated? = text.withUnsafeBufferPointer { buffer in
            do throws(Unterminated) {
                try forEachRow(buffer, body)
                return nil
            } catch {
                return error
            }
        }
        if let result { throw result }
    }

    private func forEachRow(_ text: UnsafeBufferPointer<UInt8>, _ body: ([String]) -> Void) throws(Unterminated) {
        let quote = UInt8(ascii: "\"")
        let cr = UInt8(ascii: "\r")
        let lf = UInt8(ascii: "\n")
        let delimiter = self.delimiter
        let n = text.count
        var row: [String] = []
        var line = 1
        var i = 0
        // The bytes of a quoted cell, with its doubled quotes made single.
        var quoted: [UInt8] = []
        while i < n {
            // One cell: quoted, or up to the next delimiter or line end.
            var cell: String
            if trimsSpaces {
                // Padding before an opening quote is padding too.
                var j = i
                while j < n, text[j] == 0x20 || text[j] == 0x09 { j += 1 }
                if j < n, text[j] == quote { i = j }
            }
            if text[i] == quote {
                let opened = line
                quoted.removeAll(keepingCapacity: true)
                i += 1
                var closed = false
                while i < n {
                    let byte = text[i]
                    if byte == quote {
                        if i + 1 < n && text[i + 1] == quote {
                            quoted.append(quote)
                            i += 2
                            continue
                        }
                        i += 1
                        closed = true
                        break
                    }
                    if byte == lf || (byte == cr && (i + 1 >= n || text[i + 1] != lf)) { line += 1 }
                    quoted.append(byte)
                    i += 1
                }
                guard closed else { throw Unterminated(line: opened) }
                // Anything after the closing quote belongs to the cell (but padding, when trimming).
                while i < n, text[i] != delimiter, text[i] != lf, text[i] != cr {
                    if !(trimsSpaces && (text[i] == 0x20 || text[i] == 0x09)) { quoted.append(text[i]) }
                    i += 1
                }
                cell = String(decoding: quoted, as: UTF8.self)
            } else {
                var start = i
                while i < n {
                    let byte = text[i]
                    if byte == delimiter || byte == lf || byte == cr { break }
                    i += 1
                }
                var end = i
                if trimsSpaces {
                    while start < end, text[start] == 0x20 || text[start] == 0x09 { start += 1 }
                    while end > start, text[end - 1] == 0x20 || text[end - 1] == 0x09 { end -= 1 }
                }
                cell = String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
            }
            row.append(cell)
            if i >= n { break }
            if text[i] == delimiter {
                i += 1
                // A delimiter at the very end opens one last, empty cell.
                if i == n { row.append("") }
                continue
            }
            // A line end closes the row.
            i += (text[i] == cr && i + 1 < n && text[i + 1] == lf) ? 2 : 1
            line += 1
            body(row)
            row.removeAll(keepingCapacity: true)
        }
        if !row.isEmpty { body(row) }
    }
}
