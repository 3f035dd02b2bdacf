import AreasCore
import AreasProtocol
import AreasSystem

/// A question areasctl asks: how its command's operands are read and how its answer is shown.
/// Each operation's question type conforms in a file of its own here; the command table, the
/// parser and the formatter find them through `RequestOperation.allCases`.
protocol CommandQuestion: OperationQuestion {
    /// The options that choose how the answer is shown.
    static var presentation: [String] { get }
    /// The fields the operands give. What areasctl can explain better than the request's
    /// checks (a latitude and longitude swapped, a box's corners out of order) is a usage
    /// error here; the rest goes on to the request's own checks.
    static func operandValues(_ operands: Operands) throws(UsageError) -> [(RequestField, JSONValue)]
    /// What the command line means when it does not say (a corridor's width, waiting).
    static func completing(_ values: inout [(RequestField, JSONValue)]) throws(UsageError)
    /// A request the wire takes that a person typing it meant otherwise.
    func checkTyped() throws(UsageError)
    /// The answer as areasctl prints it, and its exit status.
    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output
    /// The exit status of an answer printed as the daemon's JSON.
    static func jsonStatus(_ answer: ResponseFormatter.Object) -> Int32
}

extension CommandQuestion {
    static func completing(_ values: inout [(RequestField, JSONValue)]) throws(UsageError) {}
    func checkTyped() throws(UsageError) {}
    static func jsonStatus(_ answer: ResponseFormatter.Object) -> Int32 { 0 }
    static func operandValues(_ operands: Operands) throws(UsageError) -> [(RequestField, JSONValue)] {
        _ = try operands.numbers([])
        return []
    }
}

/// An answer to show: the daemon's object, its members, the line as it came, and how wide a
/// table may be and when it is shown.
struct ShownAnswer {
    let object: ResponseFormatter.Object
    let response: [(String, JSONValue)]
    let line: [UInt8]
    let command: ControlCommand
    let width: Int?
    let now: Double
}

extension RequestOperation {
    /// How areasctl asks and shows this operation; nil only for a question type missing its
    /// conformance, which the command table's tests find.
    var command: (any CommandQuestion.Type)? { question as? any CommandQuestion.Type }
}

/// A command's operands as typed, read into fields with errors a person can act on.
struct Operands {
    let verb: String
    let texts: [String]
    let fields: [RequestField]
    /// The position is given by name (`--at`), so the operands leave out LAT LON.
    let named: Bool

    /// The operands as numbers, one per name, each finite.
    func numbers(_ names: [String]) throws(UsageError) -> [Double] {
        guard texts.count == names.count else {
            throw .wrongArguments(names.isEmpty ? "\(verb) takes no arguments" : "\(verb) takes \(names.joined(separator: " "))")
        }
        var values: [Double] = []
        for (name, text) in zip(names, texts) {
            guard let value = Double(text), value.isFinite else { throw .invalidValue(name, text) }
            values.append(value)
        }
        return values
    }

    /// LAT LON, in range, a swapped pair in Korea pointed out; `rest` the operands after them.
    func point(_ v: [Double], rest: String = "") throws(UsageError) -> [(RequestField, JSONValue)] {
        try ControlCommand.checkOrder(latitude: v[0], longitude: v[1], verb: verb, rest: rest)
        guard (-180...180).contains(v[1]) else { throw .wrongArguments("longitude must be between -180 and 180, got \(ControlCommand.text(v[1]))") }
        return [(.lat, .number(v[0])), (.lon, .number(v[1]))]
    }

    /// LAT LON, or nothing when the position is named with `--at`.
    func position() throws(UsageError) -> [(RequestField, JSONValue)] {
        guard named else { return try point(try numbers(["LAT", "LON"])) }
        guard texts.isEmpty else { throw .wrongArguments("\(verb) takes LAT LON or --at TEXT, not both") }
        return []
    }

    /// SOUTH WEST NORTH EAST, each in range and in order; corners typed as longitude and
    /// latitude are pointed out.
    func box() throws(UsageError) -> [(RequestField, JSONValue)] {
        let v = try numbers(["SOUTH", "WEST", "NORTH", "EAST"])
        let text = ControlCommand.text
        let swapped = [v[1], v[0], v[3], v[2]]
        if !(-90...90).contains(v[0]) || !(-90...90).contains(v[2]), (try? GeoBox(south: swapped[0], west: swapped[1], north: swapped[2], east: swapped[3])) != nil,
           (-90...90).contains(swapped[0]) && (-90...90).contains(swapped[2]) {
            throw .wrongArguments("\(text(v[0])) is not a latitude: each corner looks like longitude then latitude (try: areasctl \(verb) \(swapped.map(text).joined(separator: " ")))")
        }
        for (name, value, limit) in [("SOUTH", v[0], 90.0), ("WEST", v[1], 180.0), ("NORTH", v[2], 90.0), ("EAST", v[3], 180.0)] where abs(value) > limit {
            throw .wrongArguments("\(name) must be between -\(Int(limit)) and \(Int(limit)), got \(text(value))")
        }
        if v[0] > v[2] { throw .wrongArguments("SOUTH (\(text(v[0]))) is north of NORTH (\(text(v[2]))): give the box as SOUTH WEST NORTH EAST") }
        if v[1] > v[3] { throw .wrongArguments("WEST (\(text(v[1]))) is east of EAST (\(text(v[3]))): give the box as SOUTH WEST NORTH EAST") }
        return zip(fields, v).map { ($0, .number($1)) }
    }

    /// METERS, from 0 to the longest distance a request may name.
    func meters(_ value: Double) throws(UsageError) -> [(RequestField, JSONValue)] {
        guard (0...Request.maximumMeters).contains(value) else {
            throw .wrongArguments("METERS must be from 0 to \(Int(Request.maximumMeters)), got \(ControlCommand.text(value))")
        }
        return [(.meters, .number(value))]
    }
}
