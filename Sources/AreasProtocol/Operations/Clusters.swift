import AreasCore

extension Request {
    /// The areas of a view grouped for a map at a Web Mercator zoom.
    public struct Clusters: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "clusters", summary: "the view's areas grouped as a map at --zoom shows them",
            fields: [.south, .west, .north, .east, .zoom, .kind, .province, .district],
            operands: "SOUTH WEST NORTH EAST", operandFields: [.south, .west, .north, .east], answerFollowsData: true)

        public var box: GeoBox
        public var zoom: Int
        public var kind: KindFilter
        public var region: Region

        public init(box: GeoBox, zoom: Int, kind: KindFilter, region: Region) {
            self.box = box; self.zoom = zoom; self.kind = kind; self.region = region
        }

        init(reading fields: Fields) throws(RequestError) {
            let box = try fields.box()
            guard let zoom = try fields.integer(.zoom, in: 0...Request.maximumZoom) else {
                throw RequestError(.badRequest, "zoom is missing: a Web Mercator zoom from 0 to \(Request.maximumZoom)")
            }
            self.init(box: box, zoom: zoom, kind: try fields.kind(), region: try fields.region())
        }

        public func write(into values: inout RequestValues) {
            values.box(box)
            values.add(.zoom, .integer(zoom))
            values.filters(kind, region)
        }
    }

    public static func clusters(box: GeoBox, zoom: Int, kind: KindFilter, region: Region) -> Request {
        Request(Clusters(box: box, zoom: zoom, kind: kind, region: region))
    }
}

extension RequestOperation {
    public static let clusters = RequestOperation.of(Request.Clusters.self)
}
