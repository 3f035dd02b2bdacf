import AreasIngest
import AreasProtocol
import AreasSystem

/// `GET /map`: a page for people, on the distribution's Leaflet (served under `/map/` from
/// `http.assets`), asking only this daemon: clusters of the view (`/v1/clusters`), an area's
/// details (`/v1/areas/ID`), `check` where one clicks or stands, a route's areas (`along`) and
/// the sources report. No background tiles unless `http.tiles` names them: then the
/// administrative boundaries (`/v1/regions`) are its background, when the daemon has them.
/// With `crowd`, the city's hotspots lie over it, filled by their crowd levels (`/v1/crowd`).
enum MapPage {
    /// The page, with the tile settings and whether the daemon has boundaries to draw in a
    /// JSON block it reads at start.
    static func html(http: HTTPConfig, regions: Bool, crowd: Bool) -> [UInt8] {
        var settings = JSONWriter(capacity: 256)
        settings.beginObject()
        settings.key("regions"); settings.bool(regions)
        settings.key("crowd"); settings.bool(crowd)
        settings.key("tiles")
        if let tiles = http.tiles { settings.string(tiles) } else { settings.null() }
        settings.key("attribution")
        if let attribution = http.tilesAttribution { settings.string(attribution) } else { settings.null() }
        settings.endObject()
        // Inside a script element nothing may close it: "<" is written as its escape.
        let json = String(decoding: settings.bytes, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
        var page = template.replacingOccurrences(of: "@SETTINGS@", with: json)
        if !hasLeaflet(http) {
            // Without Leaflet nothing can be drawn: the page says so itself and asks for none
            // of the files it would not find (each a console error, and a blank page).
            page = page.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.contains("/map/leaflet/") && !$0.contains("/map/page/map.js") }
                .joined(separator: "\n")
                .replacingOccurrences(of: #"<div id="no-leaflet" hidden>"#, with: #"<div id="no-leaflet" role="alert">"#)
                .replacingOccurrences(of: #"<div id="panel">"#, with: #"<div id="panel" hidden>"#)
        }
        return Array(page.utf8)
    }

    /// Whether `http.assets` has the Leaflet the page draws with.
    static func hasLeaflet(_ http: HTTPConfig) -> Bool {
        ((try? FileSystem.status(of: http.assets + "/leaflet/leaflet.js")) ?? nil) != nil
    }

    /// The page's own files, served under `/map/page/`: real files in the package
    /// (`Map/Page`), built into the binary, so the page needs nothing installed but Leaflet.
    static let files: [String: (bytes: [UInt8], type: String)] = [
        "page/map.css": (PackageResources.map_css, "text/css; charset=utf-8"),
        "page/map.js": (PackageResources.map_js, "text/javascript; charset=utf-8"),
    ]

    static var template: String { String(decoding: PackageResources.map_html, as: UTF8.self) }
}
