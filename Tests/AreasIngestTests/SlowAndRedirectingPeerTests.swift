import AreasIngest
import AreasSystem
import AreasTestSupport
import Foundation
import Synchronization
import Testing
import AreasTestTraits

/// What areasd asks of another host (an upstream, the geocoder, a leader) through one HTTP
/// client, against a real loopback server: a peer that answers a byte at a time is cut off at
/// the request's time-out, not held for as long as it likes, and a redirect is refused, so no
/// request, and no key, goes to the host it points at.
/// The limit is the suite-wide five minutes: these tests await on the cooperative pool, which on
/// a two-core machine the blocking daemon tests can hold for a minute before these run at all.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct SlowAndRedirectingPeerTests {
    @Test func aDrippingUpstreamEndsAtTheTimeOut() async throws {
        // 100,000 bytes at one every half second: 14 hours, with never a second of silence.
        let server = try LoopbackHTTPServer { _ in .drip(status: 200, contentType: "text/csv", declaredLength: 100_000, interval: 0.5) }
        defer { server.stop() }
        let error = await #expect(throws: UpstreamError.self) {
            try await HTTPClient.get(server.baseURL + "/rows.csv", timeoutSeconds: 2, maxBytes: 1 << 20)
        }
        guard case .transport(let why)? = error else {
            Issue.record("not a transport failure: \(String(describing: error))")
            return
        }
        #expect(why.contains("timed out after 2 s without the whole answer"), "\(why)")
        #expect(error?.isTransient == true, "retried later, as a failed request is")
        #expect(server.requestCount == 1)
    }

    @Test(arguments: [301, 302, 307, 308])
    func aRedirectIsNotFollowedAndTheKeyStaysHome(status: Int) async throws {
        final class Seen: Sendable { let requests = Atomic<Int>(0) }
        let seen = Seen()
        let elsewhere = try LoopbackHTTPServer { _ in
            seen.requests.add(1, ordering: .relaxed)
            return .text(200, #"{"documents":[{"x":"0","y":"0"}]}"#)
        }
        defer { elsewhere.stop() }
        let upstream = try LoopbackHTTPServer { _ in .redirect(status: status, location: elsewhere.baseURL + "/v2/local/search/address.json?query=x") }
        defer { upstream.stop() }
        let error = await #expect(throws: UpstreamError.self) {
            try await HTTPClient.get(upstream.baseURL + "/v2/local/search/address.json?query=x&serviceKey=secret",
                                     headers: [("Authorization", "KakaoAK secret")], timeoutSeconds: 60, maxBytes: 1 << 20)
        }
        guard case .transport(let why)? = error else {
            Issue.record("not a transport failure: \(String(describing: error))")
            return
        }
        #expect(why.contains("answered HTTP \(status), a redirect, which is not followed"), "\(why)")
        #expect(!why.contains("secret") && !why.contains("127.0.0.1"), "the message names neither the key nor the other host: \(why)")
        #expect(upstream.requestCount == 1)
        #expect(seen.requests.load(ordering: .relaxed) == 0, "the redirect's target was asked")
    }

    /// A 304 is an answer, not a redirect: a follower's If-None-Match gets it.
    @Test func notModifiedIsAnAnswer() async throws {
        let server = try LoopbackHTTPServer { _ in .body(status: 304, contentType: "application/octet-stream", []) }
        defer { server.stop() }
        let response = try await HTTPClient.get(server.baseURL + "/v1/snapshot", headers: [("If-None-Match", "\"x\"")], timeoutSeconds: 60, maxBytes: 1 << 20)
        #expect(response.status == 304)
    }
}
