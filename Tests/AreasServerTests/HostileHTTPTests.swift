import AreasControl
import AreasProtocol
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc
import Testing
import AreasTestTraits

/// Hostile HTTP against a real areasd: each gets its status and a closed connection, and the
/// daemon goes on answering others. Limits are the socket server's (`requestTimeoutSeconds`,
/// `maxConnections`, the head size).
@Suite(.serialized, .tags(.endToEnd), .offThePool, .timeLimit(.minutes(5))) struct HostileHTTPTests {
    let daemon: SampleDaemon
    let tcp: String

    init() throws {
        (daemon, tcp) = try SampleDaemon.withHTTP(extra: #""requestTimeoutSeconds": 1, "maxConnections": 4"#)
    }

    /// The daemon still answers a plain request.
    func stillServes() throws -> Bool {
        try HTTPTestClient(tcp).get("/v1/near?lat=37.53&lon=126.97&k=1").status == 200
    }

    @Test(arguments: [
        ("two Content-Lengths", "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\n", 400),
        ("Transfer-Encoding on a GET", "GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 501),
        ("Transfer-Encoding and Content-Length", "GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\nGET /x HTTP/1.1\r\n", 400),
        ("a body on a GET", "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789", 413),
        ("a space before the colon", "GET /healthz HTTP/1.1\r\nHost : x\r\n\r\n", 400),
        ("bare LF line ends", "GET /healthz HTTP/1.1\nHost: x\n\n", 400),
        ("no Host", "GET /healthz HTTP/1.1\r\n\r\n", 400),
        ("a POST", "POST /v1/near HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", 405),
        ("HTTP/2 cleartext preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505),
        ("not HTTP at all", "{\"op\":\"near\",\"lat\":37.5,\"lon\":127}\n\r\n\r\n", 400),
    ] as [(String, String, Int)])
    func smugglingShapesGetTheirStatusAndAClosedConnection(name: String, request: String, status: Int) throws {
        defer { daemon.stop() }
        let client = try HTTPTestClient(tcp)
        try client.send(request)
        let response = try client.response()
        #expect(response.status == status, "\(name): \(response.status) \(response.text)")
        #expect(response.field("connection") == "close", "\(name)")
        #expect(try JSONParser.parse(response.body)["ok"]?.bool == false, "\(name): the socket's error body")
        #expect(client.isClosedByServer(), "\(name): the connection stays open")
        #expect(try stillServes())
    }

    @Test func aTenMegabyteHeaderIs431() throws {
        defer { daemon.stop() }
        let client = try HTTPTestClient(tcp)
        let huge = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 10 << 20) + "\r\n\r\n"
        // The server answers and closes long before all of it is sent.
        try? client.send(huge)
        let response = try client.response()
        #expect(response.status == 431)
        #expect(client.isClosedByServer())
        #expect(try stillServes())
    }

    @Test func slowHeadersAre408AfterTheRequestTimeOut() throws {
        defer { daemon.stop() }
        let client = try HTTPTestClient(tcp)
        try client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n")
        // A byte every 200 ms keeps the connection busy but never finishes the head.
        for _ in 0..<4 {
            usleep(200_000)
            try? client.send("X")
        }
        let response = try client.response()
        #expect(response.status == 408)
        #expect(client.isClosedByServer())
        #expect(try stillServes())
    }

    /// HTTP and the line protocol share `maxConnections`: with every slot held by socket clients,
    /// an HTTP client is told 503 with Retry-After, and served again once one leaves.
    @Test func theConnectionCapIsShared() throws {
        defer { daemon.stop() }
        var holders: [AreasClient] = []
        for _ in 0..<4 {
            let holder = try AreasClient(path: daemon.socket, timeoutSeconds: 10)
            _ = try holder.send(Array(#"{"op":"health"}"#.utf8))
            holders.append(holder)
        }
        let refused = try HTTPTestClient(tcp)
        let response = try refused.response()
        #expect(response.status == 503 && response.field("retry-after") == "1")
        #expect(try JSONParser.parse(response.body)["error"]?["code"]?.string == "busy")
        holders.removeLast()
        #expect(DaemonQuestions.waitUntil(seconds: 10) { (try? stillServes()) == true })
    }
}
