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
        guard case .timedOut(let seconds)? = error else {
            Issue.record("not a time-out: \(String(describing: error))")
            return
        }
        #expect(seconds == 2)
        #expect(error?.description.contains("timed out after 2 s without the whole answer") == true, "\(String(describing: error))")
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
        guard case .redirected(status)? = error, let why = error?.description else {
            Issue.record("not a refused redirect: \(String(describing: error))")
            return
        }
        #expect(why.contains("answered HTTP \(status), a redirect, which is not followed"), "\(why)")
        #expect(!why.contains("secret") && !why.contains("127.0.0.1"), "the message names neither the key nor the other host: \(why)")
        #expect(upstream.requestCount == 1)
        #expect(seen.requests.load(ordering: .relaxed) == 0, "the redirect's target was asked")
    }

    /// Deadlines that fall while a redirect is being refused: FoundationNetworking traps when a
    /// task waiting to be told not to follow one is cancelled, which took the whole process
    /// down. 640 requests, a third with deadlines of 10 ms, each ends as a refused redirect or
    /// a time-out, and the process lives.
    @Test func deadlinesDuringRedirectsEndOnlyTheirRequests() async throws {
        let server = try LoopbackHTTPServer { _ in .redirect(status: 301, location: "http://127.0.0.1:9/elsewhere") }
        defer { server.stop() }
        let outcomes = LockedValue<[String: Int]>([:])
        for _ in 0..<40 {
            await withTaskGroup(of: Void.self) { group in
                for i in 0..<16 {
                    group.addTask {
                        let outcome: String
                        do throws(UpstreamError) {
                            _ = try await HTTPClient.get(server.baseURL + "/k/\(i)", timeoutSeconds: i % 3 == 0 ? 0.01 : 2, maxBytes: 1 << 20)
                            outcome = "answered"
                        } catch {
                            switch error {
                            case .redirected: outcome = "redirected"
                            case .timedOut: outcome = "timed out"
                            default: outcome = error.description
                            }
                        }
                        outcomes.withLock { $0[outcome, default: 0] += 1 }
                    }
                }
            }
        }
        let seen = outcomes.withLock { $0 }
        #expect(Set(seen.keys).isSubset(of: ["redirected", "timed out"]), "\(seen)")
        #expect(seen.values.reduce(0, +) == 640)
        #expect(seen["redirected", default: 0] >= 400, "the requests with 2 s to answer are refused as redirects: \(seen)")
    }

    /// A 304 is an answer, not a redirect: a follower's If-None-Match gets it.
    @Test func notModifiedIsAnAnswer() async throws {
        let server = try LoopbackHTTPServer { _ in .body(status: 304, contentType: "application/octet-stream", []) }
        defer { server.stop() }
        let response = try await HTTPClient.get(server.baseURL + "/v1/snapshot", headers: [("If-None-Match", "\"x\"")], timeoutSeconds: 60, maxBytes: 1 << 20)
        #expect(response.status == 304)
    }
}
