import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches pages over HTTP(S) with one long-lived `URLSession` for the whole process.
public struct HTTPPageTransport: PageTransport {
    /// Shared by every source: connections are reused and nothing is torn down per refresh.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    public let baseURL: String
    public let format: SourceFormat
    public let timeoutSeconds: Double
    private let serviceKey: String?

    public init(baseURL: String, format: SourceFormat, serviceKey: String?, timeoutSeconds: Double) {
        self.baseURL = baseURL
        self.format = format
        self.serviceKey = serviceKey
        self.timeoutSeconds = timeoutSeconds
    }

    /// The request URL for a page. The key is percent-encoded exactly once, with everything
    /// but unreserved characters escaped, so `+`, `/` and `=` arrive intact.
    public func url(page: Int, size: Int) -> String {
        var parameters: [(String, String)] = []
        switch format {
        case .dataGoKrXML:
            parameters = [("pageNo", "\(page)"), ("numOfRows", "\(size)"), ("type", "xml")]
        case .odcloudJSON:
            parameters = [("page", "\(page)"), ("perPage", "\(size)"), ("returnType", "JSON")]
        }
        if let serviceKey { parameters.insert(("serviceKey", serviceKey), at: 0) }
        let query = parameters.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&")
        return baseURL + (baseURL.contains("?") ? "&" : "?") + query
    }

    static func encode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    public func fetch(page number: Int, size: Int) async throws(UpstreamError) -> PageResponse? {
        guard let url = URL(string: url(page: number, size: size)) else {
            throw .transport("cannot form a URL from \(baseURL)")
        }
        var request = URLRequest(url: url)
        request.timeoutInterval = timeoutSeconds
        let result: Result<PageResponse, UpstreamError> = await withCheckedContinuation { continuation in
            let task = Self.session.dataTask(with: request) { data, response, error in
                if let error {
                    // Never echo the URL: it holds the service key.
                    let nsError = error as NSError
                    let why = nsError.code == NSURLErrorTimedOut ? "timed out after \(timeoutSeconds) s" : "\(nsError.localizedDescription) (code \(nsError.code))"
                    continuation.resume(returning: .failure(.transport(why)))
                    return
                }
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                continuation.resume(returning: .success(PageResponse(status: status, body: [UInt8](data ?? Data()))))
            }
            task.resume()
        }
        return try result.get()
    }
}
