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
    /// request): its operands, what it does, the options it reads.
    static func command(for operation: RequestOperation) -> CommandLineTable.Command {
        let name = operation.name
        switch operation {
        case .near: return .init(name, "LAT LON", "the nearest areas, nearest first (-k, default 10)", options: query.filter { $0 != "--limit" } + ["-k", "--max-meters"])
        case .radius: return .init(name, "LAT LON METERS", "every area within METERS, nearest first", options: query)
        case .bbox: return .init(name, "SOUTH WEST NORTH EAST", "every area inside the box, in id order", options: query)
        case .check:
            return .init(name, "LAT LON", "may I smoke here? the zones holding the point and the nearest smoking area",
                         options: ["--json", "--province", "--district", "--previous", "--quiet"])
        case .clusters:
            return .init(name, "SOUTH WEST NORTH EAST", "the view's areas grouped as a map at --zoom shows them",
                         options: ["--json", "--zoom", "--kind", "--province", "--district"])
        case .along: return .init(name, "LAT,LON LAT,LON ...", "every area along a route, in route order", options: query + ["--meters"])
        case .get: return .init(name, "ID", "one area with every field its source published", options: ["--json", "--geojson", "--format"])
        case .stats: return .init(name, "totals by kind, source and province, each source's last refresh, memory", options: ["--json"])
        case .sources: return .init(name, "what each source gave (rows, accepted, rejected, merged, dates) and each district's areas", options: ["--json"])
        case .health: return .init(name, "exit 0 only when data is loaded, fresh, and every source's last refresh succeeded", options: ["--json"])
        case .metrics: return .init(name, "the daemon's counters in the Prometheus text format (0.0.4)", options: ["--json"])
        case .refresh: return .init(name, "fetch every source now and wait for the result, one line per source", options: ["--json", "--force", "--quiet"])
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
        let force = list.flag("--force")
        let kind = try list.value("--kind")
        let output = try list.value("--output")
        let limit = try list.value("--limit", as: { Int($0) })
        let k = try list.value("-k", as: { Int($0) })
        let maxMeters = try list.value("--max-meters", as: { Double($0) })
        let corridor = try list.value("--meters", as: { Double($0) })
        let zoom = try list.value("--zoom", as: { Int($0) })
        let previousText = try list.value("--previous")
        let province = try list.value("--province")
        let district = try list.value("--district")
        let positionals = try list.positionals()
        guard let verb = positionals.first else { throw .wrongArguments("no command given") }
        let operands = Array(positionals.dropFirst())
        // An option the command does not read is a mistake to point out, not to ignore.
        let given: [(String, Bool)] = [
            ("--json", json), ("--geojson", geojson), ("--format", format != nil && format != .json), ("--quiet", quiet), ("--force", force), ("--kind", kind != nil),
            ("--output", output != nil), ("--limit", limit != nil), ("-k", k != nil), ("--max-meters", maxMeters != nil),
            ("--meters", corridor != nil), ("--province", province != nil), ("--district", district != nil),
            ("--zoom", zoom != nil), ("--previous", previousText != nil),
        ]
        if let allowed = Self.options[verb], let stray = given.first(where: { $0.1 && !allowed.contains($0.0) }) {
            throw .wrongArguments("\(stray.0) does not apply to \(verb)")
        }
        if let kind, KindFilter(rawValue: kind) == nil { throw .invalidValue("--kind", kind) }
        if let output, OutputMode(rawValue: output) == nil { throw .invalidValue("--output", output) }
        if json && geojson { throw .wrongArguments("--json and --geojson cannot be combined") }
        if let format, format != .json && format != .geojson && (json || geojson) {
            throw .wrongArguments("--format \(format.rawValue) cannot be combined with --json or --geojson")
        }
        // Ranges checked here, so an error names the flag the user typed, with exit 2 like any
        // other usage error.
        if let k, !(1...Request.maximumK).contains(k) { throw .wrongArguments("-k must be from 1 to \(Request.maximumK), got \(k)") }
        if let limit, limit < 0 { throw .wrongArguments("--limit must be 0 or more, got \(limit)") }
        if let maxMeters, !(maxMeters >= 0 && maxMeters.isFinite) { throw .wrongArguments("--max-meters must be a distance of 0 or more meters, got \(maxMeters)") }
        if let corridor, !(0...Request.maximumCorridor).contains(corridor) {
            throw .wrongArguments("--meters must be from 0 to \(Int(Request.maximumCorridor)), got \(corridor)")
        }
        if let zoom, !(0...Request.maximumZoom).contains(zoom) { throw .wrongArguments("--zoom must be from 0 to \(Request.maximumZoom), got \(zoom)") }
        let previous: GeoPoint? = try previousText.map { text throws(UsageError) in
            guard let (lat, lon) = RequestValue.decimalPair(text), let point = try? GeoPoint(latitude: lat, longitude: lon) else {
                throw .invalidValue("--previous", text)
            }
            return point
        }
        if geojson && output == OutputMode.count.rawValue { throw .wrongArguments("--output count has no places to draw: use it without --geojson") }

        func numbers(_ names: [String]) throws(UsageError) -> [Double] {
            guard operands.count == names.count else {
                throw .wrongArguments("\(verb) takes \(names.joined(separator: " "))")
            }
            var values: [Double] = []
            for (name, text) in zip(names, operands) {
                guard let value = Double(text), value.isFinite else { throw .invalidValue(name, text) }
                values.append(value)
            }
            return values
        }
        func none() throws(UsageError) {
            guard operands.isEmpty else { throw .wrongArguments("\(verb) takes no arguments") }
        }
        // Values the daemon checks (a longitude, a box's corners) go to it as given, so its
        // message names the field; areasctl checks only what it can say better.
        func point(_ v: [Double], rest: String = "") throws(UsageError) -> GeoPoint {
            try checkOrder(latitude: v[0], longitude: v[1], verb: verb, rest: rest)
            guard (-180...180).contains(v[1]) else { throw .wrongArguments("longitude must be between -180 and 180, got \(Self.text(v[1]))") }
            return GeoPoint(uncheckedLatitude: v[0], longitude: v[1])
        }
        /// SOUTH WEST NORTH EAST, each in range and in order; corners typed as longitude and
        /// latitude are pointed out.
        func box(_ v: [Double]) throws(UsageError) -> GeoBox {
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
            return GeoBox(uncheckedSouth: v[0], west: v[1], north: v[2], east: v[3])
        }
        guard let operation = RequestOperation(name: verb) else {
            let meant = Suggestion.closest(to: verb, among: Self.table.commands.map(\.name), maximumDistance: 2).map { " (did you mean \($0)?)" } ?? ""
            throw .wrongArguments("unknown command '\(verb)'\(meant)")
        }
        let kindFilter = kind.flatMap(KindFilter.init(rawValue:)) ?? .all
        let region = Region(province: province, district: district)
        // GeoJSON needs every area's position: whole areas, whatever --output says.
        let outputMode = geojson ? .full : output.flatMap(OutputMode.init(rawValue:)) ?? .full
        let request: Request
        switch operation {
        case .near:
            let v = try numbers(["LAT", "LON"])
            request = .near(point: try point(v), k: k ?? 10, maxMeters: maxMeters, kind: kindFilter, region: region, output: outputMode)
        case .radius:
            let v = try numbers(["LAT", "LON", "METERS"])
            guard (0...Request.maximumMeters).contains(v[2]) else {
                throw .wrongArguments("METERS must be from 0 to \(Int(Request.maximumMeters)), got \(Self.text(v[2]))")
            }
            request = .radius(point: try point(v, rest: " " + Self.text(v[2])), meters: v[2], kind: kindFilter, region: region, limit: limit, output: outputMode)
        case .bbox:
            let v = try numbers(["SOUTH", "WEST", "NORTH", "EAST"])
            request = .bbox(box: try box(v), kind: kindFilter, region: region, limit: limit, output: outputMode)
        case .check:
            request = .check(point: try point(try numbers(["LAT", "LON"])), region: region, previous: previous)
        case .clusters:
            let v = try numbers(["SOUTH", "WEST", "NORTH", "EAST"])
            guard let zoom else { throw .wrongArguments("clusters takes --zoom Z, the map's zoom (0 to \(Request.maximumZoom))") }
            request = .clusters(box: try box(v), zoom: zoom, kind: kindFilter, region: region)
        case .along:
            guard !operands.isEmpty else { throw .wrongArguments("along takes LAT,LON points: along 37.55,126.97 37.56,126.98") }
            var path: [GeoPoint] = []
            for operand in operands {
                guard let (lat, lon) = RequestValue.decimalPair(operand), lat.isFinite, lon.isFinite else {
                    throw .invalidValue("LAT,LON", operand)
                }
                if !(-90...90).contains(lat), (try? GeoPoint(latitude: lon, longitude: lat)).map(GeoBox.korea.contains) == true {
                    throw .wrongArguments("\(operand): latitude and longitude look swapped (try \(Self.text(lon)),\(Self.text(lat)))")
                }
                guard let point = try? GeoPoint(latitude: lat, longitude: lon) else {
                    throw .wrongArguments("\(operand) is not a position: latitude -90 to 90, longitude -180 to 180")
                }
                path.append(point)
            }
            request = .along(path: path, meters: corridor ?? 50, kind: kindFilter, region: region, limit: limit, output: outputMode)
        case .get:
            guard operands.count == 1 else { throw .wrongArguments("get takes ID") }
            request = .get(id: operands[0])
        case .stats:
            try none()
            request = .stats
        case .sources:
            try none()
            request = .sources
        case .health:
            try none()
            request = .health
        case .metrics:
            try none()
            request = .metrics
        case .refresh:
            try none()
            guard url == nil else { throw .wrongArguments("refresh is asked on the socket: the HTTP front door (--url) is read-only") }
            request = .refresh(wait: true, force: force)
        }
        return ControlCommand(
            operation: operation, request: request, output: output.flatMap(OutputMode.init(rawValue:)), format: json ? .json : geojson ? .geojson : format ?? .table,
            quiet: quiet, socketPath: socketPath, url: url, timeoutSeconds: timeout ?? (operation == .refresh ? 600 : 5))
    }
}
