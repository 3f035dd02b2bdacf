extension Request {
    /// Totals by kind, source and province, each source's last refresh, memory.
    public struct Stats: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "stats", summary: "totals by kind, source and province, each source's last refresh, memory", fields: [], answerFollowsData: false)

        public init() {}
        init(reading fields: Fields) {}
        public func write(into values: inout RequestValues) {}
    }

    public static let stats = Request(Stats())
}

extension RequestOperation {
    public static let stats = RequestOperation.of(Request.Stats.self)
}
