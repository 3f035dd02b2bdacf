extension Request {
    /// What appeared, changed and vanished since a data version: applied to that version's
    /// areas, the answer gives the current ones. Past `maxResults` a page ends with `next`, the
    /// `cursor` that asks for the page after it.
    public struct Changes: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "changes", summary: "what appeared, changed and vanished since a data version (default: the one before the current)",
            fields: [.since, .cursor], answerFollowsData: true, mayFailOnData: true)

        /// The version to count from; nil: the one before the current.
        public var since: String?
        /// Where the last page ended (its `next`); nil: the first page.
        public var cursor: String?

        public init(since: String? = nil, cursor: String? = nil) {
            self.since = since
            self.cursor = cursor
        }

        init(reading fields: Fields) throws(RequestError) {
            let since = try fields.string(.since)
            guard since.map({ !$0.isEmpty && $0.utf8.count <= 64 }) ?? true else {
                throw RequestError(.badRequest, "since must be a data version as health names it (\"version\"), or left out for the one before the current")
            }
            let cursor = try fields.string(.cursor)
            guard cursor.map({ !$0.isEmpty && $0.utf8.count <= 512 }) ?? true else {
                throw RequestError(.badRequest, "cursor must be the \"next\" of the page before, or left out for the first page")
            }
            self.init(since: since, cursor: cursor)
        }

        public func write(into values: inout RequestValues) {
            values.add(.since, since.map { .text($0) })
            values.add(.cursor, cursor.map { .text($0) })
        }
    }

    public static func changes(since: String? = nil, cursor: String? = nil) -> Request { Request(Changes(since: since, cursor: cursor)) }
}

extension RequestOperation {
    public static let changes = RequestOperation.of(Request.Changes.self)
}
