import AreasCore

/// One operation's question: its fields read and checked, and the operation it asks
/// (`descriptor`). Each operation is one such type, declared in a file of its own with its
/// descriptor, how it reads its fields and how it writes them; the daemon answers it and
/// areasctl asks and shows it by conformances of the same type in their own layers.
public protocol OperationQuestion: Sendable, Equatable {
    /// What the operation is, for every layer: its name, fields, HTTP endpoint and caching,
    /// and how areasctl names its operands.
    static var descriptor: OperationDescriptor { get }
    /// The fields this question gives, in the order its line and its HTTP target write them;
    /// a filter at its default and an absent option are left out.
    func write(into values: inout RequestValues)
}

/// A question read from a request's members, with the parser's checks and messages.
protocol ReadableQuestion: OperationQuestion {
    init(reading fields: Fields) throws(RequestError)
}

extension OperationQuestion {
    /// Whether `other` is this very question.
    func isEqual(to other: any OperationQuestion) -> Bool { (other as? Self) == self }
}

/// An operation, declared once: every layer derives from it what it needs (the parser its
/// fields, the HTTP router its endpoint and caching, areasctl its command).
public struct OperationDescriptor: Sendable {
    /// How HTTP asks an operation.
    public enum Endpoint: Sendable, Equatable {
        /// A query endpoint whose parameters are the operation's fields.
        case query(path: String)
        /// A resource whose last path segment is the one field (`/v1/areas/ID`).
        case resource(prefix: String, field: RequestField)
        /// A path of its own that takes no fields (`/healthz`, `/metrics`), answered in a form
        /// of its own.
        case route(path: String)
        /// Asked on the socket only: the HTTP front door is read-only.
        case socketOnly
    }

    /// The name a request gives in `op`, and areasctl's command.
    public let name: String
    /// What the operation answers, in a line of areasctl's usage.
    public let summary: String
    /// The members a request reads besides `op`, in the order areasctl and the HTTP router
    /// write them.
    public let fields: [RequestField]
    /// The operands areasctl takes, as its usage shows them (`LAT LON`), and the fields they give.
    public let operands: String
    public let operandFields: [RequestField]
    public let endpoint: Endpoint
    /// Whether an HTTP answer may be cached until the data changes (it carries the data's
    /// ETag, which a new administrative map changes too).
    public let answerFollowsData: Bool
    /// Whether the answer may carry a hotspot's crowd level, which changes without the data:
    /// its ETag follows the levels too.
    public let answerCarriesCrowd: Bool
    /// Whether a request whose fields passed every check may still fail on the data (a `get`
    /// of an id the data lacks): the others are revalidated over HTTP without running them.
    public let mayFailOnData: Bool
    /// Whether the answer can be drawn as GeoJSON: it lists places with their positions.
    public let hasGeoJSON: Bool
    /// Whether the operation costs upstream quota or changes state: only admins may ask it.
    public let isPrivileged: Bool

    /// `endpoint` nil is the query endpoint `/v1/NAME`.
    public init(name: String, summary: String, fields: [RequestField], operands: String = "", operandFields: [RequestField] = [],
                endpoint: Endpoint? = nil, answerFollowsData: Bool, answerCarriesCrowd: Bool = false, mayFailOnData: Bool = false,
                hasGeoJSON: Bool = false, isPrivileged: Bool = false) {
        self.name = name
        self.summary = summary
        self.fields = fields
        self.operands = operands
        self.operandFields = operandFields
        self.endpoint = endpoint ?? .query(path: "/v1/\(name)")
        self.answerFollowsData = answerFollowsData
        self.answerCarriesCrowd = answerCarriesCrowd
        self.mayFailOnData = mayFailOnData
        self.hasGeoJSON = hasGeoJSON
        self.isPrivileged = isPrivileged
    }

    /// The filters most listing operations take.
    public static let filters: [RequestField] = [.kind, .province, .district, .output]
}

/// The fields a question gives, gathered in order as it writes them.
public struct RequestValues {
    public private(set) var list: [(RequestField, RequestValue)] = []

    init() {}

    mutating func add(_ field: RequestField, _ value: RequestValue?) {
        if let value { list.append((field, value)) }
    }

    mutating func point(_ point: GeoPoint) {
        add(.lat, .number(point.latitude))
        add(.lon, .number(point.longitude))
    }

    mutating func position(_ position: QueryPosition) {
        switch position {
        case .point(let at): point(at)
        case .named(let text): add(.q, .text(text))
        }
    }

    mutating func box(_ box: GeoBox) {
        add(.south, .number(box.south))
        add(.west, .number(box.west))
        add(.north, .number(box.north))
        add(.east, .number(box.east))
    }

    mutating func region(_ region: Region) {
        add(.province, region.province.map(RequestValue.text))
        add(.district, region.district.map(RequestValue.text))
    }

    /// A kind, region and output, each left out at its default.
    mutating func filters(_ kind: KindFilter, _ region: Region, _ output: OutputMode = .full) {
        if kind != .all { add(.kind, .text(kind.rawValue)) }
        self.region(region)
        if output != .full { add(.output, .text(output.rawValue)) }
    }
}
