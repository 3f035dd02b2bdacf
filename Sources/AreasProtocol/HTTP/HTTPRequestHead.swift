import AreasCore

/// A parsed HTTP/1.x request head: what the server needs of it, already checked.
public struct HTTPRequestHead: Sendable, Equatable {
    public enum Method: String, Sendable { case get = "GET", head = "HEAD", options = "OPTIONS" }

    /// GET, HEAD or OPTIONS; any other method is refused while parsing (405).
    public var method: Method
    /// The request target's path, percent-decoded ("/v1/areas/yongsan:02").
    public var path: String
    /// The query's parameters in order, `+` and percent escapes decoded.
    public var query: [(name: String, value: String)]
    /// 1 for HTTP/1.1, 0 for HTTP/1.0.
    public var minorVersion: Int
    /// Header fields in order, names lowercased, values trimmed.
    public private(set) var headers: [(name: String, value: String)]
    /// Whether the connection stays open after the answer: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    public private(set) var keepAlive: Bool

    public init(method: Method, path: String, query: [(name: String, value: String)], minorVersion: Int, headers: [(name: String, value: String)]) {
        self.method = method
        self.path = path
        self.query = query
        self.minorVersion = minorVersion
        self.headers = headers
        self.keepAlive = Self.keepAlive(minorVersion: minorVersion, headers: headers)
    }

    mutating func setHeaders(_ fields: [(name: String, value: String)]) {
        headers = fields
        keepAlive = Self.keepAlive(minorVersion: minorVersion, headers: fields)
    }

    /// The value of the one header `name` (lowercase), or nil.
    public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

    static func keepAlive(minorVersion: Int, headers: [(name: String, value: String)]) -> Bool {
        var close = false
        var keep = false
        for field in headers where field.name == "connection" {
            for token in field.value.lowercased().split(separator: ",") {
                switch String(token).trimmed {
                case "close": close = true
                case "keep-alive": keep = true
                default: break
                }
            }
        }
        return !close && (minorVersion >= 1 || keep)
    }

    public static func == (a: HTTPRequestHead, b: HTTPRequestHead) -> Bool {
        a.method == b.method && a.path == b.path && a.minorVersion == b.minorVersion
            && a.query.elementsEqual(b.query, by: { $0 == $1 }) && a.headers.elementsEqual(b.headers, by: { $0 == $1 })
    }
}
