/// The top-level `crowd`: where the city's real-time people density comes from, which
/// hotspots it covers, and how hard the city may be asked.
package struct CrowdConfig: Sendable, Equatable {
    /// The only protocol spoken: Seoul's real-time city data (`citydata_ppltn`).
    package static let format = "seoul-citydata"
    package static let defaultURL = "http://openapi.seoul.go.kr:8088"
    /// The variable the key is read from unless `keyEnv` names another.
    package static let defaultKeyEnv = "SEOUL_DATA_KEY"

    /// Where requests go: the city's endpoint, or a stand-in speaking its protocol.
    package var url = CrowdConfig.defaultURL
    /// A folder of recorded answers (`{AREA_CD}.json`) read instead of the network, so the
    /// bundled samples show levels offline with no key.
    package var recordedAnswers: String?
    /// The environment variable holding the key; the key itself is never stored.
    package var keyEnv: String?
    /// The GeoJSON file of the hotspots' polygons.
    package var places: String
    /// A hotspot is asked about at most once in this many seconds.
    package var maxAgeSeconds = 300.0
    /// Requests a day (in Korea) the key may make, counted across restarts.
    package var dailyRequestLimit = 1_000
    /// One request's deadline, first byte sent to last received.
    package var timeoutSeconds = 5.0
    /// A level older than this (by the city's own time) is marked `stale` in answers and the
    /// map: the city stopped answering, or nobody asked about the hotspot for a while.
    package var staleAfterSeconds = 3_600.0

    package init(places: String) {
        self.places = places
    }
}

/// The shape of `crowd` in a config file, every key optional, so validation can name what is wrong.
struct RawCrowd: Decodable {
    var format: String?
    var url: String?
    var recorded: String?
    var keyEnv: String?
    var places: String?
    var maxAgeSeconds: Double?
    var dailyRequestLimit: Int?
    var timeoutSeconds: Double?
    var staleAfterSeconds: Double?
}

extension AreasConfig {
    /// The top-level `crowd`, validated.
    static func parseCrowd(_ raw: RawCrowd, path: String, resolve: (String) -> String) throws(ConfigError) -> CrowdConfig {
        let check = ValueCheck(path: path)
        if let format = raw.format, format != CrowdConfig.format {
            throw ConfigError(path: path, key: "crowd.format", problem: "unknown format '\(format)' (expected \(CrowdConfig.format))")
        }
        guard let places = raw.places else {
            throw ConfigError(path: path, key: "crowd.places", problem: "missing (the GeoJSON file of the city's hotspot polygons)")
        }
        var crowd = CrowdConfig(places: resolve(places))
        if let url = raw.url { crowd.url = try check.httpURL(url, "crowd.url") }
        crowd.recordedAnswers = raw.recorded.map(resolve)
        crowd.keyEnv = try check.environmentName(raw.keyEnv, "crowd.keyEnv") ?? (crowd.recordedAnswers == nil ? CrowdConfig.defaultKeyEnv : nil)
        crowd.maxAgeSeconds = try check.number(raw.maxAgeSeconds, "crowd.maxAgeSeconds", default: 300, minimum: 10, maximum: 86_400)
        crowd.dailyRequestLimit = try check.count(raw.dailyRequestLimit, "crowd.dailyRequestLimit", default: 1_000, minimum: 0, maximum: 10_000_000)
        crowd.timeoutSeconds = try check.number(raw.timeoutSeconds, "crowd.timeoutSeconds", default: 5, minimum: 0.1, maximum: 120)
        crowd.staleAfterSeconds = try check.number(raw.staleAfterSeconds, "crowd.staleAfterSeconds", default: 3_600, minimum: 60, maximum: 604_800)
        return crowd
    }
}
