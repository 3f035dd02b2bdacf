extension Request {
    /// What each source gave, and each district's counts.
    public struct Sources: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "sources", summary: "what each source gave (rows, accepted, rejected, merged, dates) and each district's areas",
            fields: [], answerFollowsData: false)

        public init() {}
        init(reading fields: Fields) {}
        public func write(into values: inout RequestValues) {}
    }

    public static let sources = Request(Sources())
}

extension RequestOperation {
    public static let sources = RequestOperation.of(Request.Sources.self)
}
