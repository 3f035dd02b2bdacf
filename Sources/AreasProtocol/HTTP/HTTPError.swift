/// Why a request cannot be served, as the status to answer with. Every one of them closes the
/// connection after the answer: after a malformed head the server cannot know where the next
/// request would begin, which is what request smuggling exploits.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: HTTPStatus
    public var message: String

    public init(_ status: HTTPStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { "\(status.code) \(status.reason): \(message)" }
}

/// The statuses the server answers with.
public enum HTTPStatus: Int, Sendable, Equatable {
    case ok = 200
    case noContent = 204
    case notModified = 304
    case badRequest = 400
    case forbidden = 403
    case notFound = 404
    case methodNotAllowed = 405
    case requestTimeout = 408
    case gone = 410
    case contentTooLarge = 413
    case uriTooLong = 414
    case headerFieldsTooLarge = 431
    case internalServerError = 500
    case notImplemented = 501
    case serviceUnavailable = 503
    case versionNotSupported = 505

    public var code: Int { rawValue }

    public var reason: String {
        switch self {
        case .ok: return "OK"
        case .noContent: return "No Content"
        case .notModified: return "Not Modified"
        case .badRequest: return "Bad Request"
        case .forbidden: return "Forbidden"
        case .notFound: return "Not Found"
        case .methodNotAllowed: return "Method Not Allowed"
        case .requestTimeout: return "Request Timeout"
        case .gone: return "Gone"
        case .contentTooLarge: return "Content Too Large"
        case .uriTooLong: return "URI Too Long"
        case .headerFieldsTooLarge: return "Request Header Fields Too Large"
        case .internalServerError: return "Internal Server Error"
        case .notImplemented: return "Not Implemented"
        case .serviceUnavailable: return "Service Unavailable"
        case .versionNotSupported: return "HTTP Version Not Supported"
        }
    }
}
