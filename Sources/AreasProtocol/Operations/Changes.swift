extension Request {
    /// What appeared, changed and vanished since a data version: applied to that version's
    /// areas, the answer gives the current ones.
    public struct Changes: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "changes", summary: "what appeared, changed and vanished since a data version (default: the one before the current)",
            fields: [.since], answerFollowsData: true, mayFailOnData: true)

        /// The version to count from; nil: the one before the current.
        public var since: String?

        public init(since: String? = nil) { self.since = since }

        init(reading fields: Fields) throws(RequestError) {
            let since = try fields.string(.since)
            guard since.map({ !$0.isEmpty && $0.utf8.count <= 64 }) ?? true else {
                throw RequestError(.badRequest, "since must be a data version as health names it (\"version\"), or left out for the one before the current")
            }
            self.init(since: since)
        }

        public func write(into values: inout RequestValues) { values.add(.since, since.map { .text($0) }) }
    }

    public static func changes(since: String? = nil) -> Request { Request(Changes(since: since)) }
}

extension RequestOperation {
    public static let changes = RequestOperation.of(Request.Changes.self)
}
