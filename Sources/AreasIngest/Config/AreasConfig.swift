import AreasCore
import AreasProtocol
import AreasSystem
import Foundation

/// The daemon's configuration: where it listens, where it keeps its snapshot, which sources it reads.
package struct AreasConfig: Sendable, Equatable {
    /// The file it was read from.
    package var path: String
    package var socket: String?
    /// Octal permission bits of the socket file.
    package var socketMode: UInt32
    package var socketGroup: String?
    package var snapshot: String?
    /// Records outside these bounds are rejected (South Korea by default).
    package var bounds: GeoBox
    package var refreshIntervalSeconds: Double
    package var maxResults: Int
    package var maxConnections: Int
    package var idleTimeoutSeconds: Double
    /// A request line must be complete this long after its first byte.
    package var requestTimeoutSeconds: Double = 10
    /// Answers waiting for slow readers, all connections together.
    package var maxOutputBytes: Int = 256 << 20
    package var adminUids: [UInt32]
    package var logLevel: String?
    /// Footprints given to non-smoking zones for `check`: `footprint`'s limits and each
    /// source's zone columns.
    package var footprint: FootprintPolicy = .standard
    /// How a refresh draws zones' footprints; nil for a follower, which serves its leader's
    /// footprints as the leader drew them (it has no sources to read columns of).
    package var footprintPolicy: FootprintPolicy? { follow == nil ? footprint : nil }
    /// `regions`: the administrative map's folder, and how far outside its stated district a
    /// record may lie before it is flagged.
    package var regions = RegionsConfig()
    /// `merge.meters`: records of different sources this close that name one place are one area.
    package var mergeMeters: Double = MergePolicy.defaultMeters
    /// How a refresh merges sources, in the order they are configured; nil for a follower,
    /// which serves its leader's areas as the leader merged them.
    package var merge: MergePolicy? {
        follow == nil ? MergePolicy(meters: mergeMeters, priority: (overrides == nil ? [] : [AreaOverride.addedSource]) + sources.map(\.name)) : nil
    }
    /// The fraction a refresh may shrink the data by without being forced (each source has
    /// its own, this by default; a follower applies it to its leader's snapshots).
    package var maxShrink = 0.5
    /// How long a refresh waits for its sources: past it, the ones still running fail alone and
    /// the others are taken and served.
    package var refreshTimeoutSeconds: Double = 600
    /// With no snapshot, READY is told systemd when the first refresh ends or after this long,
    /// whichever comes first (with a snapshot, at once).
    package var startReadySeconds: Double = 10
    /// The operator's corrections file, applied at every refresh.
    package var overrides: String?

    /// The sources a refresh keeps: the configured ones and, with an overrides file, the
    /// areas its `add` lines add.
    package var catalogSourceNames: [String] {
        (overrides == nil ? [] : [AreaOverride.addedSource]) + sources.map(\.name)
    }
    /// Province names people use, mapped to upstream's (`서울` to `서울특별시`); the standard
    /// short names are always known.
    package var provinceAliases: [String: String] = Region.standardAliases
    /// The service that places rows published without a usable position.
    package var geocoder: GeocoderConfig?
    /// The city's real-time people density around its hotspots.
    package var crowd: CrowdConfig?
    /// Where `dataset` sources find their newest upload (top-level `odcloud`).
    package var odcloud = OdcloudConfig()
    /// An operator's file of positions that win over the geocoder's.
    package var positions: String?
    /// The HTTP front door, when configured.
    package var http: HTTPConfig?
    /// Serve a leader's snapshot instead of fetching sources.
    package var follow: FollowConfig?
    package var sources: [SourceConfig]

    /// Every value given; the loader (`load(path:)`) is where the documented defaults are applied.
    package init(path: String, socket: String?, socketMode: UInt32, socketGroup: String?, snapshot: String?, bounds: GeoBox, refreshIntervalSeconds: Double, maxResults: Int, maxConnections: Int, idleTimeoutSeconds: Double, adminUids: [UInt32], logLevel: String?, sources: [SourceConfig]) {
        self.path = path
        self.socket = socket
        self.socketMode = socketMode
        self.socketGroup = socketGroup
        self.snapshot = snapshot
        self.bounds = bounds
        self.refreshIntervalSeconds = refreshIntervalSeconds
        self.maxResults = maxResults
        self.maxConnections = maxConnections
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.adminUids = adminUids
        self.logLevel = logLevel
        self.sources = sources
    }

    /// Reads and validates a config file; relative paths inside it are relative to its folder.
    package static func load(path: String) throws(ConfigError) -> AreasConfig {
        // Read with the system's own words for what went wrong ("No such file or directory",
        // "Permission denied"), and never block on a FIFO or read a huge file whole.
        let bytes: [UInt8]
        do {
            guard let read = try WholeFile.read(path, limit: 16 << 20) else {
                throw ConfigError(path: path, problem: "cannot read the file: No such file or directory")
            }
            bytes = read
        } catch let failure as WholeFile.ReadFailure {
            throw ConfigError(path: path, problem: "cannot read the file: \(failure)")
        } catch let error as ConfigError {
            throw error
        } catch {
            throw ConfigError(path: path, problem: "cannot read the file: \(error)")
        }
        return try parse(Data(bytes), path: path)
    }

    /// Validates config JSON; `path` names it in errors and anchors relative paths. Every
    /// unknown key and every source's problem is said (the first thrown, the rest in its
    /// `others`), so one run of `--check-config` shows them all.
    package static func parse(_ data: Data, path: String) throws(ConfigError) -> AreasConfig {
        // Syntax first, by this package's own parser, which knows where it stopped.
        do throws(JSONParser.Failure) { _ = try JSONParser.parse([UInt8](data)) } catch {
            let (line, column) = Self.lineAndColumn(of: error.offset, in: data)
            throw ConfigError(path: path, problem: "invalid JSON at line \(line), column \(column): \(error.reason)")
        }
        let raw: RawConfig
        do {
            raw = try JSONDecoder().decode(RawConfig.self, from: data)
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            throw ConfigError(path: path, problem: "invalid JSON: \(Self.underlying(context))")
        } catch let error as DecodingError {
            throw Self.describe(error, path: path)
        } catch {
            throw ConfigError(path: path, problem: "invalid JSON: \(error)")
        }
        var problems = unknownKeys(data, path: path)
        do throws(ConfigError) {
            let config = try build(raw, path: path, problems: &problems)
            if let first = problems.first { throw first }
            return config
        } catch {
            if !problems.contains(error) { problems.append(error) }
            var first = problems[0]
            first.others = Array(problems.dropFirst())
            throw first
        }
    }

    /// Line and column (from 1, in characters) of byte `offset` of `data`.
    static func lineAndColumn(of offset: Int, in data: Data) -> (line: Int, column: Int) {
        let before = data.prefix(Swift.min(offset, data.count))
        let line = before.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? before.startIndex
        return (line, String(decoding: data[lineStart..<before.endIndex], as: UTF8.self).count + 1)
    }

    /// The config from its decoded shape; a source's problem is added to `problems` and the
    /// next source read, any other thrown.
    private static func build(_ raw: RawConfig, path: String, problems: inout [ConfigError]) throws(ConfigError) -> AreasConfig {
        let base = (path as NSString).deletingLastPathComponent
        // `~/` is the home folder of whoever runs it: a per-user place for a shared config
        // (the bundled samples), where a fixed /tmp path could be another user's.
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func resolve(_ p: String) -> String {
            if p.hasPrefix("~/") { return (home as NSString).appendingPathComponent(String(p.dropFirst(2))) }
            return p.hasPrefix("/") || base.isEmpty ? p : (base as NSString).appendingPathComponent(p)
        }

        var bounds = GeoBox.korea
        if let b = raw.bounds {
            do throws(GeoError) {
                bounds = try GeoBox(south: b.south, west: b.west, north: b.north, east: b.east)
            } catch {
                throw ConfigError(path: path, key: "bounds", problem: error.description)
            }
        }
        let check = ValueCheck(path: path)
        let mode = try check.fileMode(raw.socketMode, "socketMode") ?? 0o660
        if let level = raw.logLevel, !["error", "warning", "info", "debug"].contains(level) {
            throw ConfigError(path: path, key: "logLevel", problem: "'\(level)' is not one of error, warning, info, debug")
        }
        let maxShrink = raw.maxShrink ?? 0.5
        guard (0...1).contains(maxShrink) else {
            throw ConfigError(path: path, key: "maxShrink", problem: "must be between 0 and 1, got \(maxShrink)")
        }

        let follow = try raw.follow.map { f throws(ConfigError) in try parseFollow(f, path: path, resolve: resolve) }
        if follow != nil, let listed = raw.sources, !listed.isEmpty {
            throw ConfigError(path: path, key: "sources", problem: "a follower fetches no source: remove \"sources\", or remove \"follow\" to fetch them here")
        }
        guard let rawSources = raw.sources ?? (follow != nil ? [] : nil) else { throw ConfigError(path: path, key: "sources", problem: "missing: list at least one source") }
        var sources: [SourceConfig] = []
        for (i, rawSource) in rawSources.enumerated() {
            let source: SourceConfig
            do throws(ConfigError) {
                source = try parseSource(rawSource, key: "sources[\(i)]", path: path, defaultShrink: maxShrink, resolve: resolve)
            } catch {
                problems.append(error)
                continue
            }
            guard !sources.contains(where: { $0.name == source.name }) else {
                problems.append(ConfigError(path: path, key: "sources[\(i)].name", problem: "duplicate source name '\(source.name)'"))
                continue
            }
            sources.append(source)
        }
        guard !sources.isEmpty || follow != nil || !problems.isEmpty else { throw ConfigError(path: path, key: "sources", problem: "empty: list at least one source") }

        var footprint = FootprintPolicy.standard
        if let f = raw.footprint {
            footprint.minimumMeters = f.minMeters ?? footprint.minimumMeters
            footprint.maximumMeters = f.maxMeters ?? footprint.maximumMeters
            footprint.sizeField = f.sizeField ?? footprint.sizeField
            guard footprint.minimumMeters.isFinite, footprint.minimumMeters >= 0, footprint.maximumMeters.isFinite,
                  footprint.maximumMeters >= footprint.minimumMeters, footprint.maximumMeters <= 100_000 else {
                throw ConfigError(path: path, key: "footprint", problem: "minMeters and maxMeters must satisfy 0 <= minMeters <= maxMeters <= 100000")
            }
        }
        var aliases = Region.standardAliases
        for (alias, province) in raw.provinceAliases ?? [:] { aliases[alias] = province }

        var config = AreasConfig(
            path: path,
            socket: raw.socket.map(resolve),
            socketMode: mode,
            socketGroup: raw.socketGroup,
            snapshot: raw.snapshot.map(resolve),
            bounds: bounds,
            refreshIntervalSeconds: try check.number(raw.refreshIntervalSeconds, "refreshIntervalSeconds", default: 86_400, minimum: 1, maximum: 1e9),
            maxResults: try check.count(raw.maxResults, "maxResults", default: 10_000, maximum: 1_000_000),
            maxConnections: try check.count(raw.maxConnections, "maxConnections", default: 1_024, maximum: 1_000_000),
            idleTimeoutSeconds: try check.number(raw.idleTimeoutSeconds, "idleTimeoutSeconds", default: 300, minimum: 0.1, maximum: 86_400),
            adminUids: raw.adminUids ?? [],
            logLevel: raw.logLevel,
            sources: sources)
        footprint.columns = Dictionary(uniqueKeysWithValues: sources.map { ($0.name, $0.fields.zoneColumns($0.format)) })
        config.footprint = footprint
        config.regions.folder = raw.regions?.folder.map(resolve) ?? RegionsConfig.defaultFolder
        config.regions.toleranceMeters = try check.number(raw.regions?.toleranceMeters, "regions.toleranceMeters", default: 100, minimum: 0, maximum: 100_000)
        config.mergeMeters = try check.number(raw.merge?.meters, "merge.meters", default: MergePolicy.defaultMeters, minimum: 0, maximum: 1_000)
        config.provinceAliases = aliases
        config.requestTimeoutSeconds = try check.number(raw.requestTimeoutSeconds, "requestTimeoutSeconds", default: 10, minimum: 0.1, maximum: 3_600)
        config.maxOutputBytes = try check.count(raw.maxOutputBytes, "maxOutputBytes", default: 256 << 20, minimum: 1 << 20, maximum: 1 << 40)
        config.geocoder = try raw.geocoder.map { g throws(ConfigError) in try parseGeocoder(g, path: path, resolve: resolve) }
        config.crowd = try raw.crowd.map { c throws(ConfigError) in try parseCrowd(c, path: path, resolve: resolve) }
        if let odcloud = raw.odcloud { config.odcloud = try parseOdcloud(odcloud, path: path) }
        config.positions = raw.positions.map(resolve)
        config.overrides = raw.overrides.map(resolve)
        config.maxShrink = maxShrink
        config.refreshTimeoutSeconds = try check.number(raw.refreshTimeoutSeconds, "refreshTimeoutSeconds", default: 600, minimum: 1, maximum: 86_400)
        config.startReadySeconds = try check.number(raw.startReadySeconds, "startReadySeconds", default: 10, minimum: 0, maximum: 3_600)
        if config.overrides != nil, let clash = sources.firstIndex(where: { $0.name == AreaOverride.addedSource }) {
            throw ConfigError(path: path, key: "sources[\(clash)].name", problem: "'\(AreaOverride.addedSource)' names the areas the overrides file adds; choose another name")
        }
        config.follow = follow
        config.http = try raw.http.map { h throws(ConfigError) in try parseHTTP(h, path: path, resolve: resolve) }
        // Rows to place need someone to place them: a geocoder to ask, or the operator's
        // positions file (the offline way).
        if config.geocoder == nil, config.positions == nil, let i = sources.firstIndex(where: { $0.geocode != nil }) {
            throw ConfigError(path: path, key: "sources[\(i)].geocode",
                              problem: "needs a top-level \"geocoder\" to ask, or a \"positions\" file that places its rows (areasd --discover FILE --positions-template writes one to fill in)")
        }
        return config
    }

    /// The keys the file may hold: the raw shapes' property names, so the two cannot drift apart.
    static let knownKeys = propertyNames(of: RawConfig())
    static let knownSourceKeys = propertyNames(of: RawSource())
    static let knownFieldKeys = propertyNames(of: RawFields())
    static let knownGeocodeKeys = propertyNames(of: RawGeocode())
    static let knownGeocoderKeys = propertyNames(of: RawGeocoder())
    static let knownCrowdKeys = propertyNames(of: RawCrowd())
    static let knownHTTPKeys = propertyNames(of: RawHTTP())
    static let knownFollowKeys = propertyNames(of: RawFollow())
    static let knownMergeKeys = propertyNames(of: RawMerge())
    static let knownRegionsKeys = propertyNames(of: RawRegions())
    static let knownOdcloudKeys = propertyNames(of: RawOdcloud())

    private static func propertyNames(of value: Any) -> Set<String> {
        Set(Mirror(reflecting: value).children.compactMap(\.label))
    }

    /// Every key the file has that no config has: a misspelt key would otherwise be ignored in
    /// silence and its default used.
    private static func unknownKeys(_ data: Data, path: String) -> [ConfigError] {
        guard case .object(let top)? = try? JSONParser.parse([UInt8](data)) else { return [] }
        var found: [ConfigError] = []
        func check(_ members: [(String, JSONValue)], _ known: Set<String>, _ prefix: String) {
            for (key, _) in members where !known.contains(key) {
                let suggestion = Suggestion.closest(to: key, among: known.sorted()).map { " (did you mean \($0)?)" } ?? ""
                found.append(ConfigError(path: path, key: prefix + key, problem: "unknown key" + suggestion))
            }
        }
        check(top, knownKeys, "")
        if case .object(let geocoder)? = top.last(where: { $0.0 == "geocoder" })?.1 {
            check(geocoder, knownGeocoderKeys, "geocoder.")
        }
        if case .object(let crowd)? = top.last(where: { $0.0 == "crowd" })?.1 {
            check(crowd, knownCrowdKeys, "crowd.")
        }
        if case .object(let http)? = top.last(where: { $0.0 == "http" })?.1 {
            check(http, knownHTTPKeys, "http.")
        }
        if case .object(let follow)? = top.last(where: { $0.0 == "follow" })?.1 {
            check(follow, knownFollowKeys, "follow.")
        }
        if case .object(let merge)? = top.last(where: { $0.0 == "merge" })?.1 {
            check(merge, knownMergeKeys, "merge.")
        }
        if case .object(let regions)? = top.last(where: { $0.0 == "regions" })?.1 {
            check(regions, knownRegionsKeys, "regions.")
        }
        if case .object(let odcloud)? = top.last(where: { $0.0 == "odcloud" })?.1 {
            check(odcloud, knownOdcloudKeys, "odcloud.")
        }
        guard case .array(let sources)? = top.last(where: { $0.0 == "sources" })?.1 else { return found }
        for (i, source) in sources.enumerated() {
            guard case .object(let members) = source else { continue }
            check(members, knownSourceKeys, "sources[\(i)].")
            if case .object(let fields)? = members.last(where: { $0.0 == "fields" })?.1 {
                check(fields, knownFieldKeys, "sources[\(i)].fields.")
            }
            if case .object(let geocode)? = members.last(where: { $0.0 == "geocode" })?.1 {
                check(geocode, knownGeocodeKeys, "sources[\(i)].geocode.")
            }
        }
        return found
    }

    private static func underlying(_ context: DecodingError.Context) -> String {
        if let inner = context.underlyingError as NSError? {
            return inner.userInfo[NSDebugDescriptionErrorKey] as? String ?? inner.localizedDescription
        }
        return context.debugDescription
    }

    private static func describe(_ error: DecodingError, path: String) -> ConfigError {
        func key(_ codingPath: [any CodingKey]) -> String? {
            var text = ""
            for k in codingPath {
                if let i = k.intValue { text += "[\(i)]" } else { text += (text.isEmpty ? "" : ".") + k.stringValue }
            }
            return text.isEmpty ? nil : text
        }
        switch error {
        case .typeMismatch(let type, let context):
            return ConfigError(path: path, key: key(context.codingPath), problem: "expected \(Self.typeName(type))")
        case .valueNotFound(let type, let context):
            return ConfigError(path: path, key: key(context.codingPath), problem: "expected \(Self.typeName(type)), found null")
        case .keyNotFound(let k, let context):
            return ConfigError(path: path, key: key(context.codingPath + [k]), problem: "missing")
        case .dataCorrupted(let context):
            return ConfigError(path: path, key: key(context.codingPath), problem: Self.underlying(context))
        @unknown default:
            return ConfigError(path: path, problem: "\(error)")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is UInt32.Type: return "a whole number"
        case is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        default: return "\(type)".hasPrefix("Array") ? "a list" : "an object"
        }
    }
}

extension AreasConfig {
    /// Whether `other` makes its data from the same inputs (sources, bounds, geocoder, the
    /// positions and overrides files, merging, footprints, the shrink guard, the leader): if so,
    /// a reload that changed only limits or the log level needs no refresh, and spends none of
    /// the sources' daily quota.
    package func makesTheSameData(as other: AreasConfig) -> Bool {
        sources == other.sources && bounds == other.bounds && geocoder == other.geocoder && positions == other.positions
            && overrides == other.overrides && regions == other.regions && mergeMeters == other.mergeMeters && footprint == other.footprint
            && maxShrink == other.maxShrink && follow == other.follow
    }

    /// The local files the data is made from: file sources, the positions and overrides files,
    /// recorded geocoder answers. One edited since the last refresh is a reason to refresh.
    package var localDataFiles: [String] {
        var files: [String] = sources.compactMap { if case .file(let path) = $0.location { return path } else { return nil } }
        files += [positions, overrides, geocoder?.recordedAnswers].compactMap { $0 }
        if case .file(let path)? = follow?.leader { files.append(path) }
        return files
    }
}
