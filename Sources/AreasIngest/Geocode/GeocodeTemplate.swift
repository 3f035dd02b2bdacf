import AreasCore

/// Text with `{column}` placeholders, filled from a row to make a geocoder query
/// (`"{시도명} {시군구명} {소재지도로명주소}"`): many files give the street address without the
/// city and district, which sit in columns of their own.
package struct GeocodeTemplate: Sendable, Equatable, CustomStringConvertible {
    enum Part: Sendable, Equatable {
        case text(String)
        case column(String)
    }

    let parts: [Part]
    package let description: String

    /// Parses `text`; the error says what is wrong with it.
    package init(_ text: String) throws(Malformed) {
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else { throw Malformed(reason: "'{' without a closing '}'") }
            let name = String(rest[rest.index(after: open)..<close]).collapsingWhitespace
            guard !name.isEmpty else { throw Malformed(reason: "an empty '{}'") }
            guard !name.contains("{") else { throw Malformed(reason: "'{' inside a column name") }
            parts.append(.column(name))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        guard parts.contains(where: { if case .column = $0 { return true } else { return false } }) else {
            throw Malformed(reason: "no {column} in it, so every row would ask the same question")
        }
        self.parts = parts
        self.description = text
    }

    package struct Malformed: Error, Sendable, Equatable {
        package var reason: String
    }

    /// The columns it reads, in order.
    package var columns: [String] {
        parts.compactMap { if case .column(let name) = $0 { return name } else { return nil } }
    }

    /// The query for one row: every placeholder replaced by its cell (empty when the row has
    /// no such cell), trimmed, runs of white space made one space. Words in front of the last
    /// placeholder that its cell already begins with (before its street and number) are left
    /// out, a province however written, so
    /// `서울특별시 {자치구} {설치위치}` with `서울특별시 서대문구 연희로248` in 설치위치 asks for
    /// `서울특별시 서대문구 연희로248`, not the region twice.
    package func render(_ cell: (String) -> String) -> String {
        var before = ""
        var last = ""
        let lastColumn = parts.lastIndex { if case .column = $0 { return true } else { return false } }
        for (index, part) in parts.enumerated() {
            let text: String
            switch part {
            case .text(let literal): text = literal
            case .column(let name): text = cell(name)
            }
            if let lastColumn, index >= lastColumn { last += text } else { before += text }
        }
        // The cell's leading words, up to its first with a digit (the street and number).
        let stated = last.split(separator: " ").prefix { !$0.contains(where: \.isNumber) }.map { Self.region(String($0)) }
        let kept = before.split(separator: " ").filter { !stated.contains(Self.region(String($0))) }
        return (kept.joined(separator: " ") + " " + last).collapsingWhitespace
    }

    /// A word as the region it names (`서울` and `서울특별시` alike), or as itself.
    private static func region(_ word: String) -> String { KoreanRegions.province(word) ?? word }
}

/// The questions a source asks of the geocoder for a row without a usable position.
package struct GeocodeQueries: Sendable, Equatable {
    /// Sent to address search.
    package var query: GeocodeTemplate
    /// Sent to place search when address search finds nothing.
    package var keyword: GeocodeTemplate?

    package init(query: GeocodeTemplate, keyword: GeocodeTemplate? = nil) {
        self.query = query
        self.keyword = keyword
    }

    package var columns: [String] { query.columns + (keyword?.columns ?? []) }
}
