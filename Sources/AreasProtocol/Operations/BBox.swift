import AreasCore

extension Request {
    /// Every area inside a box, in id order.
    public struct BBox: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "bbox", summary: "every area inside the box, in id order",
            fields: [.south, .west, .north, .east, .limit] + OperationDescriptor.filters,
            operands: "SOUTH WEST NORTH EAST", operandFields: [.south, .west, .north, .east],
            answerFollowsData: true, answerCarriesCrowd: true, hasGeoJSON: true)

        public var box: GeoBox
        public var kind: KindFilter
        public var region: Region
        public var limit: Int?
        public var output: OutputMode

        public init(box: GeoBox, kind: KindFilter, region: Region, limit: Int?, output: OutputMode) {
            self.box = box; self.kind = kind; self.region = region; self.limit = limit; self.output = output
        }

        init(reading fields: Fields) throws(RequestError) {
            self.init(box: try fields.box(), kind: try fields.kind(), region: try fields.region(), limit: try fields.limit(), output: try fields.output())
        }

        public func write(into values: inout RequestValues) {
            values.box(box)
            values.add(.limit, limit.map(RequestValue.integer))
            values.filters(kind, region, output)
        }
    }

    public static func bbox(box: GeoBox, kind: KindFilter, region: Region, limit: Int?, output: OutputMode) -> Request {
        Request(BBox(box: box, kind: kind, region: region, limit: limit, output: output))
    }
}

extension RequestOperation {
    public static let bbox = RequestOperation.of(Request.BBox.self)
}
