import AreasCore

extension Request {
    /// One area by its id, with every field.
    public struct Get: OperationQuestion, ReadableQuestion {
        public static let descriptor = OperationDescriptor(
            name: "get", summary: "one area with every field its source published", fields: [.id], operands: "ID", operandFields: [.id],
            endpoint: .resource(prefix: "/v1/areas/", field: .id), answerFollowsData: true, answerCarriesCrowd: true, mayFailOnData: true,
            hasGeoJSON: true)

        public var id: String

        public init(id: String) { self.id = id }

        init(reading fields: Fields) throws(RequestError) {
            guard let id = try fields.string(.id), !id.isEmpty else { throw RequestError(.badRequest, "id is missing") }
            self.init(id: id)
        }

        public func write(into values: inout RequestValues) { values.add(.id, .text(id)) }
    }

    public static func get(id: String) -> Request { Request(Get(id: id)) }
}

extension RequestOperation {
    public static let get = RequestOperation.of(Request.Get.self)
}
