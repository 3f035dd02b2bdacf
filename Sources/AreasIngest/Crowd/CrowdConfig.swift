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
    package var maxAgeSeconds = ConfigKeys.Crowd.maxAgeSeconds.defaultNumber
    /// Requests a day (in Korea) the key may make, counted across restarts.
    package var dailyRequestLimit = ConfigKeys.Crowd.dailyRequestLimit.defaultCount
    /// One request's deadline, first byte sent to last received.
    package var timeoutSeconds = ConfigKeys.Crowd.timeoutSeconds.defaultNumber
    /// A level older than this (by the city's own time) is marked `stale` in answers and the
    /// map: the city stopped answering, or nobody asked about the hotspot for a while.
    package var staleAfterSeconds = ConfigKeys.Crowd.staleAfterSeconds.defaultNumber

    package init(places: String) {
        self.places = places
    }
}

extension AreasConfig {
    /// The top-level `crowd`, validated.
    static func parseCrowd(_ c: ConfigObject) throws(ConfigError) -> CrowdConfig {
        typealias Key = ConfigKeys.Crowd
        if let format = try c.string(Key.format), format != CrowdConfig.format {
            throw c.problem("format", "unknown format '\(format)' (expected \(CrowdConfig.format))")
        }
        guard let places = try c.path(Key.places) else {
            throw c.problem("places", "missing (the GeoJSON file of the city's hotspot polygons)")
        }
        var crowd = CrowdConfig(places: places)
        crowd.url = try c.url(Key.url) ?? crowd.url
        crowd.recordedAnswers = try c.path(Key.recorded)
        crowd.keyEnv = try c.environmentName(Key.keyEnv) ?? (crowd.recordedAnswers == nil ? CrowdConfig.defaultKeyEnv : nil)
        crowd.maxAgeSeconds = try c.number(Key.maxAgeSeconds)
        crowd.dailyRequestLimit = try c.count(Key.dailyRequestLimit)
        crowd.timeoutSeconds = try c.number(Key.timeoutSeconds)
        crowd.staleAfterSeconds = try c.number(Key.staleAfterSeconds)
        return crowd
    }
}
