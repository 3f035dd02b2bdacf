import AreasCore
import AreasIngest
import AreasProtocol
import AreasSystem
import AreasTestSupport
import Foundation
import Testing
@testable import AreasServer
import AreasTestTraits

/// What the README promises of the service, asked over a real socket against the samples; the
/// oracle is the samples themselves, read by the refresher in this process.
@Suite(.serialized, .offThePool, .timeLimit(.minutes(5))) struct PromisesTests {
    private static func sampleConfig() throws -> AreasConfig {
        try AreasConfig.load(path: Fixtures.samplesConfig)
    }

    @Test func answersBeyondMaxResultsAreCutAndSaySo() async throws {
        var config = try Self.sampleConfig()
        config.maxResults = 5
        let server = try await TestServer(config: config)
        let bbox = try server.ask(#"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"output":"ids"}"#)
        #expect(bbox["count"]?.double == 5)
        #expect(bbox["truncated"]?.bool == true)
        let near = try server.ask(#"{"op":"near","lat":37.53,"lon":126.97,"k":20,"output":"ids"}"#)
        #expect(near["count"]?.double == 5)
        #expect(near["truncated"]?.bool == true)
        let few = try server.ask(#"{"op":"near","lat":37.53,"lon":126.97,"k":3,"output":"ids"}"#)
        #expect(few["truncated"]?.bool == false)
    }

    @Test func noDataYetIsUnavailable() async throws {
        let server = try await TestServer(config: try Self.sampleConfig(), refresh: false)
        let answer = try server.ask(#"{"op":"near","lat":37.53,"lon":126.97}"#)
        #expect(answer["ok"]?.bool == false)
        #expect(answer["error"]?["code"]?.string == "unavailable")
        let health = try server.ask(#"{"op":"health"}"#)
        #expect(health["loaded"]?.bool == false)
        #expect(health["stale"]?.bool == true)
    }

    @Test func boxAnswersComeInIdOrder() async throws {
        let server = try await TestServer.samples()
        let ids = try server.ask(#"{"op":"bbox","south":37.4,"west":126.8,"north":37.7,"east":127.2,"output":"ids"}"#).ids
        #expect(ids.count > 100)
        #expect(ids == ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    @Test func aRouteOfOnePointIsACircle() async throws {
        let server = try await TestServer.samples()
        let along = try server.ask(#"{"op":"along","path":[[37.53,126.97]],"meters":800,"output":"ids"}"#)
        let radius = try server.ask(#"{"op":"radius","lat":37.53,"lon":126.97,"meters":800,"output":"ids"}"#)
        #expect(along.ids.count > 0)
        #expect(Set(along.ids) == Set(radius.ids))
        let full = try server.ask(#"{"op":"along","path":[[37.53,126.97]],"meters":800}"#)
        #expect(full["areas"]?.array.allSatisfy { $0["alongMeters"]?.double == 0 } == true)
    }

    @Test func healthTellsAgeStalenessAndTheLastRefresh() async throws {
        var config = try Self.sampleConfig()
        let server = try await TestServer(config: config)
        let fresh = try server.ask(#"{"op":"health"}"#)
        #expect(fresh["loaded"]?.bool == true)
        #expect(fresh["areas"]?.double == Double(SampleCounts.total))
        #expect((fresh["dataAgeSeconds"]?.double ?? -1) >= 0 && (fresh["dataAgeSeconds"]?.double ?? 99) < 60)
        #expect(fresh["stale"]?.bool == false)
        #expect(fresh["refreshing"]?.bool == false)
        #expect(fresh["lastRefreshSucceeded"]?.bool == true)
        // Data older than twice the refresh interval is stale.
        config.refreshIntervalSeconds = 0.001
        server.service.replace(config: config)
        try await Task.sleep(nanoseconds: 20_000_000)
        #expect(try server.ask(#"{"op":"health"}"#)["stale"]?.bool == true)
    }

    @Test(.tags(.concurrent)) func refreshRequestsShareOneRefreshAndOnlyAdminsMayAsk() async throws {
        var config = try Self.sampleConfig()
        let server = try await TestServer(config: config)
        let first = server.service.startRefresh(force: false)
        let second = server.service.startRefresh(force: true)
        #expect(first.job === second.job, "a refresh asked for while one runs joins it")
        let report = try #require(await first.report())
        #expect(await second.report() == report)

        var writer = JSONWriter()
        #expect(throws: RequestError.self) { try server.service.execute(.refresh(wait: false, force: false), peerUID: 4242, into: &writer) }
        config.adminUids = [4242]
        server.service.replace(config: config)
        writer.reset()
        try server.service.execute(.refresh(wait: false, force: false), peerUID: 4242, into: &writer)
        let answer = try JSONParser.parse(writer.bytes)
        #expect(answer["started"]?.bool == true)
        _ = await server.service.startRefresh(force: false).report()
    }

    @Test func provinceAliasesNameAProvince() async throws {
        var config = try Self.sampleConfig()
        config.provinceAliases["우리 도"] = "경기도"
        let server = try await TestServer(config: config)
        let aliased = try server.ask(#"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"province":"우리 도","output":"ids"}"#).ids
        let named = try server.ask(#"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"province":"경기도","output":"ids"}"#).ids
        #expect(aliased.count >= SampleCounts.anyang)
        #expect(aliased == named)
    }

    /// The sample config states the district of the two sources whose files have no district
    /// column, so `--district` finds their areas with or without the administrative map.
    @Test func theSamplesWithoutADistrictColumnAreFoundByTheirDistrict() async throws {
        let server = try await TestServer(config: try Self.sampleConfig())
        let anyang = try server.ask(#"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"district":"안양시","kind":"smoking","output":"count"}"#)
        #expect(anyang["count"]?.double == Double(SampleCounts.anyang), "\(anyang)")
        let bukgu = try server.ask(#"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"province":"울산광역시","district":"북구","kind":"smoking","output":"count"}"#)
        #expect(bukgu["count"]?.double == Double(SampleCounts.ulsanBukgu), "\(bukgu)")
    }

    @Test func anIdleConnectionIsClosedAndAnActiveOneIsNot() async throws {
        var limits = ConnectionServer.Limits()
        limits.idleTimeoutSeconds = 0.5
        let server = try await TestServer(config: try Self.sampleConfig(), limits: limits)
        let idle = try Sockets.connectUnix(path: server.socketPath)
        defer { idle.close() }
        let client = try server.client()
        // Asked every 0.2 s, the second connection outlives the first's time-out.
        for _ in 0..<5 {
            #expect(try server.ask(#"{"op":"health"}"#, on: client)["ok"]?.bool == true)
            try await Task.sleep(nanoseconds: 200_000_000)
        }
        #expect(throws: LineReader.Closed.self) { try LineReader(fd: idle, seconds: 10).next() }
    }
}
