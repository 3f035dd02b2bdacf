import AreasCore
import AreasProtocol
import AreasSystem

/// An areasctl command line turned into a request line and how to show the answer.
package struct ControlCommand: Sendable {
    /// How answers are printed: a table for people; the daemon's JSON; GeoJSON; or, for
    /// scripts, tab-separated lines without a header, CSV with one, or one JSON object per
    /// area a line.
    package enum Format: String, Sendable, CaseIterable { case table, json, geojson, tsv, csv, ndjson }

    package var operation: RequestOperation
    package var request: Request
    /// The request line sent to the daemon.
    package var line: [UInt8] { request.line }
    /// `--output` as given; with `--geojson` the daemon is still asked for whole areas, so
    /// every feature has its real position, and `ids` keeps only the id and distance.
    package var output: OutputMode?
    package var format: Format
    /// For `refresh`: print only failures.
    package var quiet: Bool
    package var socketPath: String?
    /// `--url`: ask the daemon's HTTP front door instead of its socket.
    package var url: HTTPQuestion.Address?
    /// How long to wait for the daemon: `--timeout`, else 5 s (600 s for `refresh`, which
    /// waits for a whole refresh).
    package var timeoutSeconds: Double

    /// A usage error when `latitude` cannot be one, with a hint when the pair swapped lies in
    /// Korea: its longitudes (124 to 132) are no latitudes, and people type "x, y" as often as
    /// "lat, lon".
    static func checkOrder(latitude: Double, longitude: Double, verb: String, rest: String = "") throws(UsageError) {
        guard !(-90...90).contains(latitude) else { return }
        if (try? GeoPoint(latitude: longitude, longitude: latitude)).map(GeoBox.korea.contains) == true {
            throw .wrongArguments("\(latitude) is not a latitude: latitude and longitude look swapped (try: areasctl \(verb) \(Self.text(longitude)) \(Self.text(latitude))\(rest))")
        }
        throw .wrongArguments("latitude must be between -90 and 90, got \(Self.text(latitude))")
    }

    static func text(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }

    /// The command that asks `operation` (its entry in `table`; `parse` below builds its
    /// request): its operands, what it does, and the options it reads, which are the ways its
    /// answer can be shown and the field options of its operation's fields that are not operands.
    static func command(for operation: RequestOperation) -> CommandLineTable.Command {
        let descriptor = operation.descriptor
        let fields = FieldOption.all.filter { descriptor.fields.contains($0.field) && !descriptor.operandFields.contains($0.field) }.map(\.name)
        return .init(descriptor.name, descriptor.operands, descriptor.summary, options: (operation.command?.presentation ?? []) + fields)
    }

    package static func parse(_ arguments: [String]) throws(UsageError) -> ControlCommand {
        var list = ArgumentList(arguments)
        let socketPath = try list.value("--socket", "-s")
        let url = try list.value("--url").map { text throws(UsageError) in try HTTPQuestion.address(text) }
        if url != nil && socketPath != nil { throw .wrongArguments("--url and --socket name two daemons: give one") }
        let timeout = try list.value("--timeout", as: { Double($0) })
        if let timeout, !(timeout > 0 && timeout <= 86_400) { throw .invalidValue("--timeout", String(timeout)) }
        let formatName = try list.value("--format")
        let format: Format? = try formatName.map { name throws(UsageError) in
            guard let format = Format(rawValue: name) else { throw .invalidValue("--format", name) }
            return format
        }
        let json = list.flag("--json") || format == .json
        let geojson = list.flag("--geojson") || format == .geojson
        let quiet = list.flag("--quiet", "-q")
        var options: [(option: FieldOption, text: String)] = []
        for option in FieldOption.all {
            if option.isFlag {
                if list.flag(option.option.names) { options.append((option, "true")) }
            } else if let text = try list.value(option.option.names) {
                options.append((option, text))
            }
        }
        let positionals = try list.positionals()
        guard let verb = positionals.first else { throw .wrongArguments("no command given") }
        let operands = Array(positionals.dropFirst())
        // An option the command does not read is a mistake to point out, not to ignore.
        let given = [("--json", json), ("--geojson", geojson), ("--format", format != nil && format != .json), ("--quiet", quiet)]
            .filter(\.1).map(\.0) + options.map(\.option.name)
        if let allowed = Self.options[verb], let stray = given.first(where: { !allowed.contains($0) }) {
            throw .wrongArguments("\(stray) does not apply to \(verb)")
        }
        if json && geojson { throw .wrongArguments("--json and --geojson cannot be combined") }
        if let format, format != .json && format != .geojson && (json || geojson) {
            throw .wrongArguments("--format \(format.rawValue) cannot be combined with --json or --geojson")
        }
        let outputText = options.first { $0.option.field == .output }?.text
        if geojson && outputText == OutputMode.count.rawValue { throw .wrongArguments("--output count has no places to draw: use it without --geojson") }
        guard let operation = RequestOperation(name: verb) else {
            let meant = Suggestion.closest(to: verb, among: Self.table.commands.map(\.name), maximumDistance: 2).map { " (did you mean \($0)?)" } ?? ""
            throw .wrongArguments("unknown command '\(verb)'\(meant)")
        }
        if operation == .refresh && url != nil { throw .wrongArguments("refresh is asked on the socket: the HTTP front door (--url) is read-only") }

        guard let asked = operation.command else { throw .wrongArguments("areasctl cannot ask \(verb)") }
        var values = try asked.operandValues(Operands(verb: verb, texts: operands, fields: operation.descriptor.operandFields,
                                                      named: options.contains { $0.option.field == .q }))
        for (option, text) in options {
            // GeoJSON needs every area's position: whole areas, whatever --output says.
            if option.field == .output && geojson { continue }
            values += try option.values(fromText: text)
        }
        try asked.completing(&values)
        let request: Request
        do throws(RequestError) {
            request = try Request.make(operation, values: values)
        } catch {
            throw .wrongArguments(FieldOption.naming(error.message))
        }
        if let typed = request.question as? any CommandQuestion { try typed.checkTyped() }
        return ControlCommand(
            operation: operation, request: request, output: outputText.flatMap(OutputMode.init(rawValue:)), format: json ? .json : geojson ? .geojson : format ?? .table,
            quiet: quiet, socketPath: socketPath, url: url, timeoutSeconds: timeout ?? (operation == .refresh ? 600 : 5))
    }
}
