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
