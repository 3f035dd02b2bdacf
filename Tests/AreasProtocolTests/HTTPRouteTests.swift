import AreasProtocol
import Testing
import AreasTestTraits

/// Each endpoint becomes the request the socket takes for the same question; the request
/// parser is the oracle (the route must give the same request as the socket's own line).
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct HTTPRouteTests {
    static func head(_ target: String, accept: String? = nil, method: String = "GET") throws -> HTTPRequestHead {
        var lines = ["\(method) \(target) HTTP/1.1", "Host: x"]
        if let accept { lines.append("Accept: \(accept)") }
        guard case .head(let head, _) = try HTTPRequestParser().parse(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)) else {
            throw HTTPError(.badRequest, "incomplete")
        }
        return head
    }

    @Test(arguments: [
        ("/v1/near?lat=37.53&lon=126.97&k=3&kind=smoking&maxMeters=500", #"{"op":"near","lat":37.53,"lon":126.97,"k":3,"kind":"smoking","maxMeters":500}"#),
        ("/v1/radius?lat=37.5&lon=127&meters=250&limit=5&province=%EC%84%9C%EC%9A%B8", #"{"op":"radius","lat":37.5,"lon":127,"meters":250,"limit":5,"province":"서울"}"#),
        ("/v1/bbox?south=37&west=126&north=38&east=127&output=ids", #"{"op":"bbox","south":37,"west":126,"north":38,"east":127,"output":"ids"}"#),
        ("/v1/check?lat=37.52&lon=126.96", #"{"op":"check","lat":37.52,"lon":126.96}"#),
        ("/v1/along?path=37.5,126.9;37.6,127.0&meters=100", #"{"op":"along","path":[[37.5,126.9],[37.6,127]],"meters":100}"#),
        ("/v1/areas/yongsan%3A027a", #"{"op":"get","id":"yongsan:027a"}"#),
        ("/v1/stats", #"{"op":"stats"}"#),
    ])
    func endpointsBecomeTheSocketsRequests(target: String, line: String) throws {
        guard case .request(let routed, false, _, _) = try HTTPRoute.route(try Self.head(target)) else {
            Issue.record("\(target) is not a query")
            return
        }
        #expect(try routed == Request.parse(Array(line.utf8)), "\(String(decoding: routed.line, as: UTF8.self))")
    }

    /// A value that is not a number is read as text, and the error names the parameter exactly
    /// as the socket's parser does for the same value in a request line.
    @Test(arguments: ["north", "nan", "inf", "0x10", "1e999"])
    func aWordForANumberGetsTheSocketsMessage(text: String) throws {
        let socket = Result { try Request.parse(Array(#"{"op":"near","lat":"\#(text)","lon":126.97}"#.utf8)) }
        let http = Result { try HTTPRoute.route(try Self.head("/v1/near?lat=\(text)&lon=126.97")) }
        guard case .failure(let expected as RequestError) = socket, case .failure(let error as RequestError) = http else {
            Issue.record("a word for a latitude was taken: socket \(socket), HTTP \(http)")
            return
        }
        #expect(expected.code == .badRequest && expected.message.contains("lat"))
        #expect(error == expected)
    }

    @Test(arguments: [
        ("/v1/near?lat=1&lon=2&format=geojson", nil, true),
        ("/v1/near?lat=1&lon=2", "application/geo+json", true),
        ("/v1/near?lat=1&lon=2", "text/html, application/geo+json;q=0.9", true),
        ("/v1/near?lat=1&lon=2&format=json", "application/geo+json", false),
        ("/v1/near?lat=1&lon=2", "application/json", false),
        ("/v1/near?lat=1&lon=2&output=ids&format=geojson", nil, true),
        ("/v1/near?lat=1&lon=2&output=ids", nil, false),
    ] as [(String, String?, Bool)])
    func geoJSONByParameterOrAccept(target: String, accept: String?, geojson: Bool) throws {
        guard case .request(let request, let asked, let idsOnly, _) = try HTTPRoute.route(try Self.head(target, accept: accept)),
              let output = (request.question as? Request.Near)?.output else {
            Issue.record("not a near query")
            return
        }
        #expect(asked == geojson)
        #expect(idsOnly == target.contains("output=ids"))
        // GeoJSON needs positions: the daemon is asked for whole areas.
        #expect(output == (geojson || !idsOnly ? .full : .ids))
    }

    @Test(arguments: [
        ("/v1/nera?lat=1", RequestError.Code.notFound, "did you mean /v1/near?"),
        ("/v2/near", .notFound, "no endpoint /v2/near"),
        ("/v1/near?lat=1&lng=2", .badRequest, "takes no parameter 'lng' (did you mean lon?)"),
        ("/v1/near?lat=1&lat=2", .badRequest, "lat is given twice"),
        ("/v1/check?lat=1&lon=2&format=geojson", .badRequest, "no GeoJSON form"),
        ("/v1/near?lat=1&lon=2&format=xml", .badRequest, "format must be json or geojson"),
        ("/v1/near?lat=1&lon=2&output=count&format=geojson", .badRequest, "output=count has no places to draw"),
        ("/v1/along?path=37.5,126.9;37.6", .badRequest, "path must be LAT,LON;LAT,LON"),
        ("/healthz?strict=yes", .badRequest, "strict must be 1 or 0"),
        ("/metrics?format=json", .badRequest, "takes no parameter 'format'"),
        ("/v1/areas/", .notFound, "no area id given"),
    ] as [(String, RequestError.Code, String)])
    func badRequestsNameWhatIsWrong(target: String, code: RequestError.Code, message: String) throws {
        #expect {
            _ = try HTTPRoute.route(try Self.head(target))
        } throws: { error in
            guard let error = error as? RequestError else { return false }
            return error.code == code && error.message.contains(message)
        }
    }

    @Test func healthMetricsSnapshotAndPreflight() throws {
        #expect(try HTTPRoute.route(try Self.head("/healthz")) == .health(strict: false))
        #expect(try HTTPRoute.route(try Self.head("/healthz?strict=1")) == .health(strict: true))
        #expect(try HTTPRoute.route(try Self.head("/metrics")) == .metrics)
        #expect(try HTTPRoute.route(try Self.head("/v1/snapshot")) == .snapshot)
        #expect(try HTTPRoute.route(try Self.head("/v1/near?lat=1&lon=2", method: "OPTIONS")) == .preflight)
        #expect(try HTTPRoute.route(try Self.head("/nowhere", method: "OPTIONS")) == .preflight)
    }
}
