extension Request {
    /// The daemon's counters and gauges in the Prometheus text format.
    public struct Metrics: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "metrics", summary: "the daemon's counters in the Prometheus text format (0.0.4)",
            fields: [], endpoint: .route(path: "/metrics"), answerFollowsData: false)

        public init() {}
        init(reading fields: Fields) {}
        public func write(into values: inout RequestValues) {}
    }

    public static let metrics = Request(Metrics())
}

extension RequestOperation {
    public static let metrics = RequestOperation.of(Request.Metrics.self)
}
