import AreasCore

/// The operations of the wire protocol (`"op"`): the one list every layer derives from. The
/// request parser dispatches on it, the HTTP router finds its endpoints and their parameters
/// here, areasctl builds its command table from it, and the formatter picks a rendering by
/// `answer`. Each of those switches over it exhaustively, so a new operation that one of them
/// misses does not compile.
public enum RequestOperation: Int, CaseIterable, Sendable {
    case near, radius, bbox, check, along, get, stats, health, refresh, metrics

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
        case .near: return [.lat, .lon, .k, .maxMeters] + filters
        case .radius: return [.lat, .lon, .meters, .limit] + filters
        case .bbox: return [.south, .west, .north, .east, .limit] + filters
        case .check: return [.lat, .lon, .province, .district]
        case .along: return [.path, .meters, .limit] + filters
        case .get: return [.id]
        case .stats, .health, .metrics: return []
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
        case stats
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
        case .stats: return .stats
        case .health: return .health
        case .metrics: return .metrics
        case .refresh: return .refresh
        }
    }

    /// Whether the answer can be drawn as GeoJSON: it lists areas with their positions.
    public var hasGeoJSON: Bool {
        switch answer {
        case .areas, .route, .area: return true
        case .check, .stats, .health, .metrics, .refresh: return false
        }
    }

    /// How HTTP asks this operation: a query endpoint whose parameters are `fields`, a
    /// resource whose last path segment is the one field, or not as an ordinary data request.
    public enum Endpoint: Sendable, Equatable {
        case query(path: String)
        case resource(prefix: String, field: RequestField)
        /// Asked through a route of its own (`/healthz`, `/metrics`) or not over HTTP at all.
        case none
    }

    public var endpoint: Endpoint {
        switch self {
        case .near, .radius, .bbox, .check, .along, .stats: return .query(path: "/v1/\(name)")
        case .get: return .resource(prefix: "/v1/areas/", field: .id)
        case .health, .metrics, .refresh: return .none
        }
    }

    /// Whether an HTTP answer may be cached until the data changes (it carries the data's ETag).
    public var answerFollowsData: Bool {
        switch self {
        case .near, .radius, .bbox, .check, .along, .get: return true
        case .stats, .health, .metrics, .refresh: return false
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
