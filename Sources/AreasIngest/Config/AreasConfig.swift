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
    package var requestTimeoutSeconds = ConfigKeys.requestTimeoutSeconds.defaultNumber
    /// Answers waiting for slow readers, all connections together.
    package var maxOutputBytes = ConfigKeys.maxOutputBytes.defaultCount
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
    package var mergeMeters = ConfigKeys.Merge.meters.defaultNumber
    /// How a refresh merges sources, in the order they are configured; nil for a follower,
    /// which serves its leader's areas as the leader merged them.
    package var merge: MergePolicy? {
        follow == nil ? MergePolicy(meters: mergeMeters, priority: (overrides == nil ? [] : [AreaOverride.addedSource]) + sources.map(\.name)) : nil
    }
    /// The fraction a refresh may shrink the data by without being forced (each source has
    /// its own, this by default; a follower applies it to its leader's snapshots).
    package var maxShrink = ConfigKeys.maxShrink.defaultNumber
    /// How long a refresh waits for its sources: past it, the ones still running fail alone and
    /// the others are taken and served.
    package var refreshTimeoutSeconds = ConfigKeys.refreshTimeoutSeconds.defaultNumber
    /// With no snapshot, READY is told systemd when the first refresh ends or after this long,
    /// whichever comes first (with a snapshot, at once).
    package var startReadySeconds = ConfigKeys.startReadySeconds.defaultNumber
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
        // By this package's own parser, which knows where it stopped.
        let json: JSONValue
        do throws(JSONParser.Failure) { json = try JSONParser.parse([UInt8](data)) } catch {
            let (line, column) = Self.lineAndColumn(of: error.offset, in: data)
            throw ConfigError(path: path, problem: "invalid JSON at line \(line), column \(column): \(error.reason)")
        }
        let top = try ConfigObject(json, section: ConfigKeys.section, key: nil, path: path, resolvePath: Self.resolver(relativeTo: path))
        var problems = top.unknownKeysWithin
        do throws(ConfigError) {
            let config = try build(top, problems: &problems)
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

    /// Paths in a config file are relative to its folder; `~/` is the home folder of whoever
    /// runs it (a per-user place for a shared config, where a fixed /tmp path could be another user's).
    static func resolver(relativeTo path: String) -> (String) -> String {
        let base = (path as NSString).deletingLastPathComponent
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return { p in
            if p.hasPrefix("~/") { return (home as NSString).appendingPathComponent(String(p.dropFirst(2))) }
            return p.hasPrefix("/") || base.isEmpty ? p : (base as NSString).appendingPathComponent(p)
        }
    }

    /// The config from the file's top level; a source's problem is added to `problems` and the
    /// next source read, any other thrown.
    private static func build(_ top: ConfigObject, problems: inout [ConfigError]) throws(ConfigError) -> AreasConfig {
        typealias Key = ConfigKeys
        let path = top.path
        var bounds = GeoBox.korea
        if let b = try top.object(Key.bounds) {
            func edge(_ key: ConfigKey) throws(ConfigError) -> Double {
                guard let value = try b.optionalNumber(key) else { throw b.problem(key.name, "missing") }
                return value
            }
            let (south, west, north, east) = (try edge(Key.Bounds.south), try edge(Key.Bounds.west), try edge(Key.Bounds.north), try edge(Key.Bounds.east))
            do throws(GeoError) {
                bounds = try GeoBox(south: south, west: west, north: north, east: east)
            } catch {
                throw ConfigError(path: path, key: "bounds", problem: error.description)
            }
        }
        let maxShrink = try top.number(Key.maxShrink)
        let follow = try top.object(Key.follow).map { f throws(ConfigError) in try parseFollow(f) }
        let listed = try top.objects(Key.sources)
        if follow != nil, let listed, !listed.isEmpty {
            throw top.problem("sources", "a follower fetches no source: remove \"sources\", or remove \"follow\" to fetch them here")
        }
        guard let rawSources = listed ?? (follow != nil ? [] : nil) else { throw top.problem("sources", "missing: list at least one source") }
        var sources: [SourceConfig] = []
        for (i, entry) in rawSources.enumerated() {
            let source: SourceConfig
            do throws(ConfigError) {
                source = try parseSource(entry, defaultShrink: maxShrink)
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
        guard !sources.isEmpty || follow != nil || !problems.isEmpty else { throw top.problem("sources", "empty: list at least one source") }

        var footprint = FootprintPolicy.standard
        if let f = try top.object(Key.footprint) {
            footprint.minimumMeters = try f.number(Key.Footprint.minMeters)
            footprint.maximumMeters = try f.number(Key.Footprint.maxMeters)
            footprint.sizeField = try f.string(Key.Footprint.sizeField) ?? footprint.sizeField
            guard footprint.maximumMeters >= footprint.minimumMeters else {
                throw top.problem("footprint", "minMeters and maxMeters must satisfy 0 <= minMeters <= maxMeters <= 100000")
            }
        }
        var aliases = Region.standardAliases
        for (alias, province) in try top.pairs(Key.provinceAliases) ?? [] { aliases[alias] = province }

        var config = AreasConfig(
            path: path,
            socket: try top.path(Key.socket),
            socketMode: try top.mode(Key.socketMode) ?? 0o660,
            socketGroup: try top.string(Key.socketGroup),
            snapshot: try top.path(Key.snapshot),
            bounds: bounds,
            refreshIntervalSeconds: try top.number(Key.refreshIntervalSeconds),
            maxResults: try top.count(Key.maxResults),
            maxConnections: try top.count(Key.maxConnections),
            idleTimeoutSeconds: try top.number(Key.idleTimeoutSeconds),
            adminUids: (try top.counts(Key.adminUids) ?? []).map { UInt32($0) },
            logLevel: try top.given(Key.logLevel) == nil ? nil : top.choice(Key.logLevel),
            sources: sources)
        footprint.columns = Dictionary(uniqueKeysWithValues: sources.map { ($0.name, $0.fields.zoneColumns($0.format)) })
        config.footprint = footprint
        let regions = try top.object(Key.regions)
        config.regions.folder = try regions?.path(Key.Regions.folder) ?? RegionsConfig.defaultFolder
        config.regions.toleranceMeters = try regions?.number(Key.Regions.toleranceMeters) ?? Key.Regions.toleranceMeters.defaultNumber
        config.mergeMeters = try top.object(Key.merge)?.number(Key.Merge.meters) ?? Key.Merge.meters.defaultNumber
        config.provinceAliases = aliases
        config.requestTimeoutSeconds = try top.number(Key.requestTimeoutSeconds)
        config.maxOutputBytes = try top.count(Key.maxOutputBytes)
        config.geocoder = try top.object(Key.geocoder).map { g throws(ConfigError) in try parseGeocoder(g) }
        config.crowd = try top.object(Key.crowd).map { c throws(ConfigError) in try parseCrowd(c) }
        if let odcloud = try top.object(Key.odcloud) { config.odcloud = try parseOdcloud(odcloud) }
        config.positions = try top.path(Key.positions)
        config.overrides = try top.path(Key.overrides)
        config.maxShrink = maxShrink
        config.refreshTimeoutSeconds = try top.number(Key.refreshTimeoutSeconds)
        config.startReadySeconds = try top.number(Key.startReadySeconds)
        if config.overrides != nil, let clash = sources.firstIndex(where: { $0.name == AreaOverride.addedSource }) {
            throw ConfigError(path: path, key: "sources[\(clash)].name", problem: "'\(AreaOverride.addedSource)' names the areas the overrides file adds; choose another name")
        }
        config.follow = follow
        config.http = try top.object(Key.http).map { h throws(ConfigError) in try parseHTTP(h) }
        // Rows to place need someone to place them: a geocoder to ask, or the operator's
        // positions file (the offline way).
        if config.geocoder == nil, config.positions == nil, let i = sources.firstIndex(where: { $0.geocode != nil }) {
            throw ConfigError(path: path, key: "sources[\(i)].geocode",
                              problem: "needs a top-level \"geocoder\" to ask, or a \"positions\" file that places its rows (areasd --discover FILE --positions-template writes one to fill in)")
        }
        return config
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
