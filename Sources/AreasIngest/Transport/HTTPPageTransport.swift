/// Fetches a source's pages over HTTP(S), or its one file.
package struct HTTPPageTransport: PageTransport {
    package let baseURL: String
    package let format: SourceFormat
    package let timeoutSeconds: Double
    package let maxPageBytes: Int
    private let serviceKey: String?

    package init(baseURL: String, format: SourceFormat, serviceKey: String?, timeoutSeconds: Double, maxPageBytes: Int = 32 << 20) {
        self.baseURL = baseURL
        self.format = format
        self.serviceKey = serviceKey
        self.timeoutSeconds = timeoutSeconds
        self.maxPageBytes = maxPageBytes
    }

    /// The request URL for a page. The key is percent-encoded exactly once, with everything
    /// but unreserved characters escaped, so `+`, `/` and `=` arrive intact. A file is asked
    /// for as it is, with only the key added.
    package func url(page: Int, size: Int) -> String {
        var parameters: [(String, String)] = []
        switch format {
        case .dataGoKrXML:
            parameters = [("pageNo", "\(page)"), ("numOfRows", "\(size)"), ("type", "xml")]
        case .odcloudJSON:
            parameters = [("page", "\(page)"), ("perPage", "\(size)"), ("returnType", "JSON")]
        case .csv, .jsonRows, .geojson:
            break
        }
        if let serviceKey { parameters.insert(("serviceKey", serviceKey), at: 0) }
        guard !parameters.isEmpty else { return baseURL }
        let query = parameters.map { "\($0.0)=\(HTTPClient.encode($0.1))" }.joined(separator: "&")
        return baseURL + (baseURL.contains("?") ? "&" : "?") + query
    }

    package func fetch(page number: Int, size: Int) async throws(UpstreamError) -> PageResponse? {
        if format.isSingleFile && number > 1 { return nil }
        return try await HTTPClient.get(url(page: number, size: size), timeoutSeconds: timeoutSeconds, maxBytes: maxPageBytes)
    }
}
