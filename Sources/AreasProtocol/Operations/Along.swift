import AreasCore

extension Request {
    /// Areas within `meters` of a route, in route order.
    public struct Along: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "along", summary: "every area along a route, in route order",
            fields: [.path, .meters, .limit] + OperationDescriptor.filters, operands: "LAT,LON LAT,LON ...", operandFields: [.path],
            answerFollowsData: true, answerCarriesCrowd: true, mayFailOnData: true, hasGeoJSON: true)

        public var path: [GeoPoint]
        public var meters: Double
        public var kind: KindFilter
        public var region: Region
        public var limit: Int?
        public var output: OutputMode

        public init(path: [GeoPoint], meters: Double, kind: KindFilter, region: Region, limit: Int?, output: OutputMode) {
            self.path = path; self.meters = meters; self.kind = kind; self.region = region; self.limit = limit; self.output = output
        }

        init(reading fields: Fields) throws(RequestError) {
            let path = try fields.path()
            guard let meters = try fields.distance(.meters) else { throw RequestError(.badRequest, "meters is missing") }
            guard meters <= Request.maximumCorridor else {
                throw RequestError(.badRequest, "meters must be at most \(Int(Request.maximumCorridor)) for along, got \(meters)")
            }
            self.init(path: path, meters: meters, kind: try fields.kind(), region: try fields.region(), limit: try fields.limit(), output: try fields.output())
        }

        public func write(into values: inout RequestValues) {
            values.add(.path, .path(path))
            values.add(.meters, .number(meters))
            values.add(.limit, limit.map(RequestValue.integer))
            values.filters(kind, region, output)
        }
    }

    public static func along(path: [GeoPoint], meters: Double, kind: KindFilter, region: Region, limit: Int?, output: OutputMode) -> Request {
        Request(Along(path: path, meters: meters, kind: kind, region: region, limit: limit, output: output))
    }
}

extension RequestOperation {
    public static let along = RequestOperation.of(Request.Along.self)
}
