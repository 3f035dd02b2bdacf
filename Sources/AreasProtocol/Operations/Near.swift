import AreasCore

extension Request {
    /// The nearest areas, nearest first.
    public struct Near: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "near", summary: "the nearest areas, nearest first (-k, default 10)",
            fields: [.lat, .lon, .q, .k, .maxMeters] + OperationDescriptor.filters, operands: "LAT LON", operandFields: [.lat, .lon],
            answerFollowsData: true, answerCarriesCrowd: true, hasGeoJSON: true)

        public var at: QueryPosition
        public var k: Int
        public var maxMeters: Double?
        public var kind: KindFilter
        public var region: Region
        public var output: OutputMode

        public init(at: QueryPosition, k: Int, maxMeters: Double?, kind: KindFilter, region: Region, output: OutputMode) {
            self.at = at; self.k = k; self.maxMeters = maxMeters; self.kind = kind; self.region = region; self.output = output
        }

        init(reading fields: Fields) throws(RequestError) {
            self.init(at: try fields.position(), k: try fields.integer(.k, in: 0...Request.maximumK) ?? 10, maxMeters: try fields.distance(.maxMeters),
                      kind: try fields.kind(), region: try fields.region(), output: try fields.output())
        }

        public func write(into values: inout RequestValues) {
            values.position(at)
            values.add(.k, .integer(k))
            values.add(.maxMeters, maxMeters.map(RequestValue.number))
            values.filters(kind, region, output)
        }
    }

    public static func near(at: QueryPosition, k: Int, maxMeters: Double?, kind: KindFilter, region: Region, output: OutputMode) -> Request {
        Request(Near(at: at, k: k, maxMeters: maxMeters, kind: kind, region: region, output: output))
    }

    /// A `near` from a position.
    public static func near(point: GeoPoint, k: Int, maxMeters: Double?, kind: KindFilter, region: Region, output: OutputMode) -> Request {
        near(at: .point(point), k: k, maxMeters: maxMeters, kind: kind, region: region, output: output)
    }
}

extension RequestOperation {
    public static let near = RequestOperation.of(Request.Near.self)
}
