import AreasCore

extension Request {
    /// The province, district and town a point lies in.
    public struct Where: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "where", summary: "the province, district and town (읍면동) the point lies in, with their codes",
            fields: [.lat, .lon], operands: "LAT LON", operandFields: [.lat, .lon], answerFollowsData: true, mayFailOnData: true)

        public var point: GeoPoint

        public init(point: GeoPoint) { self.point = point }

        init(reading fields: Fields) throws(RequestError) { self.init(point: try fields.point()) }

        public func write(into values: inout RequestValues) { values.point(point) }
    }

    public static func `where`(point: GeoPoint) -> Request { Request(Where(point: point)) }
}

extension RequestOperation {
    public static let `where` = RequestOperation.of(Request.Where.self)
}
