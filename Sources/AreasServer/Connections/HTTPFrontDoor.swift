import AreasIngest
import AreasProtocol
import AreasSystem

/// The HTTP front door's settings and the heads of its answers. The answers themselves come
/// from the same `AreaService.respond` as the line protocol's; this only frames them.
package struct HTTPFrontDoor: Sendable {
    /// `Access-Control-Allow-Origin` on every answer; nil sends none.
    package var allowOrigin: String?
    /// How long a shared cache may keep a data answer (`Cache-Control: public, max-age=`).
    package var maxAgeSeconds: Int
    package var parserLimits: HTTPRequestParser.Limits
    /// The map page's settings: where its scripts are, and its background tiles if any.
    package var map: HTTPConfig
    /// The `Cache-Control` of data answers, made once.
    let cacheControl: String

    package init(allowOrigin: String? = "*", maxAgeSeconds: Int = 60, parserLimits: HTTPRequestParser.Limits = .init(), map: HTTPConfig = HTTPConfig()) {
        self.allowOrigin = allowOrigin
        self.maxAgeSeconds = maxAgeSeconds
        self.parserLimits = parserLimits
        self.map = map
        cacheControl = "public, max-age=\(maxAgeSeconds)"
    }

    /// The status an error answer goes out with.
    static func status(for code: RequestError.Code) -> HTTPStatus {
        switch code {
        case .badRequest, .tooExpensive, .ambiguous: return .badRequest
        case .unknownOp, .notFound: return .notFound
        case .gone: return .gone
        case .tooLarge: return .contentTooLarge
        case .permissionDenied: return .forbidden
        case .unavailable, .busy: return .serviceUnavailable
        case .internal: return .internalServerError
        }
    }

    /// The socket's error code for a request the parser refused.
    static func code(for status: HTTPStatus) -> RequestError.Code {
        switch status {
        case .contentTooLarge, .uriTooLong, .headerFieldsTooLarge: return .tooLarge
        case .serviceUnavailable: return .busy
        case .internalServerError: return .internal
        default: return .badRequest
        }
    }

    /// One answer's head: the status line and the fields, ending in the blank line.
    func head(_ status: HTTPStatus, contentType: String?, contentLength: Int, date: String, close: Bool,
              extra: [(String, String)] = []) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(320)
        func add(_ text: String) { bytes.append(contentsOf: text.utf8) }
        add("HTTP/1.1 \(status.code) \(status.reason)\r\nServer: areasd\r\nDate: ")
        add(date)
        if let contentType { add("\r\nContent-Type: "); add(contentType) }
        if status != .notModified && status != .noContent { add("\r\nContent-Length: "); add(String(contentLength)) }
        if let allowOrigin { add("\r\nAccess-Control-Allow-Origin: "); add(allowOrigin) }
        for (name, value) in extra { add("\r\n"); add(name); add(": "); add(value) }
        if close { add("\r\nConnection: close") }
        add("\r\n\r\n")
        return bytes
    }

    /// A whole error answer closing the connection (`busy` at the door, a refused head): the
    /// socket's error line as the body.
    func errorAnswer(_ error: RequestError, body: [UInt8], status: HTTPStatus? = nil, extra: [(String, String)] = []) -> [UInt8] {
        let status = status ?? Self.status(for: error.code)
        let retry: [(String, String)] = status == .serviceUnavailable ? [("Retry-After", "1")] : []
        return head(status, contentType: "application/json", contentLength: body.count, date: HTTPDate.now(), close: true,
                    extra: [("Cache-Control", "no-store")] + retry + extra) + body
    }
}

/// The `Date` field's text (IMF-fixdate), made once a second per connection.
struct HTTPDate {
    private var second = 0
    private var text = ""

    mutating func current() -> String {
        let now = WallClock.now.seconds
        if now != second {
            second = now
            text = Self.format(now)
        }
        return text
    }

    static func now() -> String { format(WallClock.now.seconds) }

    /// "Tue, 01 Dec 2026 02:05:00 GMT", in English whatever the locale.
    static func format(_ seconds: Int) -> String {
        let time = WallClock.utc(seconds)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[time.weekday]), \(two(time.day)) \(months[time.month - 1]) \(time.year) "
            + "\(two(time.hour)):\(two(time.minute)):\(two(time.second)) GMT"
    }
}
