/// A request refused before it ran: the wire code and a message naming the field.
public struct RequestError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        case badRequest = "bad_request"
        case unknownOp = "unknown_op"
        case tooLarge = "too_large"
        case notFound = "not_found"
        case permissionDenied = "permission_denied"
        case unavailable
        case busy
        /// A valid request that would cost more than one request may; the message says what to narrow.
        case tooExpensive = "too_expensive"
        /// A place name several places share, asked from without a position: the message lists
        /// them with their provinces and says how to name one.
        case ambiguous
        /// A page or a version asked for that is no longer served (a cursor from before a
        /// refresh): the message says to start again.
        case gone
        case `internal`
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

extension RequestError {
    /// A request line past the protocol's limit (`Request.maxLineBytes`), in the words the
    /// daemon and areasctl both use; `consequence` says what became of it.
    public static func lineTooLong(_ limit: Int, _ consequence: String) -> RequestError {
        RequestError(.tooLarge, "request line longer than \(limit) bytes; \(consequence)")
    }

    /// The error's answer line, as every front door writes it:
    /// `{"ok":false,"error":{"code":"…","message":"…"}}`.
    public func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(.ok); writer.bool(false)
        writer.key(.error)
        writer.beginObject()
        writer.key(.code); writer.string(code.rawValue)
        writer.key(.message); writer.string(message)
        writer.endObject()
        writer.endObject()
    }
}
