import AreasSystem

/// The `http` key: the HTTP front door, off unless given. A Unix socket for a proxy on the same
/// host (nginx's `proxy_pass http://unix:PATH:`), a TCP address, or both.
package struct HTTPConfig: Sendable, Equatable {
    package var socket: String?
    /// "HOST:PORT".
    package var listen: String?
    /// The HTTP socket file's mode and group (nginx's user must be able to connect).
    package var socketMode: UInt32 = 0o660
    package var socketGroup: String?
    /// `Access-Control-Allow-Origin`: "*" (the default), one origin, or "" for none.
    package var allowOrigin: String = "*"
    /// `Cache-Control: public, max-age=` of data answers.
    package var maxAgeSeconds = ConfigKeys.HTTP.maxAgeSeconds.defaultCount
    /// Where the map page's scripts come from: the distribution's JavaScript folder, whose
    /// `leaflet/` and `leaflet.markercluster/` (Debian's libjs-leaflet packages) are served under
    /// `/map/`.
    package var assets: String = "/usr/share/javascript"
    /// A tile URL template (`https://.../{z}/{x}/{y}.png`) for the map's background; none by
    /// default, so the page asks no other host for anything.
    package var tiles: String?
    package var tilesAttribution: String?

    package init(socket: String? = nil, listen: String? = nil) {
        self.socket = socket
        self.listen = listen
    }
}

extension AreasConfig {
    static func parseHTTP(_ h: ConfigObject) throws(ConfigError) -> HTTPConfig {
        typealias Key = ConfigKeys.HTTP
        let listen = try h.string(Key.listen)
        var http = HTTPConfig(socket: try h.path(Key.socket), listen: listen)
        guard http.socket != nil || listen != nil else {
            throw h.problem("", "give \"socket\" (a path), \"listen\" (\"127.0.0.1:8080\"), or both")
        }
        if let listen {
            do throws(TCPAddress.Invalid) {
                _ = try TCPAddress.parse(listen)
            } catch {
                throw h.problem("listen", error.description)
            }
        }
        http.socketMode = try h.mode(Key.socketMode) ?? http.socketMode
        http.socketGroup = try h.string(Key.socketGroup)
        if let origin = try h.string(Key.allowOrigin) {
            // Written into every answer's head: nothing that could end the line or the field.
            guard origin.isEmpty || origin == "*" || Self.isOrigin(origin) else {
                throw h.problem("allowOrigin", "'\(origin)' is not \"*\", \"\" or an origin such as \"https://map.example.kr\"")
            }
            http.allowOrigin = origin
        }
        http.maxAgeSeconds = try h.count(Key.maxAgeSeconds)
        http.assets = try h.path(Key.assets) ?? http.assets
        if let tiles = try h.string(Key.tiles) {
            guard tiles.hasPrefix("https://") || tiles.hasPrefix("http://"), tiles.contains("{z}"), tiles.contains("{x}"), tiles.contains("{y}"),
                  !tiles.contains(where: { $0 == "\"" || $0 == "<" || $0 == ">" || $0.isWhitespace }) else {
                throw h.problem("tiles", "'\(tiles)' is not a tile URL template such as \"https://tile.example.kr/{z}/{x}/{y}.png\"")
            }
            http.tiles = tiles
        }
        http.tilesAttribution = try h.string(Key.tilesAttribution)
        return http
    }

    /// scheme "://" host [":" port], in the characters a host name may use.
    static func isOrigin(_ text: String) -> Bool {
        guard let range = text.range(of: "://") else { return false }
        let scheme = text[..<range.lowerBound]
        let authority = text[range.upperBound...]
        return (scheme == "http" || scheme == "https") && !authority.isEmpty
            && authority.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-:[]".unicodeScalars.contains($0)) }
    }
}
