extension Request {
    /// Fetch every source now; with `wait`, answer with the refresh's report.
    public struct Refresh: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "refresh", summary: "fetch every source now and wait for the result, one line per source",
            fields: [.wait, .force], endpoint: .socketOnly, answerFollowsData: false, isPrivileged: true)

        public var wait: Bool
        public var force: Bool

        public init(wait: Bool, force: Bool) { self.wait = wait; self.force = force }

        init(reading fields: Fields) throws(RequestError) {
            self.init(wait: try fields.bool(.wait) ?? false, force: try fields.bool(.force) ?? false)
        }

        public func write(into values: inout RequestValues) {
            values.add(.wait, .flag(wait))
            values.add(.force, .flag(force))
        }
    }

    public static func refresh(wait: Bool, force: Bool) -> Request { Request(Refresh(wait: wait, force: force)) }
}

extension RequestOperation {
    public static let refresh = RequestOperation.of(Request.Refresh.self)
}
