import AreasCore

/// What an HTTP request asks for. A query endpoint becomes the very request line the socket
/// takes, so both front doors run one implementation of each query and send the same bytes.
public enum HTTPRoute: Sendable, Equatable {
    /// A line-protocol request; `geojson` asks for the answer as a FeatureCollection (`idsOnly`
    /// keeps only ids and distances in its properties); `cacheable` answers carry the data's
    /// ETag and may be kept for a minute.
    case request(line: [UInt8], geojson: Bool, idsOnly: Bool, cacheable: Bool)
    case health(strict: Bool)
    case metrics
    case snapshot
    /// OPTIONS: what a browser asks before a cross-origin request with extra headers.
    case preflight

    /// The query endpoints and the parameters each takes, beside `format`.
    static let endpoints: [String: (op: String, parameters: [String])] = {
        let filters = ["kind", "province", "district", "output"]
        return [
            "/v1/near": ("near", ["lat", "lon", "k", "maxMeters"] + filters),
            "/v1/radius": ("radius", ["lat", "lon", "meters", "limit"] + filters),
            "/v1/bbox": ("bbox", ["south", "west", "north", "east", "limit"] + filters),
            "/v1/check": ("check", ["lat", "lon", "province", "district"]),
            "/v1/along": ("along", ["path", "meters", "limit"] + filters),
            "/v1/stats": ("stats", []),
        ]
    }()

    static let otherPaths = ["/healthz", "/metrics", "/v1/snapshot", "/v1/areas/ID"]

    /// Parameters whose values are numbers in the request line.
    static let numeric: Set<String> = ["lat", "lon", "k", "maxMeters", "meters", "limit", "south", "west", "north", "east"]

    public static func route(_ head: HTTPRequestHead) throws(RequestError) -> HTTPRoute {
        if head.method == .options { return .preflight }
        let path = head.path
        switch path {
        case "/healthz":
            try allow(head, ["strict"])
            let strict = head.query.first { $0.name == "strict" }?.value
            guard strict == nil || ["0", "1", "true", "false"].contains(strict!) else {
                throw RequestError(.badRequest, "strict must be 1 or 0, got '\(strict!)'")
            }
            return .health(strict: strict == "1" || strict == "true")
        case "/metrics":
            try allow(head, [])
            return .metrics
        case "/v1/snapshot":
            try allow(head, [])
            return .snapshot
        default:
            break
        }
        let geojson = try wantsGeoJSON(head)
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        if path.hasPrefix("/v1/areas/") {
            try allow(head, [])
            let id = String(path.dropFirst("/v1/areas/".count))
            guard !id.isEmpty else { throw RequestError(.notFound, "no area id given: /v1/areas/ID") }
            writer.key("op"); writer.string("get")
            writer.key("id"); writer.string(id)
            writer.endObject()
            return .request(line: writer.bytes, geojson: geojson, idsOnly: false, cacheable: true)
        }
        guard let endpoint = endpoints[path] else {
            let known = endpoints.keys.sorted() + otherPaths
            let meant = Suggestion.closest(to: path, among: known, maximumDistance: 3).map { " (did you mean \($0)?)" } ?? ""
            throw RequestError(.notFound, "no endpoint \(path)\(meant); there are \(known.joined(separator: ", "))")
        }
        try allow(head, endpoint.parameters)
        if geojson && (path == "/v1/check" || path == "/v1/stats") {
            throw RequestError(.badRequest, "\(path) has no GeoJSON form; ask for format=json")
        }
        let output = head.query.first { $0.name == "output" }?.value
        if geojson && output == "count" { throw RequestError(.badRequest, "output=count has no places to draw: use it without GeoJSON") }
        writer.key("op"); writer.string(endpoint.op)
        for (name, value) in head.query where name != "format" {
            // GeoJSON needs every area's position: whole areas, whatever output says.
            if name == "output" && geojson { continue }
            writer.key(escaping: name)
            if name == "path" {
                try writePath(value, into: &writer)
            } else if numeric.contains(name), let number = decimalNumber(value) {
                writer.number(number)
            } else {
                // Not a number: the request parser then names the parameter and what it needs.
                writer.string(value)
            }
        }
        writer.endObject()
        return .request(line: writer.bytes, geojson: geojson, idsOnly: output == "ids", cacheable: path != "/v1/stats")
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

    /// `LAT,LON;LAT,LON;...` as the `path` array of points.
    static func writePath(_ text: String, into writer: inout JSONWriter) throws(RequestError) {
        writer.beginArray()
        for point in text.split(separator: ";", omittingEmptySubsequences: false) {
            let parts = point.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let lat = decimalNumber(String(parts[0])), let lon = decimalNumber(String(parts[1])) else {
                throw RequestError(.badRequest, "path must be LAT,LON;LAT,LON;... (decimal degrees), got '\(point)'")
            }
            writer.beginArray()
            writer.number(lat)
            writer.number(lon)
            writer.endArray()
        }
        writer.endArray()
    }

    /// A decimal number as JSON writes one (optional sign, digits, fraction, exponent); not
    /// `nan`, `inf` or hex, which `Double(_:)` would take.
    static func decimalNumber(_ text: String) -> Double? {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E || $0 == 0x45 || $0 == 0x65 }),
              bytes.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Double(text)
    }
}
