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
        let name = operation.name
        let operands = operands(of: operation)
        let summary: String
        switch operation {
        case .near: summary = "the nearest areas, nearest first (-k, default 10)"
        case .radius: summary = "every area within METERS, nearest first"
        case .bbox: summary = "every area inside the box, in id order"
        case .check: summary = "may I smoke here? the zones holding the point and the nearest smoking area"
        case .clusters: summary = "the view's areas grouped as a map at --zoom shows them"
        case .where: summary = "the province, district and town (읍면동) the point lies in, with their codes"
        case .search: summary = "areas and places whose name or address holds every word of TEXT, best match first"
        case .along: summary = "every area along a route, in route order"
        case .get: summary = "one area with every field its source published"
        case .crowd: summary = "each hotspot of the city's people density: its last level, time and age, and the asking"
        case .stats: summary = "totals by kind, source and province, each source's last refresh, memory"
        case .sources: summary = "what each source gave (rows, accepted, rejected, merged, dates) and each district's areas"
        case .health: summary = "exit 0 only when data is loaded, fresh, and every source's last refresh succeeded"
        case .metrics: summary = "the daemon's counters in the Prometheus text format (0.0.4)"
        case .refresh: summary = "fetch every source now and wait for the result, one line per source"
        }
        let fields = FieldOption.all.filter { operation.fields.contains($0.field) && !operands.fields.contains($0.field) }.map(\.name)
        return .init(name, operands.text, summary, options: presentationOptions(of: operation) + fields)
    }

    /// The operands a command takes, as its usage shows them, and the fields they give.
    static func operands(of operation: RequestOperation) -> (text: String, fields: [RequestField]) {
        switch operation {
        case .near, .check, .where: return ("LAT LON", [.lat, .lon])
        case .radius: return ("LAT LON METERS", [.lat, .lon, .meters])
        case .bbox, .clusters: return ("SOUTH WEST NORTH EAST", [.south, .west, .north, .east])
        case .along: return ("LAT,LON LAT,LON ...", [.path])
        case .get: return ("ID", [.id])
        case .search: return ("TEXT", [.q])
        case .crowd, .stats, .sources, .health, .metrics, .refresh: return ("", [])
        }
    }

    /// How a command's answer can be shown: every answer as the daemon's JSON; a list of areas
    /// also as GeoJSON and the other formats; a yes-or-no answer quietly.
    static func presentationOptions(of operation: RequestOperation) -> [String] {
        switch operation.answer {
        case .areas, .route, .area: return ["--json", "--geojson", "--format"]
        case .check, .refresh: return ["--json", "--quiet"]
        case .place: return ["--json"]
        case .search: return ["--json", "--format"]
        case .crowd: return ["--json", "--geojson"]
        case .clusters, .stats, .sources, .health, .metrics: return ["--json"]
        }
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

        var values = try operandValues(operation, operands, named: options.contains { $0.option.field == .q })
        for (option, text) in options {
            // GeoJSON needs every area's position: whole areas, whatever --output says.
            if option.field == .output && geojson { continue }
            values += try option.values(fromText: text)
        }
        // What the command line means when it does not say.
        switch operation {
        case .along where !values.contains(where: { $0.0 == .meters }): values.append((.meters, .number(50)))
        case .refresh: values.append((.wait, .bool(true)))
        case .clusters where !values.contains(where: { $0.0 == .zoom }):
            throw .wrongArguments("clusters takes --zoom Z, the map's zoom (0 to \(Request.maximumZoom))")
        case .near, .radius, .bbox, .check, .clusters, .where, .search, .along, .get, .crowd, .stats, .sources, .health, .metrics: break
        }
        let request: Request
        do throws(RequestError) {
            request = try Request.make(operation, values: values)
        } catch {
            throw .wrongArguments(FieldOption.naming(error.message))
        }
        // The request takes k = 0 (an answer of no areas); a person typing it meant something else.
        if case .near(_, 0, _, _, _, _) = request { throw .wrongArguments("-k 0 asks for no areas: give -k from 1 to \(Request.maximumK)") }
        return ControlCommand(
            operation: operation, request: request, output: outputText.flatMap(OutputMode.init(rawValue:)), format: json ? .json : geojson ? .geojson : format ?? .table,
            quiet: quiet, socketPath: socketPath, url: url, timeoutSeconds: timeout ?? (operation == .refresh ? 600 : 5))
    }

    /// The fields a command's operands give. Values areasctl can explain better than the
    /// request's checks (a latitude and longitude typed the wrong way round, a box's corners out
    /// of order) are usage errors here; the rest go on to the request's own checks.
    /// `named`: the position is given by name (`--at`), so the operands leave out LAT LON.
    static func operandValues(_ operation: RequestOperation, _ operands: [String], named: Bool = false) throws(UsageError) -> [(RequestField, JSONValue)] {
        let verb = operation.name
        let expected = Self.operands(of: operation)
        func numbers(_ names: [String]) throws(UsageError) -> [Double] {
            guard operands.count == names.count else {
                throw .wrongArguments(names.isEmpty ? "\(verb) takes no arguments" : "\(verb) takes \(names.joined(separator: " "))")
            }
            var values: [Double] = []
            for (name, text) in zip(names, operands) {
                guard let value = Double(text), value.isFinite else { throw .invalidValue(name, text) }
                values.append(value)
            }
            return values
        }
        func point(_ v: [Double], rest: String = "") throws(UsageError) -> [(RequestField, JSONValue)] {
            try checkOrder(latitude: v[0], longitude: v[1], verb: verb, rest: rest)
            guard (-180...180).contains(v[1]) else { throw .wrongArguments("longitude must be between -180 and 180, got \(Self.text(v[1]))") }
            return [(.lat, .number(v[0])), (.lon, .number(v[1]))]
        }
        /// SOUTH WEST NORTH EAST, each in range and in order; corners typed as longitude and
        /// latitude are pointed out.
        func box(_ v: [Double]) throws(UsageError) -> [(RequestField, JSONValue)] {
            let swapped = [v[1], v[0], v[3], v[2]]
            if !(-90...90).contains(v[0]) || !(-90...90).contains(v[2]), (try? GeoBox(south: swapped[0], west: swapped[1], north: swapped[2], east: swapped[3])) != nil,
               (-90...90).contains(swapped[0]) && (-90...90).contains(swapped[2]) {
                throw .wrongArguments("\(Self.text(v[0])) is not a latitude: each corner looks like longitude then latitude (try: areasctl \(verb) \(swapped.map(Self.text).joined(separator: " ")))")
            }
            for (name, value, limit) in [("SOUTH", v[0], 90.0), ("WEST", v[1], 180.0), ("NORTH", v[2], 90.0), ("EAST", v[3], 180.0)] where abs(value) > limit {
                throw .wrongArguments("\(name) must be between -\(Int(limit)) and \(Int(limit)), got \(Self.text(value))")
            }
            if v[0] > v[2] { throw .wrongArguments("SOUTH (\(Self.text(v[0]))) is north of NORTH (\(Self.text(v[2]))): give the box as SOUTH WEST NORTH EAST") }
            if v[1] > v[3] { throw .wrongArguments("WEST (\(Self.text(v[1]))) is east of EAST (\(Self.text(v[3]))): give the box as SOUTH WEST NORTH EAST") }
            return zip(expected.fields, v).map { ($0, .number($1)) }
        }
        switch operation {
        case .near where named, .check where named:
            guard operands.isEmpty else { throw .wrongArguments("\(verb) takes LAT LON or --at TEXT, not both") }
            return []
        case .radius where named:
            guard operands.count == 1 else { throw .wrongArguments("radius --at TEXT takes METERS") }
            let v = try numbers(["METERS"])
            guard (0...Request.maximumMeters).contains(v[0]) else {
                throw .wrongArguments("METERS must be from 0 to \(Int(Request.maximumMeters)), got \(Self.text(v[0]))")
            }
            return [(.meters, .number(v[0]))]
        case .near, .check, .where:
            return try point(try numbers(["LAT", "LON"]))
        case .radius:
            let v = try numbers(["LAT", "LON", "METERS"])
            guard (0...Request.maximumMeters).contains(v[2]) else {
                throw .wrongArguments("METERS must be from 0 to \(Int(Request.maximumMeters)), got \(Self.text(v[2]))")
            }
            return try point(v, rest: " " + Self.text(v[2])) + [(.meters, .number(v[2]))]
        case .bbox, .clusters:
            return try box(try numbers(["SOUTH", "WEST", "NORTH", "EAST"]))
        case .along:
            guard !operands.isEmpty else { throw .wrongArguments("along takes LAT,LON points: along 37.55,126.97 37.56,126.98") }
            var path: [JSONValue] = []
            for operand in operands {
                guard let (lat, lon) = RequestValue.decimalPair(operand), lat.isFinite, lon.isFinite else {
                    throw .invalidValue("LAT,LON", operand)
                }
                if !(-90...90).contains(lat), (try? GeoPoint(latitude: lon, longitude: lat)).map(GeoBox.korea.contains) == true {
                    throw .wrongArguments("\(operand): latitude and longitude look swapped (try \(Self.text(lon)),\(Self.text(lat)))")
                }
                guard (try? GeoPoint(latitude: lat, longitude: lon)) != nil else {
                    throw .wrongArguments("\(operand) is not a position: latitude -90 to 90, longitude -180 to 180")
                }
                path.append(.array([.number(lat), .number(lon)]))
            }
            return [(.path, .array(path))]
        case .get:
            guard operands.count == 1 else { throw .wrongArguments("get takes ID") }
            return [(.id, .string(operands[0]))]
        case .search:
            // The words may come as one operand or several (an unquoted 서울역 흡연).
            guard !operands.isEmpty else { throw .wrongArguments("search takes TEXT: search 서울역 흡연") }
            return [(.q, .string(operands.joined(separator: " ")))]
        case .crowd, .stats, .sources, .health, .metrics, .refresh:
            _ = try numbers([])
            return []
        }
    }
}
