import AreasCore

/// The operations of the wire protocol (`"op"`), one per question type, in the order
/// `index` numbers them (for counting). Adding an operation adds its type here; the parser,
/// the HTTP router, the daemon and areasctl find it by this list, and each layer's tests check
/// that it has its part there.
extension RequestOperation {
    static let questions: [any ReadableQuestion.Type] = [
        Request.Near.self, Request.Radius.self, Request.BBox.self, Request.Check.self, Request.Along.self,
        Request.Clusters.self, Request.Where.self, Request.Search.self, Request.Get.self, Request.Crowd.self,
        Request.Changes.self, Request.Stats.self, Request.Sources.self, Request.Health.self, Request.Refresh.self, Request.Metrics.self,
    ]
}

/// One operation: its position in the list of question types.
public struct RequestOperation: Hashable, Sendable, CustomStringConvertible {
    /// This operation's position among `allCases`, for per-operation counts.
    public let index: Int

    private init(index: Int) { self.index = index }

    public static let allCases: [RequestOperation] = questions.indices.map(RequestOperation.init(index:))
    static let descriptors: [OperationDescriptor] = questions.map { $0.descriptor }
    private static let byType: [ObjectIdentifier: Int] = Dictionary(uniqueKeysWithValues: questions.enumerated().map { (ObjectIdentifier($1), $0) })

    /// The operation a question type asks. Every question type is in the list; one that is not
    /// is a mistake in this module, found by the first test that asks it.
    public static func of<Question: OperationQuestion>(_ type: Question.Type) -> RequestOperation {
        guard let index = byType[ObjectIdentifier(type)] else { preconditionFailure("\(type) is not in RequestOperation.questions") }
        return RequestOperation(index: index)
    }

    /// The type of this operation's question.
    public var question: any OperationQuestion.Type { Self.questions[index] }
    var readable: any ReadableQuestion.Type { Self.questions[index] }
    public var descriptor: OperationDescriptor { Self.descriptors[index] }

    /// The name a request gives in `op`.
    // Read in place from the list (never a copy of the whole descriptor): the request path
    // asks some of these of every request.
    public var name: String { Self.descriptors[index].name }
    public var description: String { name }
    public var fields: [RequestField] { Self.descriptors[index].fields }
    public var endpoint: OperationDescriptor.Endpoint { Self.descriptors[index].endpoint }
    public var answerFollowsData: Bool { Self.descriptors[index].answerFollowsData }
    public var answerCarriesCrowd: Bool { Self.descriptors[index].answerCarriesCrowd }
    public var mayFailOnData: Bool { Self.descriptors[index].mayFailOnData }
    public var hasGeoJSON: Bool { Self.descriptors[index].hasGeoJSON }
    public var isPrivileged: Bool { Self.descriptors[index].isPrivileged }

    public init?(name: String) {
        guard let index = Self.names.firstIndex(of: name) else { return nil }
        self.init(index: index)
    }

    init?(rawValue: Int) {
        guard Self.questions.indices.contains(rawValue) else { return nil }
        self.init(index: rawValue)
    }

    static let names = descriptors.map(\.name)
    /// Names as bytes, to match `op` without making a string.
    static let utf8Names: [[UInt8]] = names.map { Array($0.utf8) }

    /// The operation named `name`, or the `unknown_op` error listing them all, with the nearest
    /// name when the given one looks like a slip.
    public static func named(_ name: String) throws(RequestError) -> RequestOperation {
        guard let operation = RequestOperation(name: name) else { throw unknown(name) }
        return operation
    }

    static func unknown(_ name: String) -> RequestError {
        let meant = Suggestion.closest(to: name, among: names, maximumDistance: 2).map { "; did you mean \($0)?" } ?? ""
        return RequestError(.unknownOp, "unknown op '\(name)' (expected \(names.dropLast().joined(separator: ", ")) or \(names.last ?? ""))\(meant)")
    }
}
