import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// GET requests over HTTP(S) with one long-lived `URLSession` for the whole process: pages,
/// files and geocoder questions all share its connections, and nothing is torn down per refresh.
public enum HTTPClient {
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    /// The status and body of `GET url`. A body larger than `maxBytes` is refused as too large.
    /// Errors never echo the URL: it may hold a service key.
    public static func get(_ url: String, headers: [(String, String)] = [], timeoutSeconds: Double, maxBytes: Int) async throws(UpstreamError) -> PageResponse {
        guard let target = URL(string: url) else { throw .transport("cannot form a URL from the configured address") }
        var request = URLRequest(url: target)
        request.timeoutInterval = timeoutSeconds
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let result: Result<PageResponse, UpstreamError> = await withCheckedContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    let nsError = error as NSError
                    let why = nsError.code == NSURLErrorTimedOut ? "timed out after \(timeoutSeconds) s" : "\(nsError.localizedDescription) (code \(nsError.code))"
                    continuation.resume(returning: .failure(.transport(why)))
                    return
                }
                let body = data ?? Data()
                guard body.count <= maxBytes else {
                    continuation.resume(returning: .failure(.tooLarge(bytes: body.count, limit: maxBytes)))
                    return
                }
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                continuation.resume(returning: .success(PageResponse(status: status, body: [UInt8](body))))
            }
            task.resume()
        }
        return try result.get()
    }

    /// `value` percent-encoded with everything but unreserved characters escaped, so `+`, `/`,
    /// `=` and Korean text arrive intact.
    public static func encode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
