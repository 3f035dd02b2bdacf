/// A raw answer to a page request.
public struct PageResponse: Sendable {
    public var status: Int
    public var body: [UInt8]

    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}

/// Where a source's pages come from: the network, or a directory of recorded pages.
public protocol PageTransport: Sendable {
    /// Page `number` (1-based) of `size` rows; nil when there is no such page.
    func fetch(page number: Int, size: Int) async throws(UpstreamError) -> PageResponse?
}
