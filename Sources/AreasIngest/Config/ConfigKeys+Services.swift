extension ConfigKeys {
    /// `http`: the HTTP front door, off unless `socket` or `listen` is given.
    package enum HTTP {
        package static let socket = ConfigKey("socket", .path, .absent("one or both of `socket`, `listen`"), "a Unix socket for a proxy on the same host (nginx's `proxy_pass http://unix:PATH:`)")
        package static let listen = ConfigKey("listen", .text, .absent(""), "a TCP address, `\"HOST:PORT\"`")
        package static let socketMode = ConfigKey("socketMode", .mode, .text("0660"), "the HTTP socket file's mode (nginx's user must be able to connect)")
        package static let socketGroup = ConfigKey("socketGroup", .text, .absent("unchanged"), "the HTTP socket file's group")
        package static let allowOrigin = ConfigKey("allowOrigin", .text, .text("*"), "`Access-Control-Allow-Origin`: `\"*\"`, one origin, or `\"\"` for none")
        package static let maxAgeSeconds = ConfigKey.count("maxAgeSeconds", 60, in: 0...31_536_000, "`Cache-Control: public, max-age=` of data answers")
        package static let assets = ConfigKey("assets", .path, .text("/usr/share/javascript"), "the folder whose `leaflet/` and `leaflet.markercluster/` (Debian's libjs-leaflet packages) the map page is served")
        package static let tiles = ConfigKey("tiles", .url, .absent("none: the page asks no other host for anything"), "a tile URL template (`https://.../{z}/{x}/{y}.png`) for the map's streets")
        package static let tilesAttribution = ConfigKey("tilesAttribution", .text, .absent("none"), "the tile server's credit line, shown on the map")
        package static let section = ConfigSection("http", [socket, listen, socketMode, socketGroup, allowOrigin, maxAgeSeconds, assets, tiles, tilesAttribution])
    }

    /// `geocoder`: the service that places rows published without a usable position.
    package enum Geocoder {
        package static let provider = ConfigKey("provider", .choice(GeocoderConfig.Provider.allCases.map(\.rawValue)), .absent("required"), "whose protocol is spoken")
        package static let url = ConfigKey("url", .url, .absent("the provider's endpoint"), "where requests go")
        package static let recorded = ConfigKey("recorded", .path, .absent("none"), "a file of recorded answers, read instead of the network")
        package static let keyEnv = ConfigKey("keyEnv", .environmentName, .absent("none"), "the environment variable holding the key")
        package static let requestsPerSecond = ConfigKey.number("requestsPerSecond", 10, in: 0.01...1_000, "the pace of requests")
        package static let maxRequestsPerRefresh = ConfigKey.count("maxRequestsPerRefresh", 5_000, in: 0...10_000_000, "requests one refresh may make; the rest of the rows wait for the next")
        package static let dailyRequestLimit = ConfigKey("dailyRequestLimit", .count(1...100_000_000), .absent("none"), "requests a day (in Korea), counted across restarts")
        package static let searchDailyLimit = ConfigKey("searchDailyLimit", .count(0...100_000_000), .absent("a tenth of `dailyRequestLimit`, else 1000"),
                                                "of those, what `search` may spend on places the index does not know (at most `dailyRequestLimit`)")
        package static let timeoutSeconds = ConfigKey.number("timeoutSeconds", 10, in: 0.1...300, "one request's deadline")
        package static let retries = ConfigKey.count("retries", 2, in: 0...10, "tries after the first for transient failures")
        package static let section = ConfigSection("geocoder", [provider, url, recorded, keyEnv, requestsPerSecond, maxRequestsPerRefresh, dailyRequestLimit, searchDailyLimit, timeoutSeconds, retries])
    }

    /// `crowd`: the city's real-time people density, which hotspots it covers and how hard
    /// the city may be asked.
    package enum Crowd {
        package static let format = ConfigKey("format", .choice([CrowdConfig.format]), .text(CrowdConfig.format), "the city's protocol")
        package static let url = ConfigKey("url", .url, .text(CrowdConfig.defaultURL), "where requests go")
        package static let recorded = ConfigKey("recorded", .path, .absent("none"), "a folder of recorded answers (`AREA_CD.json`), read instead of the network")
        package static let keyEnv = ConfigKey("keyEnv", .environmentName, .absent("`\(CrowdConfig.defaultKeyEnv)` unless `recorded`"), "the environment variable holding the key")
        package static let places = ConfigKey("places", .path, .absent("required"), "the hotspots' polygons (GeoJSON, `AREA_CD`/`AREA_NM`)")
        package static let maxAgeSeconds = ConfigKey.number("maxAgeSeconds", 300, in: 10...86_400, "a hotspot is asked about at most once in this long, and only by a `near`, `radius`, `check` or `get` inside it or a map's view")
        package static let dailyRequestLimit = ConfigKey.count("dailyRequestLimit", 1_000, in: 0...10_000_000, "requests a day, spread over the day; views spend at most half")
        package static let timeoutSeconds = ConfigKey.number("timeoutSeconds", 5, in: 0.1...120, "one request's deadline; no answer waits for it, and a failed request keeps the last level")
        package static let staleAfterSeconds = ConfigKey.number("staleAfterSeconds", 3_600, in: 60...604_800, "a level older than this is marked `\"stale\": true`")
        package static let section = ConfigSection("crowd", [format, url, recorded, keyEnv, places, maxAgeSeconds, dailyRequestLimit, timeoutSeconds, staleAfterSeconds])
    }
}
