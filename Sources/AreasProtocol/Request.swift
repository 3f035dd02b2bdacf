import AreasCore

/// One request of the wire protocol (version 1), validated.
public enum Request: Sendable, Equatable {
    case near(point: GeoPoint, k: Int, maxMeters: Double?, kind: KindFilter, region: Region, output: OutputMode)
    case radius(point: GeoPoint, meters: Double, kind: KindFilter, region: Region, limit: Int?, output: OutputMode)
    case bbox(box: GeoBox, kind: KindFilter, region: Region, limit: Int?, output: OutputMode)
    /// May I smoke here: the zones the point is in, and the nearest smoking area.
    case check(point: GeoPoint, region: Region)
    /// Areas within `meters` of a route, in route order.
    case along(path: [GeoPoint], meters: Double, kind: KindFilter, region: Region, limit: Int?, output: OutputMode)
    case get(id: String)
    case stats
    case health
    case refresh(wait: Bool, force: Bool)
    /// The daemon's counters and gauges in the Prometheus text format.
    case metrics

    /// The operations that cost upstream quota or change state: only admins may ask them.
    public var isPrivileged: Bool { operation.isPrivileged }

    public var operation: RequestOperation {
        switch self {
        case .near: return .near
        case .radius: return .radius
        case .bbox: return .bbox
        case .check: return .check
        case .along: return .along
        case .get: return .get
        case .stats: return .stats
        case .health: return .health
        case .refresh: return .refresh
        case .metrics: return .metrics
        }
    }
}

extension Request {
    /// The largest `k` a near query may ask for.
    public static let maximumK = 10_000
    /// The most points a route may have.
    public static let maximumPathPoints = 1_000
    /// The widest corridor along a route, in meters.
    public static let maximumCorridor = 50_000.0

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
            let point = try fields.point()
            let k = try fields.integer(.k, in: 0...maximumK) ?? 10
            let maxMeters = try fields.distance(.maxMeters)
            return .near(point: point, k: k, maxMeters: maxMeters, kind: try fields.kind(), region: try fields.region(), output: try fields.output())
        case .radius:
            let point = try fields.point()
            guard let meters = try fields.distance(.meters) else { throw RequestError(.badRequest, "meters is missing") }
            return .radius(point: point, meters: meters, kind: try fields.kind(), region: try fields.region(),
                           limit: try fields.integer(.limit, in: 0...Int(Int32.max)), output: try fields.output())
        case .bbox:
            let south = try fields.coordinate(.south, range: -90...90)
            let west = try fields.coordinate(.west, range: -180...180)
            let north = try fields.coordinate(.north, range: -90...90)
            let east = try fields.coordinate(.east, range: -180...180)
            guard south <= north else { throw RequestError(.badRequest, "south (\(south)) must not be above north (\(north))") }
            guard west <= east else { throw RequestError(.badRequest, "west (\(west)) must not be east of east (\(east))") }
            let box = GeoBox(uncheckedSouth: south, west: west, north: north, east: east)
            return .bbox(box: box, kind: try fields.kind(), region: try fields.region(),
                         limit: try fields.integer(.limit, in: 0...Int(Int32.max)), output: try fields.output())
        case .check:
            return .check(point: try fields.point(), region: try fields.region())
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
        case .health:
            return .health
        case .refresh:
            return .refresh(wait: try fields.bool(.wait) ?? false, force: try fields.bool(.force) ?? false)
        case .metrics:
            return .metrics
        }
    }

    /// Every operation's name, in the order `RequestOperation.index` numbers them (for counting).
    public static let operationNames = RequestOperation.allCases.map(\.name)
}
