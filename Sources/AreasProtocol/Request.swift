import AreasCore

// The wire protocol's vocabulary, in one file: the requests, the operations they ask and the
// fields they carry, how a line is read into a request and how a request writes its line. A
// new operation or field is added here, and every switch over them elsewhere then asks for it.

/// One request of the wire protocol (version 1), validated.
public enum Request: Sendable, Equatable {
    /// The longest request line the daemon reads, newline excluded: past it the line is
    /// refused as `too_large`.
    public static let maxLineBytes = 64 * 1024

    case near(at: QueryPosition, k: Int, maxMeters: Double?, kind: KindFilter, region: Region, output: OutputMode)
    case radius(at: QueryPosition, meters: Double, kind: KindFilter, region: Region, limit: Int?, output: OutputMode)
    case bbox(box: GeoBox, kind: KindFilter, region: Region, limit: Int?, output: OutputMode)
    /// May I smoke here: the zones the point is in, and the nearest smoking area; with the
    /// position before, the zones entered and left on the way.
    case check(at: QueryPosition, region: Region, previous: GeoPoint? = nil)
    /// Areas within `meters` of a route, in route order.
    case along(path: [GeoPoint], meters: Double, kind: KindFilter, region: Region, limit: Int?, output: OutputMode)
    /// The areas of a view grouped for a map at a Web Mercator zoom.
    case clusters(box: GeoBox, zoom: Int, kind: KindFilter, region: Region)
    /// The province, district and town a point lies in.
    case `where`(point: GeoPoint)
    /// Areas and places whose name or address holds every word of `text`.
    case search(text: String, point: GeoPoint?, kind: KindFilter, region: Region, limit: Int?)
    case get(id: String)
    case stats
    /// What each source gave, and each district's counts.
    case sources
    case health
    case refresh(wait: Bool, force: Bool)
    /// The daemon's counters and gauges in the Prometheus text format.
    case metrics
    /// Each hotspot of the city's people density with its last level, time and age; given a
    /// map's `view`, the hotspots in it count as asked about.
    case crowd(view: GeoBox?)

    /// The operations that cost upstream quota or change state: only admins may ask them.
    public var isPrivileged: Bool { operation.isPrivileged }

    public var operation: RequestOperation {
        switch self {
        case .near: return .near
        case .radius: return .radius
        case .bbox: return .bbox
        case .check: return .check
        case .along: return .along
        case .clusters: return .clusters
        case .where: return .where
        case .search: return .search
        case .get: return .get
        case .stats: return .stats
        case .sources: return .sources
        case .health: return .health
        case .refresh: return .refresh
        case .metrics: return .metrics
        case .crowd: return .crowd
        }
    }
}

/// Where a question is asked from: a position, or a name the daemon finds as `search` does
/// (`q`), answered with where it found it (`at`).
public enum QueryPosition: Sendable, Equatable {
    case point(GeoPoint)
    case named(String)

    /// The position, when the question gave one.
    public var point: GeoPoint? {
        if case .point(let point) = self { return point }
        return nil
    }
}

extension Request {
    /// A `near` from a position.
    public static func near(point: GeoPoint, k: Int, maxMeters: Double?, kind: KindFilter, region: Region, output: OutputMode) -> Request {
        .near(at: .point(point), k: k, maxMeters: maxMeters, kind: kind, region: region, output: output)
    }

    /// A `radius` from a position.
    public static func radius(point: GeoPoint, meters: Double, kind: KindFilter, region: Region, limit: Int?, output: OutputMode) -> Request {
        .radius(at: .point(point), meters: meters, kind: kind, region: region, limit: limit, output: output)
    }

    /// A `check` at a position.
    public static func check(point: GeoPoint, region: Region, previous: GeoPoint? = nil) -> Request {
        .check(at: .point(point), region: region, previous: previous)
    }
}

extension Request {
    /// The largest `k` a near query may ask for.
    public static let maximumK = 10_000
    /// The most points a route may have.
    public static let maximumPathPoints = 1_000
    /// The widest corridor along a route, in meters.
    public static let maximumCorridor = 50_000.0
    /// The deepest Web Mercator zoom a map asks for.
    public static let maximumZoom = 22
    /// The longest distance a request may name: half the Earth's circumference, about.
    public static let maximumMeters = 20_100_000.0
    /// The longest text a search may give, in bytes: far more than any name or address.
    public static let maximumSearchBytes = 256

    /// Parses one request line (without its newline).
    public static func parse(_ line: UnsafeBufferPointer<UInt8>) throws(RequestError) -> Request {
        try withFields { (fields) throws(RequestError) in
            do {
                if let other = try JSONParser.forEachMember(of: line, { name, value in fields.set(name, value) }) {
                    throw RequestError(.badRequest, "a request must be a JSON object, got \(other.typeName)")
                }
            } catch let error as RequestError {
                throw error
            } catch {
                throw RequestError(.badRequest, "\(error)")
            }
            guard let operation = try fields.operation() else { throw RequestError(.badRequest, "op is missing") }
            return try make(operation, from: fields)
        }
    }

    public static func parse(_ line: [UInt8]) throws(RequestError) -> Request {
        let result: Result<Request, RequestError> = line.withUnsafeBufferPointer { buffer in
            do throws(RequestError) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// A request of `operation` from values given by field (an HTTP query's parameters), read
    /// with the same checks and messages as a request line's members.
    public static func make(_ operation: RequestOperation, values: [(RequestField, JSONValue)]) throws(RequestError) -> Request {
        try withFields { (fields) throws(RequestError) in
            for (field, value) in values { fields.set(field, value) }
            return try make(operation, from: fields)
        }
    }

    /// Lends `body` the members' slots, on the stack: no tree of the request, no member list,
    /// no allocation.
    private static func withFields(_ body: (inout Fields) throws(RequestError) -> Request) throws(RequestError) -> Request {
        let result: Result<Request, RequestError> = withUnsafeTemporaryAllocation(of: Fields.Slot.self, capacity: Fields.Key.count) { slots in
            slots.initialize(repeating: .absent)
            var fields = Fields(slots: slots)
            do throws(RequestError) { return .success(try body(&fields)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private static func make(_ operation: RequestOperation, from fields: Fields) throws(RequestError) -> Request {
        switch operation {
        case .near:
            let point = try fields.position()
            let k = try fields.integer(.k, in: 0...maximumK) ?? 10
            let maxMeters = try fields.distance(.maxMeters)
            return .near(at: point, k: k, maxMeters: maxMeters, kind: try fields.kind(), region: try fields.region(), output: try fields.output())
        case .radius:
            let point = try fields.position()
            guard let meters = try fields.distance(.meters) else { throw RequestError(.badRequest, "meters is missing") }
            return .radius(at: point, meters: meters, kind: try fields.kind(), region: try fields.region(),
                           limit: try fields.integer(.limit, in: 0...Int(Int32.max)), output: try fields.output())
        case .bbox:
            return .bbox(box: try fields.box(), kind: try fields.kind(), region: try fields.region(),
                         limit: try fields.integer(.limit, in: 0...Int(Int32.max)), output: try fields.output())
        case .clusters:
            let box = try fields.box()
            guard let zoom = try fields.integer(.zoom, in: 0...maximumZoom) else {
                throw RequestError(.badRequest, "zoom is missing: a Web Mercator zoom from 0 to \(maximumZoom)")
            }
            return .clusters(box: box, zoom: zoom, kind: try fields.kind(), region: try fields.region())
        case .where:
            return .where(point: try fields.point())
        case .search:
            let point = fields.hasPoint() ? try fields.point() : nil
            return .search(text: try fields.searchText(), point: point, kind: try fields.kind(), region: try fields.region(),
                           limit: try fields.integer(.limit, in: 0...Int(Int32.max)))
        case .check:
            return .check(at: try fields.position(), region: try fields.region(), previous: try fields.previous())
        case .along:
            let path = try fields.path()
            guard let meters = try fields.distance(.meters) else { throw RequestError(.badRequest, "meters is missing") }
            guard meters <= maximumCorridor else {
                throw RequestError(.badRequest, "meters must be at most \(Int(maximumCorridor)) for along, got \(meters)")
            }
            return .along(path: path, meters: meters, kind: try fields.kind(), region: try fields.region(),
                          limit: try fields.integer(.limit, in: 0...Int(Int32.max)), output: try fields.output())
        case .get:
            guard let id = try fields.string(.id), !id.isEmpty else { throw RequestError(.badRequest, "id is missing") }
            return .get(id: id)
        case .stats:
            return .stats
        case .sources:
            return .sources
        case .health:
            return .health
        case .refresh:
            return .refresh(wait: try fields.bool(.wait) ?? false, force: try fields.bool(.force) ?? false)
        case .metrics:
            return .metrics
        case .crowd:
            return .crowd(view: fields.hasBox() ? try fields.box() : nil)
        }
    }

    /// Every operation's name, in the order `RequestOperation.index` numbers them (for counting).
    public static var operationNames: [String] { RequestOperation.names }
}

extension Request {
    /// The request line that asks this request (without its newline): what areasctl sends and
    /// what the tests ask. A filter left at its default is left out, so the parser reads the
    /// line back as this very request.
    public var line: [UInt8] {
        var writer = JSONWriter(capacity: 128)
        write(into: &writer)
        return writer.bytes
    }

    public func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("op"); writer.string(operation.name)
        for (field, value) in values {
            writer.key(escaping: field.name)
            value.write(into: &writer)
        }
        writer.endObject()
    }

    /// The fields this request gives, in the order its line and its HTTP target write them;
    /// a filter at its default and an absent option are left out. Every encoding of a request
    /// (the line, the HTTP target) writes these.
    public var values: [(RequestField, RequestValue)] {
        var values: [(RequestField, RequestValue)] = []
        func add(_ field: RequestField, _ value: RequestValue?) {
            if let value { values.append((field, value)) }
        }
        func point(_ point: GeoPoint) {
            add(.lat, .number(point.latitude))
            add(.lon, .number(point.longitude))
        }
        func position(_ position: QueryPosition) {
            switch position {
            case .point(let at): point(at)
            case .named(let text): add(.q, .text(text))
            }
        }
        func box(_ box: GeoBox) {
            add(.south, .number(box.south))
            add(.west, .number(box.west))
            add(.north, .number(box.north))
            add(.east, .number(box.east))
        }
        func regionFields(_ region: Region) {
            add(.province, region.province.map(RequestValue.text))
            add(.district, region.district.map(RequestValue.text))
        }
        func filters(_ kind: KindFilter, _ region: Region, _ output: OutputMode) {
            if kind != .all { add(.kind, .text(kind.rawValue)) }
            regionFields(region)
            if output != .full { add(.output, .text(output.rawValue)) }
        }
        switch self {
        case .near(let at, let k, let maxMeters, let kind, let inRegion, let output):
            position(at)
            add(.k, .integer(k))
            add(.maxMeters, maxMeters.map(RequestValue.number))
            filters(kind, inRegion, output)
        case .radius(let at, let meters, let kind, let inRegion, let limit, let output):
            position(at)
            add(.meters, .number(meters))
            add(.limit, limit.map(RequestValue.integer))
            filters(kind, inRegion, output)
        case .bbox(let inBox, let kind, let inRegion, let limit, let output):
            box(inBox)
            add(.limit, limit.map(RequestValue.integer))
            filters(kind, inRegion, output)
        case .check(let at, let inRegion, let previous):
            position(at)
            regionFields(inRegion)
            add(.previous, previous.map(RequestValue.point))
        case .clusters(let inBox, let zoom, let kind, let inRegion):
            box(inBox)
            add(.zoom, .integer(zoom))
            filters(kind, inRegion, .full)
        case .where(let at):
            point(at)
        case .search(let text, let at, let kind, let inRegion, let limit):
            add(.q, .text(text))
            if let at { point(at) }
            add(.limit, limit.map(RequestValue.integer))
            filters(kind, inRegion, .full)
        case .along(let path, let meters, let kind, let inRegion, let limit, let output):
            add(.path, .path(path))
            add(.meters, .number(meters))
            add(.limit, limit.map(RequestValue.integer))
            filters(kind, inRegion, output)
        case .get(let id):
            add(.id, .text(id))
        case .crowd(let view):
            if let view { box(view) }
        case .stats, .sources, .health, .metrics:
            break
        case .refresh(let wait, let force):
            add(.wait, .flag(wait))
            add(.force, .flag(force))
        }
        return values
    }
}

/// The operations of the wire protocol (`"op"`): the one list every layer derives from. The
/// request parser dispatches on it, the HTTP router finds its endpoints and their parameters
/// here, areasctl builds its command table from it, and the formatter picks a rendering by
/// `answer`. Each of those switches over it exhaustively, so a new operation that one of them
/// misses does not compile.
public enum RequestOperation: Int, CaseIterable, Sendable {
    case near, radius, bbox, check, along, clusters, `where`, search, get, crowd, stats, sources, health, refresh, metrics

    /// The name a request gives in `op`.
    public var name: String { Self.names[rawValue] }

    public init?(name: String) {
        guard let index = Self.names.firstIndex(of: name) else { return nil }
        self.init(rawValue: index)
    }

    static let names = allCases.map { String(describing: $0) }
    /// Names as bytes, to match `op` without making a string.
    static let utf8Names: [[UInt8]] = names.map { Array($0.utf8) }

    /// The members a request of this operation reads besides `op`, in the order areasctl and
    /// the HTTP router write them.
    public var fields: [RequestField] {
        let filters: [RequestField] = [.kind, .province, .district, .output]
        switch self {
        case .near: return [.lat, .lon, .q, .k, .maxMeters] + filters
        case .radius: return [.lat, .lon, .q, .meters, .limit] + filters
        case .bbox: return [.south, .west, .north, .east, .limit] + filters
        case .check: return [.lat, .lon, .q, .previous, .province, .district]
        case .clusters: return [.south, .west, .north, .east, .zoom, .kind, .province, .district]
        case .where: return [.lat, .lon]
        case .search: return [.q, .lat, .lon, .limit, .kind, .province, .district]
        case .along: return [.path, .meters, .limit] + filters
        case .get: return [.id]
        case .crowd: return [.south, .west, .north, .east]
        case .stats, .sources, .health, .metrics: return []
        case .refresh: return [.wait, .force]
        }
    }

    /// The operations that cost upstream quota or change state: only admins may ask them.
    public var isPrivileged: Bool { self == .refresh }

    /// What the answer holds, which decides how a client shows it.
    public enum Answer: Sendable {
        /// A list of areas (`count`, `truncated`, `areas`), each with its distance when there is a query point.
        case areas
        /// Areas in route order, each with `alongMeters` and `sideMeters`.
        case route
        /// One area with every field (`areas` of one).
        case area
        case check
        /// Clusters and single areas of a view.
        case clusters
        /// The regions a point lies in.
        case place
        /// Each hotspot's people density (`hotspots`).
        case crowd
        /// Areas and places found by their text (`areas`, each `matched`, and `places`).
        case search
        case stats
        /// Each source's report and each district's counts.
        case sources
        case health
        case metrics
        case refresh
    }

    public var answer: Answer {
        switch self {
        case .near, .radius, .bbox: return .areas
        case .along: return .route
        case .get: return .area
        case .check: return .check
        case .clusters: return .clusters
        case .where: return .place
        case .crowd: return .crowd
        case .search: return .search
        case .stats: return .stats
        case .sources: return .sources
        case .health: return .health
        case .metrics: return .metrics
        case .refresh: return .refresh
        }
    }

    /// Whether the answer can be drawn as GeoJSON: it lists areas with their positions.
    public var hasGeoJSON: Bool {
        switch answer {
        case .areas, .route, .area, .crowd: return true
        case .check, .clusters, .place, .search, .stats, .sources, .health, .metrics, .refresh: return false
        }
    }

    /// This operation's position in `allCases`, for per-operation counts.
    public var index: Int { rawValue }

    /// The operation named `name`, or the `unknown_op` error listing them all, with the nearest
    /// name when the given one looks like a slip.
    public static func named(_ name: String) throws(RequestError) -> RequestOperation {
        guard let operation = RequestOperation(name: name) else { throw unknown(name) }
        return operation
    }

    static func unknown(_ name: String) -> RequestError {
        let names = allCases.map(\.name)
        let meant = Suggestion.closest(to: name, among: names, maximumDistance: 2).map { "; did you mean \($0)?" } ?? ""
        return RequestError(.unknownOp, "unknown op '\(name)' (expected \(names.dropLast().joined(separator: ", ")) or \(names.last ?? ""))\(meant)")
    }
}
