import AreasControl
import AreasCore
import AreasProtocol
import AreasSystem
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// The HTTP front door of a real areasd (the bundled samples), over TCP and over its own Unix
/// socket; the oracle is the line protocol's answer to the same question, from the same process.
@Suite(.serialized, .tags(.endToEnd), .offThePool, .timeLimit(.minutes(5))) struct HTTPFrontDoorTests {
    let daemon: SampleDaemon
    let tcp: String
    let unix: String

    init() throws {
        unix = Fixtures.temporaryDirectory() + "/http.sock"
        (daemon, tcp) = try SampleDaemon.withHTTP(#""socket": "\#(unix)""#)
    }

    /// The heads the fuzzer once trapped the router with (Tests/Fuzz/regressions/http): sent to
    /// the daemon as they are, each gets an answer, and the daemon goes on answering.
    @Test func theFuzzersHTTPInputsAreAnswered() throws {
        defer { daemon.stop() }
        let folder = Fixtures.path("Tests/Fuzz/regressions/http")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        try #require(!names.isEmpty)
        for name in names {
            let client = try HTTPTestClient(tcp)
            try client.send(try Fixtures.bytes("Tests/Fuzz/regressions/http/" + name))
            let answer = try client.response()
            #expect((200..<600).contains(answer.status), "\(name): \(answer.text)")
        }
        #expect(try HTTPTestClient(tcp).get("/healthz").status == 200)
    }

    func line(_ request: String) throws -> String {
        let client = try AreasClient(path: daemon.socket, timeoutSeconds: 10)
        return String(decoding: try client.send(Array(request.utf8)), as: UTF8.self) + "\n"
    }

    static let questions: [(target: String, line: String)] = [
        ("/v1/near?lat=37.53&lon=126.97&k=5", #"{"op":"near","lat":37.53,"lon":126.97,"k":5}"#),
        ("/v1/near?lat=37.53&lon=126.97&k=3&kind=smoking&output=ids", #"{"op":"near","lat":37.53,"lon":126.97,"k":3,"kind":"smoking","output":"ids"}"#),
        ("/v1/radius?lat=37.55&lon=126.97&meters=800&province=%EC%84%9C%EC%9A%B8", #"{"op":"radius","lat":37.55,"lon":126.97,"meters":800,"province":"서울"}"#),
        ("/v1/bbox?south=37.5&west=126.9&north=37.6&east=127.0&limit=7", #"{"op":"bbox","south":37.5,"west":126.9,"north":37.6,"east":127.0,"limit":7}"#),
        ("/v1/check?lat=37.528916&lon=126.967984", #"{"op":"check","lat":37.528916,"lon":126.967984}"#),
        ("/v1/along?path=37.55,126.97;37.53,126.97&meters=100", #"{"op":"along","path":[[37.55,126.97],[37.53,126.97]],"meters":100}"#),
        ("/v1/areas/yongsan%3A1f91a67d36b1ef67", #"{"op":"get","id":"yongsan:1f91a67d36b1ef67"}"#),
        ("/v1/areas/nope", #"{"op":"get","id":"nope"}"#),
        ("/v1/near?lat=91&lon=126.97", #"{"op":"near","lat":91,"lon":126.97}"#),
    ]

    @Test func everyQueryAnswersWithTheSocketsBytesOverTCPAndUnix() throws {
        defer { daemon.stop() }
        for address in [tcp, unix] {
            let client = try HTTPTestClient(address)
            for (target, request) in Self.questions {
                let expected = try line(request)
                let response = try client.get(target)
                #expect(response.text == expected, "\(address) \(target)")
                let ok = expected.hasPrefix(#"{"ok":true"#)
                #expect(response.status == (ok ? 200 : expected.contains("not_found") ? 404 : 400), "\(target): \(response.status)")
                #expect(response.field("content-type") == "application/json")
                #expect(response.field("access-control-allow-origin") == "*")
                #expect(response.field("cache-control") == (ok ? "public, max-age=60" : "no-store"))
            }
            // stats carries the uptime: the same keys and counts, not the same bytes.
            let stats = try JSONParser.parse(client.get("/v1/stats").body)
            let socketStats = try JSONParser.parse(Array(try line(#"{"op":"stats"}"#).utf8))
            #expect(stats["areas"] == socketStats["areas"] && stats["byKind"] == socketStats["byKind"])
        }
    }

    @Test func geoJSONIsTheCollectionAreasctlPrints() throws {
        defer { daemon.stop() }
        let client = try HTTPTestClient(tcp)
        let cli = try Binaries.run("areasctl", ["--socket", daemon.socket, "near", "37.53", "126.97", "-k", "4", "--output", "ids", "--geojson"])
        let byParameter = try client.get("/v1/near?lat=37.53&lon=126.97&k=4&output=ids&format=geojson")
        let byAccept = try client.get("/v1/near?lat=37.53&lon=126.97&k=4&output=ids", fields: ["Accept: application/geo+json"])
        #expect(byParameter.status == 200 && byParameter.field("content-type") == "application/geo+json")
        #expect(byParameter.text == cli.stdout && byAccept.text == cli.stdout, "\(byParameter.text)")
        #expect(byParameter.field("vary") == "Accept")
        // The two representations of one URL have different tags, so caches keep them apart.
        let json = try client.get("/v1/near?lat=37.53&lon=126.97&k=4&output=ids")
        #expect(json.field("etag") != byAccept.field("etag"))
    }

    /// The daemon writes GeoJSON straight from its matches; areasctl writes it from the
    /// socket's JSON answer. Every operation that lists areas, in both outputs, merged and
    /// overridden areas among them, truncated or not: the same bytes.
    @Test func everyGeoJSONAnswerIsTheCollectionAreasctlWritesFromTheSocket() throws {
        defer { daemon.stop() }
        let client = try HTTPTestClient(tcp)
        let listed = try JSONParser.parse(Array(try line(#"{"op":"bbox","south":33,"west":124,"north":39,"east":132}"#).utf8))
        let ids = (listed["areas"]?.array ?? []).compactMap { $0["id"]?.string }
        try #require(ids.count >= 3)
        var requests: [Request] = [
            .near(point: GeoPoint(uncheckedLatitude: 37.53, longitude: 126.97), k: 6, maxMeters: nil, kind: .all, region: .anywhere, output: .full),
            .radius(point: GeoPoint(uncheckedLatitude: 37.55, longitude: 126.97), meters: 3_000, kind: .all, region: .anywhere, limit: 2, output: .full),
            .bbox(box: GeoBox(uncheckedSouth: 33, west: 124, north: 39, east: 132), kind: .all, region: .anywhere, limit: nil, output: .full),
            .along(path: [GeoPoint(uncheckedLatitude: 37.55, longitude: 126.96), GeoPoint(uncheckedLatitude: 37.53, longitude: 126.98)],
                   meters: 800, kind: .all, region: .anywhere, limit: nil, output: .full),
        ]
        requests += ids.prefix(3).map { Request.get(id: $0) }
        for request in requests {
            let socketAnswer = try JSONParser.parse(Array(try line(String(decoding: request.line, as: UTF8.self)).utf8))
            for idsOnly in [false, true] {
                if request.operation == .get, idsOnly { continue }
                var expected = JSONWriter()
                GeoJSONCollection.write(socketAnswer, idsOnly: idsOnly, into: &expected)
                expected.newline()
                let target = try #require(request.httpTarget) + (request.httpTarget?.contains("?") == true ? "&" : "?") + (idsOnly ? "output=ids&" : "") + "format=geojson"
                let answer = try client.get(target)
                #expect(answer.status == 200 && answer.field("content-type") == "application/geo+json", "\(target)")
                #expect(answer.text == String(decoding: expected.bytes, as: UTF8.self), "\(target)")
                // Every feature stands where the socket's answer puts its area.
                let features = try JSONParser.parse(answer.body)["features"]?.array ?? []
                let areas = socketAnswer["areas"]?.array ?? []
                #expect(features.count == areas.count && !features.isEmpty, "\(target)")
                for (feature, area) in zip(features, areas) {
                    #expect(feature["geometry"]?["coordinates"]?.array.map(\.double) == [area["lon"]?.double, area["lat"]?.double], "\(target)")
                }
            }
        }
    }

    @Test func headAndConditionalRequestsOnOneConnection() throws {
        defer { daemon.stop() }
        let client = try HTTPTestClient(tcp)
        let target = "/v1/radius?lat=37.55&lon=126.97&meters=500"
        let get = try client.get(target)
        let head = try client.get(target, method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.field("content-length") == String(get.body.count) && head.field("etag") == get.field("etag"))
        let etag = try #require(get.field("etag"))
        let unchanged = try client.get(target, fields: ["If-None-Match: \"other\", \(etag)"])
        #expect(unchanged.status == 304 && unchanged.body.isEmpty && unchanged.field("etag") == etag)
        #expect(try client.get(target, fields: ["If-None-Match: W/\(etag)"]).status == 304)
        #expect(try client.get(target, fields: ["If-None-Match: \"stale\""]).status == 200)
        // Still in step after HEAD and 304, which have no body: the next answer is whole.
        #expect(try client.get(target).text == get.text)
        let preflight = try client.get(target, method: "OPTIONS")
        #expect(preflight.status == 204 && preflight.field("access-control-allow-methods") == "GET, HEAD, OPTIONS")
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        defer { daemon.stop() }
        let client = try HTTPTestClient(unix)
        let targets = Self.questions.prefix(4).map(\.target)
        try client.send(targets.map { "GET \($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
        for (target, request) in Self.questions.prefix(4) {
            #expect(try client.response().text == line(request), "\(target)")
        }
        // HTTP/1.0 asking for keep-alive is told it is kept, and the connection stays.
        try client.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let kept = try client.response()
        #expect(kept.status == 200 && kept.field("connection") == "keep-alive")
        // HTTP/1.0 without keep-alive, and Connection: close, end the connection after the answer.
        try client.send("GET /healthz HTTP/1.0\r\n\r\n")
        #expect(try client.response().status == 200)
        #expect(client.isClosedByServer())
    }

    @Test func healthzMetricsAndSnapshot() throws {
        defer { daemon.stop() }
        let client = try HTTPTestClient(tcp)
        let health = try client.get("/healthz")
        #expect(health.status == 200 && health.field("cache-control") == "no-store")
        #expect(try JSONParser.parse(health.body)["loaded"]?.bool == true)
        #expect(try client.get("/healthz?strict=1").status == 200)
        let metrics = try client.get("/metrics")
        #expect(metrics.status == 200 && metrics.field("content-type") == "text/plain; version=0.0.4; charset=utf-8")
        #expect(metrics.text.contains("# TYPE areas_requests_total counter") && metrics.text.contains("areas_http_requests_refused_total"))
        let snapshot = try client.get("/v1/snapshot")
        let file = try #require(FileManager.default.contents(atPath: daemon.folder + "/areas.snapshot"))
        #expect(snapshot.status == 200 && snapshot.body == [UInt8](file))
        let tag = try #require(snapshot.field("etag"))
        #expect(try client.get("/v1/snapshot", fields: ["If-None-Match: \(tag)"]).status == 304)
    }
}

/// `/healthz` for load balancers: 503 with the reason before there is data; with `strict=1`,
/// also 503 when a source's last refresh failed, while plain `/healthz` still says serving.
@Suite(.serialized, .tags(.endToEnd), .offThePool, .timeLimit(.minutes(5))) struct HealthzTests {
    /// The daemons this test starts, killed when it ends however it ends.
    private let daemons = StartedDaemons()

    static let downSource = #"{"name": "down", "kind": "nonsmoking", "format": "data-go-kr-xml", "url": "http://127.0.0.1:1/x", "timeoutSeconds": 1, "retries": 0}"#

    @Test func noDataIs503WithTheReason() throws {
        let folder = Fixtures.temporaryDirectory()
        let config = """
            {"snapshot": "\(folder)/areas.snapshot", "http": {"listen": "127.0.0.1:0"},
             "sources": [\(Self.downSource)]}
            """
        try config.write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
        let (process, log) = try daemons.start(["--config", folder + "/areasd.json", "--socket", folder + "/areasd.sock"])
        defer { kill(process.processIdentifier, SIGTERM); _ = process.waitUntilExit(seconds: 20) }
        let tcp = try #require(log.httpAddress(), "\(log.text)")
        var last: HTTPTestClient.Response?
        #expect(DaemonQuestions.waitUntil(seconds: 20) {
            last = try? HTTPTestClient(tcp).get("/healthz")
            return last?.status == 503 && (try? JSONParser.parse(last!.body))?["problem"]?.string?.contains("no data") == true
        }, "\(last?.text ?? "no answer")")
        #expect(last?.field("retry-after") != nil)
        #expect(try HTTPTestClient(tcp).get("/v1/near?lat=37.5&lon=127").status == 503)
    }

    @Test func strictAlsoDrainsAHostWhoseSourceFailed() throws {
        let folder = Fixtures.temporaryDirectory()
        var config = try String(contentsOfFile: try Fixtures.sampleConfig(in: folder, extra: #""http": {"listen": "127.0.0.1:0"}"#), encoding: .utf8)
        config = config.replacingOccurrences(of: #""sources": ["#, with: #""sources": [\#(Self.downSource),"#)
        try config.write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
        let (process, log) = try daemons.start(["--config", folder + "/areasd.json", "--socket", folder + "/areasd.sock"])
        defer { kill(process.processIdentifier, SIGTERM); _ = process.waitUntilExit(seconds: 20) }
        let tcp = try #require(log.httpAddress(), "\(log.text)")
        #expect(DaemonQuestions.waitUntilLoaded(folder + "/areasd.sock"))
        #expect(DaemonQuestions.waitUntil(seconds: 20) { DaemonQuestions.ask(folder + "/areasd.sock", #"{"op":"health"}"#)?["refreshing"]?.bool == false })
        let client = try HTTPTestClient(tcp)
        #expect(try client.get("/healthz").status == 200)
        let strict = try client.get("/healthz?strict=1")
        #expect(strict.status == 503, "\(strict.text)")
        #expect(try JSONParser.parse(strict.body)["healthy"]?.bool == false)
    }
}
