import AreasCore

extension Request {
    /// Areas and places whose name or address holds every word of `text`.
    public struct Search: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "search", summary: "areas and places whose name or address holds every word of TEXT, best match first",
            fields: [.q, .lat, .lon, .limit, .kind, .province, .district], operands: "TEXT", operandFields: [.q],
            answerFollowsData: true, mayFailOnData: true)

        public var text: String
        public var point: GeoPoint?
        public var kind: KindFilter
        public var region: Region
        public var limit: Int?

        public init(text: String, point: GeoPoint?, kind: KindFilter, region: Region, limit: Int?) {
            self.text = text; self.point = point; self.kind = kind; self.region = region; self.limit = limit
        }

        init(reading fields: Fields) throws(RequestError) {
            let point = fields.hasPoint() ? try fields.point() : nil
            self.init(text: try fields.searchText(), point: point, kind: try fields.kind(), region: try fields.region(), limit: try fields.limit())
        }

        public func write(into values: inout RequestValues) {
            values.add(.q, .text(text))
            if let point { values.point(point) }
            values.add(.limit, limit.map(RequestValue.integer))
            values.filters(kind, region)
        }
    }

    public static func search(text: String, point: GeoPoint?, kind: KindFilter, region: Region, limit: Int?) -> Request {
        Request(Search(text: text, point: point, kind: kind, region: region, limit: limit))
    }
}

extension RequestOperation {
    public static let search = RequestOperation.of(Request.Search.self)
}
