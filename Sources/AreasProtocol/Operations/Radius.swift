import AreasCore

extension Request {
    /// Every area within `meters`, nearest first.
    public struct Radius: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "radius", summary: "every area within METERS, nearest first",
            fields: [.lat, .lon, .q, .meters, .limit] + OperationDescriptor.filters, operands: "LAT LON METERS", operandFields: [.lat, .lon, .meters],
            answerFollowsData: true, answerCarriesCrowd: true, hasGeoJSON: true)

        public var at: QueryPosition
        public var meters: Double
        public var kind: KindFilter
        public var region: Region
        public var limit: Int?
        public var output: OutputMode

        public init(at: QueryPosition, meters: Double, kind: KindFilter, region: Region, limit: Int?, output: OutputMode) {
            self.at = at; self.meters = meters; self.kind = kind; self.region = region; self.limit = limit; self.output = output
        }

        init(reading fields: Fields) throws(RequestError) {
            let at = try fields.position()
            guard let meters = try fields.distance(.meters) else { throw RequestError(.badRequest, "meters is missing") }
            self.init(at: at, meters: meters, kind: try fields.kind(), region: try fields.region(), limit: try fields.limit(), output: try fields.output())
        }

        public func write(into values: inout RequestValues) {
            values.position(at)
            values.add(.meters, .number(meters))
            values.add(.limit, limit.map(RequestValue.integer))
            values.filters(kind, region, output)
        }
    }

    public static func radius(at: QueryPosition, meters: Double, kind: KindFilter, region: Region, limit: Int?, output: OutputMode) -> Request {
        Request(Radius(at: at, meters: meters, kind: kind, region: region, limit: limit, output: output))
    }

    /// A `radius` from a position.
    public static func radius(point: GeoPoint, meters: Double, kind: KindFilter, region: Region, limit: Int?, output: OutputMode) -> Request {
        radius(at: .point(point), meters: meters, kind: kind, region: region, limit: limit, output: output)
    }
}

extension RequestOperation {
    public static let radius = RequestOperation.of(Request.Radius.self)
}
