// How HTTP asks each operation and caches its answers: the router and the HTTP front door
// read these, beside the operations' vocabulary in Request.swift.

extension RequestOperation {
    /// How HTTP asks this operation: a query endpoint whose parameters are `fields`, a
    /// resource whose last path segment is the one field, or not as an ordinary data request.
    public enum Endpoint: Sendable, Equatable {
        case query(path: String)
        case resource(prefix: String, field: RequestField)
        /// A path of its own that takes no fields (`/healthz`, `/metrics`), answered in a form
        /// of its own.
        case route(path: String)
        /// Asked on the socket only: the HTTP front door is read-only.
        case socketOnly
    }

    public var endpoint: Endpoint {
        switch self {
        case .near, .radius, .bbox, .check, .along, .clusters, .where, .search, .crowd, .stats, .sources: return .query(path: "/v1/\(name)")
        case .get: return .resource(prefix: "/v1/areas/", field: .id)
        case .health: return .route(path: "/healthz")
        case .metrics: return .route(path: "/metrics")
        case .refresh: return .socketOnly
        }
    }

    /// Whether an HTTP answer may be cached until the data changes (it carries the data's ETag,
    /// which a new administrative map changes too).
    public var answerFollowsData: Bool {
        switch self {
        case .near, .radius, .bbox, .check, .along, .clusters, .where, .search, .get: return true
        case .crowd, .stats, .sources, .health, .metrics, .refresh: return false
        }
    }

    /// Whether an area's answer may carry a hotspot's crowd level, which changes without the
    /// data: its ETag follows the levels too.
    public var answerCarriesCrowd: Bool {
        switch answer {
        case .areas, .route, .area, .check: return true
        case .clusters, .place, .search, .crowd, .stats, .sources, .health, .metrics, .refresh: return false
        }
    }

    /// Whether a request whose fields passed every check may still fail on the data: a `get`
    /// of an id the data lacks, an `along` past the work limit. The others succeed whenever
    /// data is loaded, so an HTTP revalidation of them is answered without running them.
    public var mayFailOnData: Bool {
        switch self {
        case .get, .along, .where, .search: return true
        case .near, .radius, .bbox, .check, .clusters, .crowd, .stats, .sources, .health, .metrics, .refresh: return false
        }
    }
}
