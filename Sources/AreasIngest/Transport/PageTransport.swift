/// A raw answer to a page request.
package struct PageResponse: Sendable {
    package var status: Int
    package var body: [UInt8]
    /// The answer's header fields, names lowercased (empty for recorded pages and files).
    package var headers: [String: String]

    package init(status: Int, body: [UInt8], headers: [String: String] = [:]) {
        self.status = status
        self.body = body
        self.headers = headers
    }

    /// The answer's `ETag`, for asking again with `If-None-Match`.
    package var etag: String? { headers["etag"] }
}

/// Where a source's pages come from: the network, or a directory of recorded pages.
package protocol PageTransport: Sendable {
    /// Page `number` (1-based) of `size` rows; nil when there is no such page.
    func fetch(page number: Int, size: Int) async throws(UpstreamError) -> PageResponse?
}
