import AreasCore
import AreasProtocol
import AreasSystem

/// An areasctl option that sets one request field, declared once: the command table (and so
/// `--help`, the completions and the manual), which commands read it, and how its text becomes
/// the field all come from here. Its text is the field's text as an HTTP parameter gives it
/// (`RequestField.value(fromText:)`), and the request's own checks judge it, so the socket,
/// HTTP and the command line accept the same values and explain them in the same words.
struct FieldOption: Sendable {
    let field: RequestField
    /// The field a `LAT,LON` option's longitude sets (`--near`'s `lon`), when it sets two.
    let pairedField: RequestField?
    let option: CommandLineTable.Option

    init(_ field: RequestField, _ names: [String], value: String? = nil, choices: [String] = [], pairedWith pairedField: RequestField? = nil, _ summary: String) {
        self.field = field
        self.pairedField = pairedField
        self.option = CommandLineTable.Option(names, value: value, choices: choices, summary)
    }

    /// The name messages use (`-k`, `--max-meters`).
    var name: String { option.name }
    var isFlag: Bool { option.value == nil }

    /// Every field an areasctl option sets. A command reads the ones its operation's fields
    /// include, less those it takes as operands.
    static let all: [FieldOption] = [
        FieldOption(.k, ["-k"], value: "N", "how many of the nearest (1 to 10,000; default 10)"),
        FieldOption(.maxMeters, ["--max-meters"], value: "METERS", "only areas this close"),
        FieldOption(.meters, ["--meters"], value: "METERS", "how far either side of the route (default 50)"),
        FieldOption(.limit, ["--limit"], value: "N", "at most N areas"),
        FieldOption(.zoom, ["--zoom"], value: "Z", "the map's Web Mercator zoom (0 to \(Request.maximumZoom))"),
        FieldOption(.previous, ["--previous"], value: "LAT,LON", "the position before: the answer adds the zones entered and left"),
        FieldOption(.lat, ["--near"], value: "LAT,LON", pairedWith: .lon, "rank equal matches by their distance from here"),
        FieldOption(.q, ["--at"], value: "TEXT", "ask from the area or place TEXT names (as search finds it) instead of LAT LON"),
        FieldOption(.kind, ["--kind"], value: "KIND", choices: KindFilter.allCases.map(\.rawValue), "smoking areas, non-smoking zones, or both (default)"),
        FieldOption(.province, ["--province"], value: "NAME", "only this province (시도); short names such as 서울 work"),
        FieldOption(.district, ["--district"], value: "NAME", "only this district (시군구)"),
        FieldOption(.output, ["--output"], value: "MODE", choices: OutputMode.allCases.map(\.rawValue), "whole areas, ids and distances, or only the count"),
        FieldOption(.force, ["--force"], "replace the data even when a source shrank past maxShrink"),
        FieldOption(.since, ["--since"], value: "VERSION", "the data version to count from (health names the current one; default: the one before it)"),
        FieldOption(.cursor, ["--cursor"], value: "CURSOR", "the page after the one that ended with this \"next\""),
    ]

    /// The fields the option's text sets: its field, or for a `LAT,LON` option both of the pair.
    func values(fromText text: String) throws(UsageError) -> [(RequestField, JSONValue)] {
        guard let pairedField else { return [(field, try value(fromText: text))] }
        guard let (first, second) = RequestValue.decimalPair(text) else { throw .invalidValue(name, text) }
        return [(field, .number(first)), (pairedField, .number(second))]
    }

    /// The field's value from the option's text, as the request parser reads it; text that
    /// cannot be the field's value at all is a usage error naming the option.
    func value(fromText text: String) throws(UsageError) -> JSONValue {
        if isFlag { return .bool(true) }
        if field.shape == .number, RequestValue.decimalNumber(text) == nil { throw .invalidValue(name, text) }
        do throws(RequestError) {
            return try field.value(fromText: text)
        } catch {
            throw .wrongArguments(Self.naming(error.message))
        }
    }

    /// A request error's message in the command line's words: a message about a field an
    /// option sets names the option (`k must be …` becomes `-k must be …`).
    static func naming(_ message: String) -> String {
        for option in all where message.hasPrefix(option.field.name + " ") {
            return option.name + message.dropFirst(option.field.name.count)
        }
        return message
    }
}
