import AreasTestSupport
import AreasTestTraits
import Foundation
import Testing
@testable import AreasProtocol

/// The README's first command with the samples' crowd levels, through the real binaries: the
/// bundled config replays the city's recorded answers, so levels show with no network and no
/// key; a question inside a hotspot brings its level, `areasctl crowd` lists them, the HTTP
/// answers' tags follow the levels, and `/v1/crowd` draws the hotspots as GeoJSON.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct CrowdDaemonTests {
    @Test func theSamplesShowCrowdLevelsWithNoNetwork() throws {
        let (daemon, address) = try SampleDaemon.withHTTP(crowd: true)
        defer { daemon.stop() }
        #expect(DaemonQuestions.waitUntil(seconds: 10) { daemon.logSoFar.contains("crowd: 8 hotspots from") }, "\(daemon.logSoFar)")
        // 서울역 lies in hotspot POI001, whose recording says 약간 붐빔.
        let near = #"{"op":"near","lat":37.5547,"lon":126.9707,"k":5}"#
        var answer = DaemonQuestions.ask(daemon.socket, near)
        #expect(DaemonQuestions.waitUntil(seconds: 10) {
            answer = DaemonQuestions.ask(daemon.socket, near)
            return answer?["areas"]?.array.contains { $0["crowd"] != nil } == true
        })
        let crowd = try #require(answer?["areas"]?.array.first { $0["crowd"] != nil }?["crowd"])
        #expect(crowd["place"]?.string == "서울역" && crowd["level"]?.string == "약간 붐빔")
        let age = try #require(crowd["ageSeconds"]?.double)
        #expect(age >= 0 && age < 86_400)

        let table = try Binaries.run("areasctl", ["--socket", daemon.socket, "crowd"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.hasPrefix("8 hotspots, 1 with a level"), "\(table.stdout)")
        #expect(table.stdout.contains("서울역") && table.stdout.contains("약간 붐빔") && table.stdout.contains("ok"), "\(table.stdout)")
        // The counts add up: a recording's reads are not requests to the city (it said "0
        // requests (ok 1)"); ASKED is when, OUTCOME how, both as /v1/crowd gives them, in KST.
        #expect(table.stdout.contains("read from recorded answers, no requests to the city (answers since start: ok 1)"), "\(table.stdout)")
        let listed = try JSONParser.parse(Array(try Binaries.run("areasctl", ["--socket", daemon.socket, "crowd", "--json"]).stdout.utf8))
        let station = try #require(listed["hotspots"]?.array.first { $0["code"]?.string == "POI001" })
        let askedAt = try #require(station["lastAskedAt"]?.string)
        let row = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("POI001") })
        #expect(row.contains(String(askedAt.prefix(16)).replacingOccurrences(of: "T", with: " ")) && row.hasSuffix("ok"), "\(row)")
        #expect(table.stdout.contains("AT (KST)") && table.stdout.contains("ASKED (KST)") && table.stdout.contains("OUTCOME"), "\(table.stdout)")
        let detail = try Binaries.run("areasctl", ["--socket", daemon.socket, "check", "37.5547", "126.9707"])
        #expect(detail.stdout.contains("crowd: 서울역: 약간 붐빔"), "\(detail.stdout)")

        // Over HTTP: the level's arrival changed the tag; the tag then holds, and a question
        // inside a hotspot revalidated is still run (to ask the city when due) and answered 304.
        let client = try HTTPTestClient(address)
        let first = try client.get("/v1/near?lat=37.5547&lon=126.9707&k=5")
        let tag = try #require(first.field("etag"))
        #expect(first.text.contains(#""crowd":{"place":"서울역""#))
        #expect(try client.get("/v1/near?lat=37.5547&lon=126.9707&k=5", fields: ["If-None-Match: \(tag)"]).status == 304)
        // 명동 (outside the hole at its centre) is asked about now: its level, arriving, changes the tag of every answer that may carry one.
        _ = try client.get("/v1/check?lat=37.5610&lon=126.9850")
        #expect(DaemonQuestions.waitUntil(seconds: 10) {
            (try? client.get("/v1/near?lat=37.5547&lon=126.9707&k=5", fields: ["If-None-Match: \(tag)"]).status) == 200
        })
        let geojson = try client.get("/v1/crowd?format=geojson")
        #expect(geojson.status == 200 && geojson.field("cache-control") == "no-store")
        let collection = try JSONParser.parse(Array(geojson.body))
        let features = collection["features"]?.array ?? []
        #expect(features.count == 8)
        #expect(features.allSatisfy { ["Polygon", "MultiPolygon"].contains($0["geometry"]?["type"]?.string ?? "") })
        let levels = Dictionary(uniqueKeysWithValues: features.map { ($0["properties"]?["code"]?.string ?? "", $0["properties"]?["level"]?.string) })
        #expect(levels["POI001"] == "약간 붐빔" && levels["POI004"] == "붐빔" && levels["POI008"] == .some(nil), "\(levels)")
        let metrics = try client.get("/metrics").text
        #expect(metrics.contains(#"areas_crowd_requests_total{outcome="ok"} 2"#), "\(metrics)")
        #expect(metrics.contains(#"areas_crowd_level{code="POI001",place="서울역"} 2"#), "\(metrics)")
    }

    /// `--check-config` and start-up name what `crowd` lacks: the key's variable, a places file.
    @Test func checkConfigNamesTheKeyAndThePlacesFile() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = try Fixtures.sampleConfig(in: folder, extra: #""crowd": {"places": "\#(folder)/missing.geojson"}"#)
        let unset = try Binaries.run("areasd", ["--check-config", "--config", config], environment: ["SEOUL_DATA_KEY": ""])
        #expect(unset.status == 78)
        #expect(unset.stderr.contains("crowd.keyEnv: the environment variable SEOUL_DATA_KEY is not set (it holds the city's key)"), "\(unset.stderr)")
        let set = try Binaries.run("areasd", ["--check-config", "--config", config], environment: ["SEOUL_DATA_KEY": "k"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stderr.contains("warning:") && set.stderr.contains("crowd.places") && set.stderr.contains("missing.geojson")
                && set.stderr.contains("starting without crowd levels"), "\(set.stderr)")
    }
}
