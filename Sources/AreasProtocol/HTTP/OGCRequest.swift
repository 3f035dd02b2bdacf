import AreasCore

/// What a GIS client asks of the OGC API - Features paths under `/ogc` (QGIS, ArcGIS, GDAL's
/// OAPIF driver): the landing page, conformance, the API document, the collections, a
/// collection's queryables, a page of its items, or one item.
public enum OGCRequest: Sendable, Equatable {
    case landing
    case conformance
    case api
    case collections
    case collection(OGCCollection)
    case queryables(OGCCollection)
    case items(OGCCollection, OGCItemsQuery)
    case item(OGCCollection, id: String)
}

/// The collections: every area of a kind as a point, and every non-smoking zone as the
/// outline of its footprint.
public enum OGCCollection: String, Sendable, CaseIterable {
    case smoking
    case nonsmoking
    case zones

    public var kind: AreaKind { self == .smoking ? .smoking : .nonsmoking }
}

/// A page of a collection's items: at most `limit`, inside `bbox`, each property in `equal`
/// equal to its value, from `cursor` (the `next` link's) on.
public struct OGCItemsQuery: Sendable, Equatable {
    /// The properties a query may name, matched exactly.
    public enum Queryable: String, Sendable, CaseIterable {
        case district, province, source, kind, name
    }

    public static let defaultLimit = 100
    public static let maximumLimit = 10_000

    public var limit = defaultLimit
    public var bbox: GeoBox?
    public var equal: [Queryable: String] = [:]
    public var cursor: String?

    public init(limit: Int = defaultLimit, bbox: GeoBox? = nil, equal: [Queryable: String] = [:], cursor: String? = nil) {
        self.limit = limit
        self.bbox = bbox
        self.equal = equal
        self.cursor = cursor
    }
}

extension OGCRequest {
    static let prefix = "/ogc"

    /// The request a path under `/ogc` asks, every parameter checked: an unknown collection or
    /// path is `not_found`, a bad or unknown parameter `bad_request`, with the JSON error body.
    static func route(_ head: HTTPRequestHead) throws(RequestError) -> OGCRequest {
        let rest = head.path.dropFirst(prefix.count)
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        try formatIsJSON(head)
        switch parts {
        case [], [""]:
            try HTTPRoute.allow(head, ["f"])
            return .landing
        case ["conformance"]:
            try HTTPRoute.allow(head, ["f"])
            return .conformance
        case ["api"]:
            try HTTPRoute.allow(head, ["f"])
            return .api
        case ["collections"]:
            try HTTPRoute.allow(head, ["f"])
            return .collections
        case _ where parts.first == "collections" && parts.count >= 2:
            guard let collection = OGCCollection(rawValue: parts[1]) else {
                throw RequestError(.notFound, "no collection '\(parts[1])': the collections are \(OGCCollection.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let below = Array(parts.dropFirst(2))
            if below.isEmpty {
                try HTTPRoute.allow(head, ["f"])
                return .collection(collection)
            } else if below == ["queryables"] {
                try HTTPRoute.allow(head, ["f"])
                return .queryables(collection)
            } else if below == ["items"] {
                try HTTPRoute.allow(head, ["f", "limit", "bbox", "bbox-crs", "cursor"] + OGCItemsQuery.Queryable.allCases.map(\.rawValue))
                return .items(collection, try items(head))
            } else if below.count == 2, below[0] == "items", !below[1].isEmpty {
                try HTTPRoute.allow(head, ["f"])
                return .item(collection, id: below[1])
            }
            throw RequestError(.notFound, "no such path: \(head.path)")
        default:
            throw RequestError(.notFound, "no such path: \(head.path)")
        }
    }

    /// `f`, when given, asks for JSON (GeoJSON for items), the one format served.
    private static func formatIsJSON(_ head: HTTPRequestHead) throws(RequestError) {
        guard let format = head.query.first(where: { $0.name == "f" })?.value else { return }
        guard ["json", "geojson", "application/json", "application/geo+json"].contains(format) else {
            throw RequestError(.badRequest, "f must be json (GeoJSON for items), the one format served; got '\(format)'")
        }
    }

    private static func items(_ head: HTTPRequestHead) throws(RequestError) -> OGCItemsQuery {
        var query = OGCItemsQuery()
        for (name, value) in head.query {
            switch name {
            case "limit":
                guard let limit = Int(value), (1...OGCItemsQuery.maximumLimit).contains(limit) else {
                    throw RequestError(.badRequest, "limit must be a whole number from 1 to \(OGCItemsQuery.maximumLimit), got '\(value)'")
                }
                query.limit = limit
            case "bbox":
                query.bbox = try bbox(value)
            case "bbox-crs":
                guard value == "http://www.opengis.net/def/crs/OGC/1.3/CRS84" else {
                    throw RequestError(.badRequest, "bbox-crs must be http://www.opengis.net/def/crs/OGC/1.3/CRS84, the one coordinate system served; got '\(value)'")
                }
            case "cursor":
                guard !value.isEmpty, value.utf8.count <= 64 else { throw RequestError(.badRequest, "cursor is not one this daemon gave: start again from the first page") }
                query.cursor = value
            case "f":
                break
            default:
                guard let queryable = OGCItemsQuery.Queryable(rawValue: name) else { continue }
                guard !value.isEmpty else { throw RequestError(.badRequest, "\(name) must not be empty") }
                query.equal[queryable] = value
            }
        }
        return query
    }

    /// `minLon,minLat,maxLon,maxLat` in CRS84: four finite numbers in range, south not above
    /// north, west not east of east (a box across the antimeridian is not served: no area lies
    /// there).
    static func bbox(_ text: String) throws(RequestError) -> GeoBox {
        let shape = "bbox must be minLon,minLat,maxLon,maxLat (four numbers, CRS84)"
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { RequestValue.decimalNumber($0) }
        guard numbers.count == 4, let west = numbers[0], let south = numbers[1], let east = numbers[2], let north = numbers[3],
              [west, south, east, north].allSatisfy(\.isFinite) else { throw RequestError(.badRequest, "\(shape), got '\(text)'") }
        guard (-180...180).contains(west), (-180...180).contains(east), (-90...90).contains(south), (-90...90).contains(north) else {
            throw RequestError(.badRequest, "\(shape) with longitudes from -180 to 180 and latitudes from -90 to 90, got '\(text)'")
        }
        guard south <= north else { throw RequestError(.badRequest, "bbox's minLat (\(south)) is above its maxLat (\(north))") }
        guard west <= east else { throw RequestError(.badRequest, "bbox's minLon (\(west)) is east of its maxLon (\(east)): a box across the antimeridian holds no area served here") }
        return GeoBox(uncheckedSouth: south, west: west, north: north, east: east)
    }
}
