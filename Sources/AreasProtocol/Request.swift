import AreasCore

// A request of the wire protocol: how a line (or an HTTP query's parameters) is read into one,
// and how it writes its line. The operations' questions are in Operations/, one file each.

/// One request of the wire protocol (version 1), validated: an operation's question. Each
/// operation's question is a type of its own (`Request.Near`, ...), in a file of its own under
/// Operations/.
public struct Request: Sendable, Equatable {
    /// The longest request line the daemon reads, newline excluded: past it the line is
    /// refused as `too_large`.
    public static let maxLineBytes = 64 * 1024

    public let operation: RequestOperation
    /// The question, of the type `operation.question` names.
    public let question: any OperationQuestion

    public init<Question: OperationQuestion>(_ question: Question) {
        self.init(question, RequestOperation.of(Question.self))
    }

    init(_ question: any OperationQuestion, _ operation: RequestOperation) {
        self.question = question
        self.operation = operation
    }

    public static func == (lhs: Request, rhs: Request) -> Bool {
        lhs.operation == rhs.operation && lhs.question.isEqual(to: rhs.question)
    }

    /// The operations that cost upstream quota or change state: only admins may ask them.
    public var isPrivileged: Bool { operation.isPrivileged }
}

/// Where a question is asked from: a position, or a name the daemon finds as `search` does
/// (`q`), answered with where it found it (`at`).
public enum QueryPosition: Sendable, Equatable {
    case point(GeoPoint)
    case named(String)

    /// The position, when the question gave one.
    public var point: GeoPoint? {
        if case .point(let point) = self { return point }
        return nil
    }
}

extension Request {
    /// The largest `k` a near query may ask for.
    public static let maximumK = 10_000
    /// The most points a route may have.
    public static let maximumPathPoints = 1_000
    /// The widest corridor along a route, in meters.
    public static let maximumCorridor = 50_000.0
    /// The deepest Web Mercator zoom a map asks for.
    public static let maximumZoom = 22
    /// The longest distance a request may name: half the Earth's circumference, about.
    public static let maximumMeters = 20_100_000.0
    /// The longest text a search may give, in bytes: far more than any name or address.
    public static let maximumSearchBytes = 256

    /// Parses one request line (without its newline).
    public static func parse(_ line: UnsafeBufferPointer<UInt8>) throws(RequestError) -> Request {
        try withFields { (fields) throws(RequestError) in
            do {
                if let other = try JSONParser.forEachMember(of: line, { name, value in fields.set(name, value) }) {
                    throw RequestError(.badRequest, "a request must be a JSON object, got \(other.typeName)")
                }
            } catch let error as RequestError {
                throw error
            } catch {
                throw RequestError(.badRequest, "\(error)")
            }
            guard let operation = try fields.operation() else { throw RequestError(.badRequest, "op is missing") }
            return try make(operation, from: fields)
        }
    }

    public static func parse(_ line: [UInt8]) throws(RequestError) -> Request {
        let result: Result<Request, RequestError> = line.withUnsafeBufferPointer { buffer in
            do throws(RequestError) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// A request of `operation` from values given by field (an HTTP query's parameters), read
    /// with the same checks and messages as a request line's members.
    public static func make(_ operation: RequestOperation, values: [(RequestField, JSONValue)]) throws(RequestError) -> Request {
        try withFields { (fields) throws(RequestError) in
            for (field, value) in values { fields.set(field, value) }
            return try make(operation, from: fields)
        }
    }

    /// Lends `body` the members' slots, on the stack: no tree of the request, no member list,
    /// no allocation.
    private static func withFields(_ body: (inout Fields) throws(RequestError) -> Request) throws(RequestError) -> Request {
        let result: Result<Request, RequestError> = withUnsafeTemporaryAllocation(of: Fields.Slot.self, capacity: Fields.Key.count) { slots in
            slots.initialize(repeating: .absent)
            var fields = Fields(slots: slots)
            do throws(RequestError) { return .success(try body(&fields)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private static func make(_ operation: RequestOperation, from fields: Fields) throws(RequestError) -> Request {
        Request(try operation.readable.init(reading: fields), operation)
    }

    /// Every operation's name, in the order `RequestOperation.index` numbers them (for counting).
    public static var operationNames: [String] { RequestOperation.names }
}

extension Request {
    /// The request line that asks this request (without its newline): what areasctl sends and
    /// what the tests ask. A filter left at its default is left out, so the parser reads the
    /// line back as this very request.
    public var line: [UInt8] {
        var writer = JSONWriter(capacity: 128)
        write(into: &writer)
        return writer.bytes
    }

    public func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("op"); writer.string(operation.name)
        for (field, value) in values {
            writer.key(escaping: field.name)
            value.write(into: &writer)
        }
        writer.endObject()
    }

    /// The fields this request gives, in the order its line and its HTTP target write them;
    /// a filter at its default and an absent option are left out. Every encoding of a request
    /// (the line, the HTTP target) writes these.
    public var values: [(RequestField, RequestValue)] {
        var values = RequestValues()
        question.write(into: &values)
        return values.list
    }
}
