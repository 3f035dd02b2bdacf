import AreasCore

extension Request {
    /// Each hotspot of the city's people density with its last level, time and age; given a
    /// map's `view`, the hotspots in it count as asked about.
    public struct Crowd: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "crowd", summary: "each hotspot of the city's people density: its last level, time and age, and the asking",
            fields: [.south, .west, .north, .east], answerFollowsData: false, hasGeoJSON: true)

        public var view: GeoBox?

        public init(view: GeoBox?) { self.view = view }

        init(reading fields: Fields) throws(RequestError) { self.init(view: fields.hasBox() ? try fields.box() : nil) }

        public func write(into values: inout RequestValues) { if let view { values.box(view) } }
    }

    public static func crowd(view: GeoBox?) -> Request { Request(Crowd(view: view)) }
}

extension RequestOperation {
    public static let crowd = RequestOperation.of(Request.Crowd.self)
}
