/// Where a data set's parts go when it is laid out flat (a snapshot being written): numbers,
/// and columns stored as they lie in memory so a reader can use them where they are.
package protocol FlatLayoutWriter {
    mutating func number(_ value: UInt64)
    mutating func column<Element: BitwiseCopyable>(_ column: Column<Element>)
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
