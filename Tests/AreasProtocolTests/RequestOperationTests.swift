import AreasCore
import AreasProtocol
import Testing
import AreasTestTraits

/// The protocol's vocabulary: every request writes a line the parser reads back as the same
/// request, every operation has its requests here, and the router and the parser agree on what
/// each operation reads.
/// The suite-wide five minutes: on two cores the blocking daemon tests can hold the cooperative
/// pool for over a minute before these quick ones get a thread.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct RequestOperationTests {
    static let point = GeoPoint(uncheckedLatitude: 37.5299, longitude: 126.9648)
    static let requests: [Request] = [
        .near(point: point, k: 3, maxMeters: nil, kind: .all, region: Region(), output: .full),
        .near(point: point, k: 0, maxMeters: 512.25, kind: .smoking, region: Region(province: "서울", district: "용산구"), output: .ids),
        .radius(point: point, meters: 300, kind: .nonsmoking, region: Region(), limit: 7, output: .count),
        .radius(point: point, meters: 0, kind: .all, region: Region(district: "중구"), limit: nil, output: .full),
        .bbox(box: GeoBox(uncheckedSouth: 37.5, west: 126.9, north: 37.6, east: 127.0), kind: .all, region: Region(), limit: nil, output: .full),
        .check(point: point, region: Region(province: "부산")),
        .along(path: [point, GeoPoint(uncheckedLatitude: 37.56, longitude: 126.98)], meters: 50, kind: .smoking, region: Region(), limit: 2, output: .ids),
        .get(id: "yongsan:027a \"quoted\" \\ back"),
        .clusters(box: GeoBox.korea, zoom: 7, kind: .smoking, region: Region(district: "용산구")),
        .check(point: point, region: Region(), previous: point),
        .where(point: point),
        .search(text: "서울역 광장", point: point, kind: .all, region: Region(), limit: 5),
        .search(text: "ＫＴ \"강남\"", point: nil, kind: .smoking, region: Region(district: "용산구"), limit: nil),
        .near(at: .named("용산구"), k: 4, maxMeters: nil, kind: .all, region: Region(), output: .full),
        .radius(at: .named("이태원역 3번출구"), meters: 200, kind: .nonsmoking, region: Region(), limit: nil, output: .ids),
        .check(at: .named("서울역"), region: Region(), previous: point),
        .crowd(view: nil), .crowd(view: GeoBox(uncheckedSouth: 37.55, west: 126.96, north: 37.57, east: 126.99)), .stats, .sources, .health, .metrics,
        .refresh(wait: true, force: false), .refresh(wait: false, force: true), .changes(), .changes(since: "lq4x2hc0-2f7"), .changes(since: "lq4x2hc0-2f7", cursor: "lq4x2hc0-2f7~yongsan:1f91a67d36b1ef67"),
    ]

    @Test func everyOperationIsCovered() {
        #expect(Set(Self.requests.map(\.operation.name)) == Set(RequestOperation.allCases.map(\.name)))
    }

    @Test(arguments: requests)
    func theLineReadsBackAsTheRequest(request: Request) throws {
        let line = request.line
        #expect(try Request.parse(line) == request, "\(String(decoding: line, as: UTF8.self))")
        // The line is one line: nothing in it ends a request early.
        #expect(!line.contains(UInt8(ascii: "\n")))
    }

    @Test(arguments: RequestOperation.allCases)
    func namesAndIndicesAreOneToOne(operation: RequestOperation) throws {
        #expect(RequestOperation(name: operation.name) == operation)
        #expect(RequestOperation.allCases[operation.index] == operation)
        #expect(Request.operationNames[operation.index] == operation.name)
    }

    @Test(arguments: [
        ("neer", "unknown op 'neer' (expected near, radius, bbox, check, along, clusters, where, search, get, crowd, changes, stats, sources, health, refresh or metrics); did you mean near?"),
        ("fly", "unknown op 'fly' (expected near, radius, bbox, check, along, clusters, where, search, get, crowd, changes, stats, sources, health, refresh or metrics)"),
        ("Stats", "unknown op 'Stats' (expected near, radius, bbox, check, along, clusters, where, search, get, crowd, changes, stats, sources, health, refresh or metrics); did you mean stats?"),
    ])
    func anUnknownOpListsTheOpsAndTheNearest(name: String, message: String) {
        #expect(throws: RequestError(.unknownOp, message)) { try Request.parse(Array(#"{"op":"\#(name)"}"#.utf8)) }
    }

    /// Each field an operation lists is one its HTTP endpoint takes, and one of another
    /// operation's is refused by name.
    @Test(arguments: RequestOperation.allCases)
    func theEndpointTakesTheOperationsFields(operation: RequestOperation) throws {
        guard case .query(let path) = operation.endpoint else { return }
        for field in operation.fields {
            let target = "\(path)?\(field.name)=1"
            do {
                _ = try HTTPRoute.route(try HTTPRouteTests.head(target))
            } catch let error as RequestError {
                #expect(!error.message.contains("takes no parameter"), "\(target): \(error.message)")
            }
        }
        for field in RequestField.allCases where !operation.fields.contains(field) {
            #expect(throws: RequestError.self) { try HTTPRoute.route(try HTTPRouteTests.head("\(path)?\(field.name)=1")) }
        }
    }
}

/// `Request.httpTarget` against the HTTP front door's own router: every request but a refresh
/// becomes a `GET` that routes back to the same request.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct HTTPTargetTests {
    @Test(arguments: RequestOperationTests.requests)
    func theTargetRoutesBackToTheRequest(request: Request) throws {
        guard let target = request.httpTarget else {
            #expect(request.operation == .refresh, "only refresh has no GET")
            return
        }
        let bytes = Array("GET \(target) HTTP/1.1\r\nHost: areas.test\r\n\r\n".utf8)
        guard case .head(let head, _) = try HTTPRequestParser().parse(bytes) else {
            Issue.record("\(target) does not parse as a request head")
            return
        }
        switch try HTTPRoute.route(head) {
        case .request(let routed, _, _, _): #expect(routed == request, "\(target)")
        case .health: #expect(request.operation == .health)
        case .metrics: #expect(request.operation == .metrics)
        default: Issue.record("\(target) routes elsewhere")
        }
        #expect(target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "a target is ASCII without spaces: \(target)")
    }
}
