import AreasTestSupport
import Foundation
import Testing
@testable import AreasIngest
import AreasTestTraits

/// `maxPageBytes`: a page larger than the limit is a transient failure naming its size, found
/// from the declared length or while the body arrives, never after holding all of it.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct PageSizeLimitTests {
    @Test func aDeclaredLengthPastTheLimitIsRefused() async throws {
        let server = try LoopbackHTTPServer { _ in .body(status: 200, contentType: "text/xml", [UInt8](repeating: 0x20, count: 3 << 20)) }
        defer { server.stop() }
        let transport = HTTPPageTransport(baseURL: server.baseURL + "/zones", format: .dataGoKrXML, serviceKey: nil, timeoutSeconds: 60, maxPageBytes: 1 << 20)
        let error = await #expect(throws: UpstreamError.self) { _ = try await transport.fetch(page: 1, size: 100) }
        #expect(error?.description == "3145728 bytes is more than maxPageBytes (1048576)")
        #expect(error?.isTransient == true)
    }

    @Test func aBodyWithoutALengthIsStoppedOnceItPassesTheLimit() async throws {
        // A body that never ends and never pauses: without the limit the fetch would never
        // finish (the time-out is for silence) and would hold all of it.
        let server = try LoopbackHTTPServer { _ in .endless(contentType: "text/xml", pattern: Array("<item></item>".utf8)) }
        defer { server.stop() }
        let transport = HTTPPageTransport(baseURL: server.baseURL + "/zones", format: .dataGoKrXML, serviceKey: nil, timeoutSeconds: 60, maxPageBytes: 1 << 20)
        let error = await #expect(throws: UpstreamError.self) { _ = try await transport.fetch(page: 1, size: 100) }
        guard case .tooLarge(let bytes, let limit) = error else {
            Issue.record("expected tooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 1 << 20)
        #expect(bytes > limit && bytes < limit + (4 << 20), "stopped soon after the limit (\(bytes) bytes)")
    }

    @Test func aPageWithinTheLimitArrivesWhole() async throws {
        let page = Array(String(repeating: "<item>가</item>", count: 50_000).utf8)
        let server = try LoopbackHTTPServer { _ in .body(status: 200, contentType: "text/xml", page) }
        defer { server.stop() }
        let transport = HTTPPageTransport(baseURL: server.baseURL + "/zones", format: .dataGoKrXML, serviceKey: nil, timeoutSeconds: 60, maxPageBytes: 1 << 20)
        let response = try await transport.fetch(page: 1, size: 100)
        #expect(response?.status == 200)
        #expect(response?.body == page)
    }
}
