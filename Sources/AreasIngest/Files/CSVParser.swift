/// Splits comma-separated text into rows of cells, as RFC 4180 describes and as spreadsheet
/// programs write it.
///
/// A quoted cell may hold the delimiter, doubled quotes (one quote each) and line breaks.
/// Rows end at CRLF, LF or a lone CR. Rows may differ in length. Leniency where real files
/// stray: text after a closing quote is kept as part of the cell (`"a"b` is `ab`), and a quote
/// inside an unquoted cell is an ordinary character. The one error is a quoted cell that never
/// closes, which would otherwise swallow the rest of the file into one cell.
public struct CSVParser: Sendable {
    public let delimiter: UInt8

    public init(delimiter: UInt8 = UInt8(ascii: ",")) {
        self.delimiter = delimiter
    }

    public struct Unterminated: Error, Sendable, Equatable, CustomStringConvertible {
        /// The 1-based line the quoted cell opens on.
        public var line: Int
        public var description: String { "a quoted cell opened on line \(line) is never closed" }
    }

    /// Every row of `text` (UTF-8), cells as written apart from quoting; no row for a line
    /// ending at the very end of the text.
    public func rows(_ text: [UInt8]) throws(Unterminated) -> [[String]] {
        let quote = UInt8(ascii: "\"")
        let cr = UInt8(ascii: "\r")
        let lf = UInt8(ascii: "\n")
        var rows: [[String]] = []
        var row: [String] = []
        var cell: [UInt8] = []
        var line = 1
        var i = 0
        let n = text.count
        // A cell that has begun (even empty before a delimiter) belongs to the row.
        var rowStarted = false

        func endCell() {
            row.append(String(decoding: cell, as: UTF8.self))
            cell.removeAll(keepingCapacity: true)
        }

        while i < n {
            let byte = text[i]
            if byte == quote && cell.isEmpty {
                // A quoted cell: up to the quote that is not doubled.
                let opened = line
                i += 1
                var closed = false
                while i < n {
                    let b = text[i]
                    if b == quote {
                        if i + 1 < n && text[i + 1] == quote {
                            cell.append(quote)
                            i += 2
                            continue
                        }
                        i += 1
                        closed = true
                        break
                    }
                    if b == lf || (b == cr && (i + 1 >= n || text[i + 1] != lf)) { line += 1 }
                    cell.append(b)
                    i += 1
                }
                guard closed else { throw Unterminated(line: opened) }
                rowStarted = true
                continue
            }
            if byte == delimiter {
                endCell()
                rowStarted = true
                i += 1
            } else if byte == lf || byte == cr {
                endCell()
                rows.append(row)
                row.removeAll(keepingCapacity: true)
                rowStarted = false
                i += (byte == cr && i + 1 < n && text[i + 1] == lf) ? 2 : 1
                line += 1
            } else {
                cell.append(byte)
                rowStarted = true
                i += 1
            }
        }
        if rowStarted || !cell.isEmpty {
            endCell()
            rows.append(row)
        }
        return rows
    }
}
