import AreasCore

extension Request {
    /// May I smoke here: the zones the point is in, and the nearest smoking area; with the
    /// position before, the zones entered and left on the way.
    public struct Check: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "check", summary: "may I smoke here? the zones holding the point and the nearest smoking area",
            fields: [.lat, .lon, .q, .previous, .province, .district], operands: "LAT LON", operandFields: [.lat, .lon],
            answerFollowsData: true, answerCarriesCrowd: true)

        public var at: QueryPosition
        public var region: Region
        public var previous: GeoPoint?

        public init(at: QueryPosition, region: Region, previous: GeoPoint? = nil) {
            self.at = at; self.region = region; self.previous = previous
        }

        init(reading fields: Fields) throws(RequestError) {
            self.init(at: try fields.position(), region: try fields.region(), previous: try fields.previous())
        }

        public func write(into values: inout RequestValues) {
            values.position(at)
            values.region(region)
            values.add(.previous, previous.map(RequestValue.point))
        }
    }

    public static func check(at: QueryPosition, region: Region, previous: GeoPoint? = nil) -> Request {
        Request(Check(at: at, region: region, previous: previous))
    }

    /// A `check` at a position.
    public static func check(point: GeoPoint, region: Region, previous: GeoPoint? = nil) -> Request {
        check(at: .point(point), region: region, previous: previous)
    }
}

extension RequestOperation {
    public static let check = RequestOperation.of(Request.Check.self)
}
