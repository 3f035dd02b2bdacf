extension Request {
    /// Whether data is loaded, fresh, and every source's last refresh succeeded.
    public struct Health: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "health", summary: "exit 0 only when data is loaded, fresh, and every source's last refresh succeeded",
            fields: [], endpoint: .route(path: "/healthz"), answerFollowsData: false)

        public init() {}
        init(reading fields: Fields) {}
        public func write(into values: inout RequestValues) {}
    }

    public static let health = Request(Health())
}

extension RequestOperation {
    public static let health = RequestOperation.of(Request.Health.self)
}
