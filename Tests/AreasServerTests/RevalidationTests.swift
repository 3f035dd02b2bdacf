import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// `If-None-Match` with the data's current tag: a 304 only for what would have succeeded, so a
/// cache that passes the header through never stores a 304 for a missing id.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct RevalidationTests {
    @Test func onlyASuccessIsNotModified() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        let first = try HTTPTestClient(address).get("/v1/areas/yongsan:1f91a67d36b1ef67")
        #expect(first.status == 200)
        let tag = try #require(first.field("etag"))
        let again = try HTTPTestClient(address).get("/v1/areas/yongsan:1f91a67d36b1ef67", fields: ["If-None-Match: \(tag)"])
        #expect(again.status == 304)
        let near = try HTTPTestClient(address).get("/v1/near?lat=37.53&lon=126.97&k=3", fields: ["If-None-Match: \(tag)"])
        #expect(near.status == 304)
        // The same tag for an id the data lacks, and for parameters out of range: the error.
        let missing = try HTTPTestClient(address).get("/v1/areas/yongsan:0000000000000000", fields: ["If-None-Match: \(tag)"])
        #expect(missing.status == 404)
        #expect(missing.field("cache-control") == "no-store")
        for target in ["/v1/near?lat=999&lon=126.97", "/v1/near?lat=37.53&lon=126.97&k=-5"] {
            let bad = try HTTPTestClient(address).get(target, fields: ["If-None-Match: \(tag)"])
            #expect(bad.status == 400, "\(target)")
        }
        daemon.stop()
    }
}
