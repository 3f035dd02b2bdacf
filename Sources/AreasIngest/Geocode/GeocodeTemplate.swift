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
    /// no such cell), trimmed, runs of white space made one space.
    package func render(_ cell: (String) -> String) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .text(let literal): text += literal
            case .column(let name): text += cell(name)
            }
        }
        return text.collapsingWhitespace
    }
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
