/// A raw answer to a page request.
public struct PageResponse: Sendable {
    public var status: Int
    public var body: [UInt8]
    /// The answer's header fields, names lowercased (empty for recorded pages and files).
    public var headers: [String: String]

    public init(status: Int, body: [UInt8], headers: [String: String] = [:]) {
        self.status = status
        self.body = body
        self.headers = headers
    }

    /// The answer's `ETag`, for asking again with `If-None-Match`.
    public var etag: String? { headers["etag"] }
}

/// Where a source's pages come from: the network, or a directory of recorded pages.
public protocol PageTransport: Sendable {
    /// Page `number` (1-based) of `size` rows; nil when there is no such page.
    func fetch(page number: Int, size: Int) async throws(UpstreamError) -> PageResponse?
}
