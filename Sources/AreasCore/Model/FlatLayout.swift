/// Where a data set's parts go when it is laid out flat (a snapshot being written): numbers,
/// and columns stored as they lie in memory so a reader can use them where they are.
package protocol FlatLayoutWriter {
    mutating func number(_ value: UInt64)
    mutating func column<Element: BitwiseCopyable>(_ column: Column<Element>)
    /// What the columns given from now on hold, for a writer that tells the parts apart (one
    /// that measures them); a file's writer passes it over.
    mutating func begin(_ part: FlatLayoutPart)
}

/// The parts of a laid-out data set, as `stats` breaks its memory down.
package enum FlatLayoutPart: Int, CaseIterable, Sendable {
    /// The settings an index was built with (footprint and merge policies).
    case settings
    /// The strings of every record.
    case text
    /// The records and their field lists.
    case records
    /// Which record leads each merged area, and the operator's corrections.
    case mergeGroups
    /// The trees and the zones' footprints.
    case index
    /// The zones' shapes.
    case shapes
    /// The search index over names and addresses.
    case search

    /// The part's name in answers.
    package var name: String {
        switch self {
        case .settings: "settings"
        case .text: "text"
        case .records: "records"
        case .mergeGroups: "mergeGroups"
        case .index: "index"
        case .shapes: "shapes"
        case .search: "search"
        }
    }
}

/// Reads back, in the same order, what a `FlatLayoutWriter` was given. Columns come back in
/// place (a mapped file's sections) and are checked by the type that reads them.
package protocol FlatLayoutReader {
    mutating func number() throws(FlatLayoutError) -> UInt64
    mutating func column<Element: BitwiseCopyable>(of type: Element.Type) throws(FlatLayoutError) -> Column<Element>
}

/// Why laid-out parts cannot be used: a number out of range, a column of the wrong size, a
/// reference that starts no string.
public struct FlatLayoutError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

extension FlatLayoutWriter {
    package mutating func begin(_ part: FlatLayoutPart) {}
    package mutating func number(_ value: Int) { number(UInt64(value)) }
    package mutating func number(_ value: Double) { number(value.bitPattern) }
    package mutating func number(_ value: Bool) { number(value ? UInt64(1) : 0) }
}

extension FlatLayoutReader {
    /// A count or size, at most `limit`; `what` names it in the error.
    package mutating func integer(_ what: String, atMost limit: Int) throws(FlatLayoutError) -> Int {
        let value = try number()
        guard value <= UInt64(limit) else { throw FlatLayoutError("\(what) is \(value), more than \(limit)") }
        return Int(value)
    }

    /// A finite number in `range`.
    package mutating func double(_ what: String, in range: ClosedRange<Double>) throws(FlatLayoutError) -> Double {
        let value = Double(bitPattern: try number())
        guard range.contains(value) else { throw FlatLayoutError("\(what) is \(value), outside \(range)") }
        return value
    }

    package mutating func bool(_ what: String) throws(FlatLayoutError) -> Bool {
        try integer(what, atMost: 1) == 1
    }

    /// A column that must hold exactly `count` values.
    package mutating func column<Element: BitwiseCopyable>(_ what: String, of type: Element.Type, count: Int) throws(FlatLayoutError) -> Column<Element> {
        let column = try column(of: type)
        guard column.count == count else { throw FlatLayoutError("\(what) holds \(column.count) values, not \(count)") }
        return column
    }
}
