import AreasProtocol
import Testing
import AreasTestTraits

/// The HTTP/1.1 request parser against RFC 9112's grammar: what it must accept, what it must
/// refuse and with which status, and that a head arriving in pieces parses the same as whole.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct HTTPRequestParserTests {
    static func text(_ lines: [String]) -> [UInt8] { Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) }

    static func parse(_ bytes: [UInt8], limits: HTTPRequestParser.Limits = .init()) throws(HTTPError) -> (HTTPRequestHead, Int)? {
        guard case .head(let head, let consumed) = try HTTPRequestParser(limits: limits).parse(bytes) else { return nil }
        return (head, consumed)
    }

    @Test func aPlainGet() throws {
        let bytes = Self.text(["GET /v1/near?lat=37.53&lon=126.97&k=3 HTTP/1.1", "Host: areas.example", "Accept: application/json", "X-Empty:"])
        let (head, consumed) = try #require(try Self.parse(bytes))
        #expect(consumed == bytes.count)
        #expect(head.method == .get && head.path == "/v1/near" && head.minorVersion == 1)
        #expect(head.query.map(\.name) == ["lat", "lon", "k"] && head.query.map(\.value) == ["37.53", "126.97", "3"])
        #expect(head.header("host") == "areas.example" && head.header("accept") == "application/json" && head.header("x-empty") == "")
        #expect(head.keepAlive)
    }

    @Test(arguments: [
        // Korean in the query, percent-encoded as browsers send it; + as a space.
        ("/v1/near?province=%EC%84%9C%EC%9A%B8&district=%EC%9A%A9%EC%82%B0%EA%B5%AC", "province", "서울"),
        ("/v1/near?province=%ec%84%9c%ec%9a%b8", "province", "서울"),
        ("/v1/near?district=a+b%2Bc", "district", "a b+c"),
        ("/v1/near?empty=", "empty", ""),
        ("/v1/near?bare", "bare", ""),
        ("/v1/near?&&lat=1&&", "lat", "1"),
    ])
    func queriesArePercentDecoded(target: String, name: String, value: String) throws {
        let (head, _) = try #require(try Self.parse(Self.text(["GET \(target) HTTP/1.1", "Host: x"])))
        #expect(head.query.first { $0.name == name }?.value == value)
    }

    @Test func pathsArePercentDecodedAndAbsoluteFormIsTaken() throws {
        let (id, _) = try #require(try Self.parse(Self.text(["GET /v1/areas/yongsan%3A027a36e0 HTTP/1.1", "Host: x"])))
        #expect(id.path == "/v1/areas/yongsan:027a36e0")
        let (absolute, _) = try #require(try Self.parse(Self.text(["GET http://areas.example:8080/v1/stats?x=1 HTTP/1.1", "Host: areas.example:8080"])))
        #expect(absolute.path == "/v1/stats" && absolute.query.first?.name == "x")
        let (star, _) = try #require(try Self.parse(Self.text(["OPTIONS * HTTP/1.1", "Host: x"])))
        #expect(star.method == .options && star.path == "*")
    }

    @Test(arguments: [
        (["GET / HTTP/1.1", "Host: x", "Connection: close"], false),
        (["GET / HTTP/1.1", "Host: x", "Connection: keep-alive, Close"], false),
        (["GET / HTTP/1.0"], false),
        (["GET / HTTP/1.0", "Connection: keep-alive"], true),
        (["HEAD / HTTP/1.1", "Host: x", "Connection: upgrade"], true),
    ] as [([String], Bool)])
    func keepAliveFollowsVersionAndConnection(lines: [String], keepAlive: Bool) throws {
        let (head, _) = try #require(try Self.parse(Self.text(lines)))
        #expect(head.keepAlive == keepAlive)
    }

    /// Leading blank lines are skipped (RFC 9112 §2.2) and pipelined requests are taken one
    /// at a time, each consuming exactly its own bytes.
    @Test func pipelinedRequestsParseOneAtATime() throws {
        let first = Self.text(["GET /a HTTP/1.1", "Host: x"])
        let second = Self.text(["HEAD /b HTTP/1.1", "Host: x"])
        let (a, consumedA) = try #require(try Self.parse(Array("\r\n".utf8) + first + second))
        #expect(a.path == "/a" && consumedA == first.count + 2)
        let (b, consumedB) = try #require(try Self.parse(second))
        #expect(b.method == .head && b.path == "/b" && consumedB == second.count)
    }

    @Test func aHeadArrivingByteByByteParsesAsWhole() throws {
        let bytes = Self.text(["GET /v1/check?lat=37.5&lon=127 HTTP/1.1", "Host: x", "Accept: */*"])
        let whole = try #require(try Self.parse(bytes))
        for end in 0..<bytes.count {
            #expect(try HTTPRequestParser().parse(Array(bytes[..<end])) == .incomplete, "complete after \(end) of \(bytes.count) bytes")
        }
        #expect(try Self.parse(bytes)?.0 == whole.0)
    }

    @Test(arguments: [
        // Request line (RFC 9112 §3).
        (["GET  / HTTP/1.1", "Host: x"], HTTPStatus.badRequest),
        (["GET / HTTP/1.1 ", "Host: x"], .badRequest),
        (["GET /", "Host: x"], .badRequest),
        (["G(T / HTTP/1.1", "Host: x"], .badRequest),
        (["POST / HTTP/1.1", "Host: x"], .methodNotAllowed),
        (["DELETE /v1/areas/x HTTP/1.1", "Host: x"], .methodNotAllowed),
        (["GET / HTTP/2.0", "Host: x"], .versionNotSupported),
        (["GET / HTTP/1.10", "Host: x"], .badRequest),
        (["GET / http/1.1", "Host: x"], .badRequest),
        (["GET ftp://x/ HTTP/1.1", "Host: x"], .badRequest),
        (["GET * HTTP/1.1", "Host: x"], .badRequest),
        (["GET /a%zz HTTP/1.1", "Host: x"], .badRequest),
        (["GET /a?b=%E0%A4 HTTP/1.1", "Host: x"], .badRequest),
        (["GET /a?b=%00 HTTP/1.1", "Host: x"], .badRequest),
        (["GET /a\u{7F} HTTP/1.1", "Host: x"], .badRequest),
        // Fields (§5): no space before the colon, no folding, no control characters.
        (["GET / HTTP/1.1", "Host : x"], .badRequest),
        (["GET / HTTP/1.1", "Host: x", " folded"], .badRequest),
        (["GET / HTTP/1.1", "Host: x", "NoColon"], .badRequest),
        (["GET / HTTP/1.1", "Host: x", ": empty name"], .badRequest),
        (["GET / HTTP/1.1", "Host: x", "X: a\u{01}b"], .badRequest),
        // Host (§3.2): exactly one in HTTP/1.1.
        (["GET / HTTP/1.1"], .badRequest),
        (["GET / HTTP/1.1", "Host: x", "Host: y"], .badRequest),
        // Framing (§6): no body, and nothing that could be read two ways.
        (["GET / HTTP/1.1", "Host: x", "Content-Length: 5"], .contentTooLarge),
        (["GET / HTTP/1.1", "Host: x", "Content-Length: 0", "Content-Length: 0"], .badRequest),
        (["GET / HTTP/1.1", "Host: x", "Content-Length: 0, 0"], .badRequest),
        (["GET / HTTP/1.1", "Host: x", "Content-Length: -1"], .badRequest),
        (["GET / HTTP/1.1", "Host: x", "Transfer-Encoding: chunked"], .notImplemented),
        (["GET / HTTP/1.1", "Host: x", "Transfer-Encoding: chunked", "Content-Length: 0"], .badRequest),
    ] as [([String], HTTPStatus)])
    func malformedHeadsAreRefusedWithTheirStatus(lines: [String], status: HTTPStatus) {
        #expect {
            _ = try Self.parse(Self.text(lines))
        } throws: { error in
            (error as? HTTPError)?.status == status
        }
    }

    @Test(arguments: ["GET / HTTP/1.1\nHost: x\n\n", "GET / HTTP/1.1\r\nHost: x\n\r\n", "GET / HTTP/1.1\r\nHost: x\rY: z\r\n\r\n"])
    func bareCROrLFIsRefused(text: String) {
        #expect(throws: HTTPError.self) { _ = try Self.parse(Array(text.utf8)) }
    }

    @Test func limitsGiveTheirStatuses() throws {
        var limits = HTTPRequestParser.Limits()
        limits.maxHeadBytes = 1024
        limits.maxTargetBytes = 100
        limits.maxFields = 3
        func status(_ bytes: [UInt8]) -> HTTPStatus? {
            do { _ = try Self.parse(bytes, limits: limits); return nil } catch { return error.status }
        }
        #expect(status(Self.text(["GET /\(String(repeating: "a", count: 200)) HTTP/1.1", "Host: x"])) == .uriTooLong)
        // A request line that never ends is refused before the head limit, without its end.
        #expect(status(Array("GET /\(String(repeating: "a", count: 200))".utf8)) == .uriTooLong)
        #expect(status(Self.text(["GET / HTTP/1.1", "Host: x", "A: 1", "B: 2", "C: 3"])) == .headerFieldsTooLarge)
        #expect(status(Self.text(["GET / HTTP/1.1", "Host: x", "Big: " + String(repeating: "b", count: 2000)])) == .headerFieldsTooLarge)
        // Unfinished, and already past the limit: refused without waiting for the rest.
        #expect(status(Array(("GET / HTTP/1.1\r\nHost: x\r\nBig: " + String(repeating: "b", count: 2000)).utf8)) == .headerFieldsTooLarge)
    }
}

/// Empty lines before a request and heads that arrive a few bytes at a time: bounded, and
/// scanned once.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct HTTPHeadResumeTests {
    static let head = Array("GET /v1/check?lat=37.5&lon=127 HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n".utf8)

    @Test func aFewEmptyLinesAreIgnoredMoreAreRefused() throws {
        let parser = HTTPRequestParser()
        guard case .head(let parsed, let consumed) = try parser.parse(Array("\r\n\r\n\r\n\r\n".utf8) + Self.head) else {
            Issue.record("four empty lines and a head")
            return
        }
        #expect(parsed.path == "/v1/check" && consumed == 8 + Self.head.count)
        #expect(throws: HTTPError.self) { try parser.parse(Array(String(repeating: "\r\n", count: 5).utf8)) }
        // A flood of empty lines is refused as soon as it passes the limit, whatever follows.
        #expect(throws: HTTPError.self) { try parser.parse(Array(String(repeating: "\r\n", count: 40_000).utf8)) }
    }

    @Test func emptyLinesCountTowardTheHeadLimit() throws {
        var limits = HTTPRequestParser.Limits()
        limits.maxHeadBytes = Self.head.count + 3
        let parser = HTTPRequestParser(limits: limits)
        #expect(throws: Never.self) { try parser.parse(Self.head) }
        #expect(throws: HTTPError.self) { try parser.parse(Array("\r\n\r\n".utf8) + Self.head) }
    }

    /// Fed in pieces of every size with `scanned` kept between calls, the parser answers what
    /// it answers for the whole, and never looks at a byte twice more than the few it backs up.
    @Test(arguments: [1, 2, 3, 5, 8, 13])
    func resumingFindsWhatTheWholeFinds(piece: Int) throws {
        let parser = HTTPRequestParser()
        let whole = try parser.parse(Self.head)
        var pending: [UInt8] = []
        var scanned = 0
        var outcome = HTTPRequestParser.Outcome.incomplete
        for start in stride(from: 0, to: Self.head.count, by: piece) {
            pending += Self.head[start..<Swift.min(start + piece, Self.head.count)]
            outcome = try parser.parse(pending, scanned: &scanned)
            if case .incomplete = outcome { #expect(scanned == pending.count) }
        }
        #expect(outcome == whole)
        #expect(scanned == 0)
    }
}
