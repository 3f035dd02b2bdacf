import AreasCore

/// What an HTTP request asks for. A query endpoint's parameters are read with the request
/// parser's own checks into the very request the socket takes, so both front doors run one
/// implementation of each query and send the same bytes.
public enum HTTPRoute: Sendable, Equatable {
    /// A query; `geojson` asks for the answer as a FeatureCollection (`idsOnly` keeps only ids
    /// and distances in its properties); `cacheable` answers carry the data's ETag and may be
    /// kept for a minute.
    case request(Request, geojson: Bool, idsOnly: Bool, cacheable: Bool)
    case health(strict: Bool)
    case metrics
    case snapshot
    /// A Mapbox Vector Tile of the data at zoom `z`, column `x`, row `y`.
    case tile(z: Int, x: Int, y: Int)
    /// The TileJSON document of the vector tiles: their URL, zooms, bounds and layers.
    case tileJSON
    /// OGC API - Features, under `/ogc`.
    case ogc(OGCRequest)
    /// The administrative regions of `level` meeting `box`, drawn for `zoom` (GeoJSON).
    case regions(level: RegionMap.Level, box: GeoBox, zoom: Int)
    /// The map page (`/map`, and `/` for a person who types only the host).
    case mapPage
    /// One of the map's script or style files: a path under the assets folder, checked to be
    /// plain names (no `..`, no hidden file) of a kind the page loads.
    case mapAsset(path: String)
    /// `/favicon.ico`, which browsers ask for unbidden: nothing, rather than an error.
    case favicon
    /// OPTIONS: what a browser asks before a cross-origin request with extra headers.
    case preflight

    /// The query endpoints, by path: each operation's `endpoint`.
    static let endpoints: [String: RequestOperation] = Dictionary(uniqueKeysWithValues: RequestOperation.allCases.compactMap { operation in
        if case .query(let path) = operation.endpoint { return (path, operation) }
        return nil
    })

    /// The operations asked by a resource path (`/v1/areas/ID`), with the field its last segment is.
    static let resources: [(prefix: String, operation: RequestOperation, field: RequestField)] = RequestOperation.allCases.compactMap { operation in
        if case .resource(let prefix, let field) = operation.endpoint { return (prefix, operation, field) }
        return nil
    }

    /// The operations asked by a path of their own (`/healthz`, `/metrics`).
    static let routes: [String] = RequestOperation.allCases.compactMap { operation in
        if case .route(let path) = operation.endpoint { return path }
        return nil
    }

    static let otherPaths = routes + ["/map", "/v1/snapshot", "/v1/tiles/Z/X/Y.mvt", tileJSONPath, "/v1/regions", OGCRequest.prefix] + resources.map { $0.prefix + $0.field.name.uppercased() }

    static let tilePrefix = "/v1/tiles/"
    static let tileJSONPath = "/v1/tiles.json"
    static let mapPrefix = "/map/"
    /// The kinds of file the map page loads, and what they are.
    public static let assetTypes = ["js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "png": "image/png", "svg": "image/svg+xml"]

    static func mapAsset(_ rest: String) throws(RequestError) -> HTTPRoute {
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        let plain = parts.count <= 4 && parts.allSatisfy { part in
            !part.isEmpty && !part.hasPrefix(".") && part.utf8.allSatisfy { $0 < 0x80 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")) }
        }
        guard plain, let last = parts.last, let dot = last.lastIndex(of: "."), assetTypes[String(last[last.index(after: dot)...])] != nil else {
            throw RequestError(.notFound, "no map file /map/\(rest)")
        }
        return .mapAsset(path: rest)
    }

    public static func route(_ head: HTTPRequestHead) throws(RequestError) -> HTTPRoute {
        if head.method == .options { return .preflight }
        let path = head.path
        switch path {
        case "/healthz":
            try allow(head, ["strict"])
            let strict = head.query.first { $0.name == "strict" }?.value
            if let strict, !["0", "1", "true", "false"].contains(strict) {
                throw RequestError(.badRequest, "strict must be 1 or 0, got '\(strict)'")
            }
            return .health(strict: strict == "1" || strict == "true")
        case "/metrics":
            try allow(head, [])
            return .metrics
        case "/v1/snapshot":
            try allow(head, [])
            return .snapshot
        case "/", "/map", "/map/":
            try allow(head, ["lat", "lon", "zoom"])
            return .mapPage
        case "/favicon.ico":
            return .favicon
        case "/v1/regions":
            try allow(head, ["level", "south", "west", "north", "east", "zoom"])
            return try regions(head)
        case tileJSONPath:
            try allow(head, [])
            return .tileJSON
        default:
            break
        }
        if path == OGCRequest.prefix || path.hasPrefix(OGCRequest.prefix + "/") {
            return .ogc(try OGCRequest.route(head))
        }
        if path.hasPrefix(mapPrefix) {
            try allow(head, [])
            return try mapAsset(String(path.dropFirst(mapPrefix.count)))
        }
        if path.hasPrefix(tilePrefix) {
            try allow(head, [])
            return try tile(String(path.dropFirst(tilePrefix.count)))
        }
        let geojson = try wantsGeoJSON(head)
        if let resource = resources.first(where: { path.hasPrefix($0.prefix) }) {
            try allow(head, [])
            let value = String(path.dropFirst(resource.prefix.count))
            guard !value.isEmpty else {
                throw RequestError(.notFound, "no area \(resource.field.name) given: \(resource.prefix)\(resource.field.name.uppercased())")
            }
            let request = try Request.make(resource.operation, values: [(resource.field, .string(value))])
            return .request(request, geojson: geojson, idsOnly: false, cacheable: resource.operation.answerFollowsData)
        }
        guard let operation = endpoints[path] else {
            let known = endpoints.keys.sorted() + otherPaths
            let meant = Suggestion.closest(to: path, among: known, maximumDistance: 3).map { " (did you mean \($0)?)" } ?? ""
            throw RequestError(.notFound, "no endpoint \(path)\(meant); there are \(known.joined(separator: ", "))")
        }
        try allow(head, operation.fields.map(\.name))
        if geojson && !operation.hasGeoJSON {
            throw RequestError(.badRequest, "\(path) has no GeoJSON form; ask for format=json")
        }
        let output = head.query.first { $0.name == RequestField.output.name }?.value
        if geojson && output == "count" { throw RequestError(.badRequest, "output=count has no places to draw: use it without GeoJSON") }
        var values: [(RequestField, JSONValue)] = []
        for (name, value) in head.query {
            // `allow` let through only the operation's fields and `format`.
            guard let field = RequestField(name: name) else { continue }
            // GeoJSON needs every area's position: whole areas, whatever output says.
            if field == .output && geojson { continue }
            values.append((field, try field.value(fromText: value)))
        }
        let request = try Request.make(operation, values: values)
        return .request(request, geojson: geojson, idsOnly: output == "ids", cacheable: operation.answerFollowsData)
    }

    /// Every parameter is one the endpoint reads, given once: a misspelt `lng` is an error, not
    /// a question answered for a default.
    static func allow(_ head: HTTPRequestHead, _ names: [String]) throws(RequestError) {
        let takesFormat = head.path.hasPrefix("/v1/") && head.path != "/v1/snapshot"
        for (index, (name, _)) in head.query.enumerated() {
            guard names.contains(name) || takesFormat && name == "format" else {
                let accepted = names + (takesFormat ? ["format"] : [])
                let usual = Self.usualNames[name.lowercased()].flatMap { accepted.contains($0) ? $0 : nil }
                let meant = (usual ?? Suggestion.closest(to: name, among: accepted, maximumDistance: 2)).map { " (did you mean \($0)?)" } ?? ""
                let list = accepted.isEmpty ? "none" : accepted.joined(separator: ", ")
                throw RequestError(.badRequest, "\(head.path) takes no parameter '\(name)'\(meant); it takes \(list)")
            }
            guard !head.query[..<index].contains(where: { $0.name == name }) else {
                throw RequestError(.badRequest, "the parameter \(name) is given twice")
            }
        }
    }

    /// What other map APIs call the parameters, for the hint.
    static let usualNames = ["lng": "lon", "long": "lon", "longitude": "lon", "latitude": "lat", "x": "lon", "y": "lat",
                             "radius": "meters", "distance": "meters", "max": "limit", "count": "k", "type": "kind"]

    /// `format=geojson`, or an `Accept` that names `application/geo+json` (an explicit
    /// `format=json` wins).
    static func wantsGeoJSON(_ head: HTTPRequestHead) throws(RequestError) -> Bool {
        if let format = head.query.first(where: { $0.name == "format" })?.value {
            guard format == "json" || format == "geojson" else { throw RequestError(.badRequest, "format must be json or geojson, got '\(format)'") }
            return format == "geojson"
        }
        guard let accept = head.header("accept") else { return false }
        return accept.lowercased().split(separator: ",").contains { range in
            range.split(separator: ";", omittingEmptySubsequences: false).first.map { String($0).trimmed == "application/geo+json" } ?? false
        }
    }

    /// The towns are drawn from this zoom: below it a view holds thousands of them.
    public static let townsFromZoom = 12

    /// `level=province|district|town` (districts unless given), a box (all of Korea unless
    /// given, each side or none) and `zoom` (7 unless given).
    static func regions(_ head: HTTPRequestHead) throws(RequestError) -> HTTPRoute {
        func value(_ name: String) -> String? { head.query.first { $0.name == name }?.value }
        let levelName = value("level") ?? "district"
        guard let level = RegionMap.Level(name: levelName) else {
            throw RequestError(.badRequest, "level must be province, district or town, got '\(levelName)'")
        }
        var zoom = 7
        if let text = value("zoom") {
            guard let number = Int(text), (0...Request.maximumZoom).contains(number) else {
                throw RequestError(.badRequest, "zoom must be a whole number from 0 to \(Request.maximumZoom), got '\(text)'")
            }
            zoom = number
        }
        if level == .town && zoom < townsFromZoom {
            throw RequestError(.tooExpensive, "towns are drawn from zoom \(townsFromZoom): ask level=district, or a zoom of \(townsFromZoom) or more")
        }
        let sides = ["south", "west", "north", "east"]
        let given = sides.compactMap(value)
        guard given.isEmpty || given.count == 4 else { throw RequestError(.badRequest, "give the box whole (south, west, north, east) or not at all") }
        var box = GeoBox.korea
        if given.count == 4 {
            let numbers = given.compactMap { Double($0) }.filter(\.isFinite)
            guard numbers.count == 4 else { throw RequestError(.badRequest, "south, west, north and east must be numbers, got \(given.joined(separator: ", "))") }
            do throws(GeoError) {
                box = try GeoBox(south: numbers[0], west: numbers[1], north: numbers[2], east: numbers[3])
            } catch {
                throw RequestError(.badRequest, error.description)
            }
        }
        return .regions(level: level, box: box, zoom: zoom)
    }

    /// `Z/X/Y.mvt`: a zoom from 0 to 22 and a column and row inside it.
    static func tile(_ rest: String) throws(RequestError) -> HTTPRoute {
        let shape = "a tile is /v1/tiles/Z/X/Y.mvt with Z from 0 to \(Request.maximumZoom) and X and Y from 0 to 2^Z - 1"
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasSuffix(".mvt") else { throw RequestError(.badRequest, shape + ", got /v1/tiles/\(rest)") }
        func number(_ text: Substring) -> Int? { text.count <= 8 && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber) ? Int(text) : nil }
        guard let z = number(parts[0]), z <= Request.maximumZoom, let x = number(parts[1]), let y = number(parts[2].dropLast(4)),
              x < 1 << z, y < 1 << z else { throw RequestError(.badRequest, shape + ", got /v1/tiles/\(rest)") }
        return .tile(z: z, x: x, y: y)
    }
}
