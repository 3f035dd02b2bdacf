import AreasProtocol
import AreasTestSupport
import Foundation
import Glibc
import Testing
import AreasTestTraits

/// `areasctl --geojson` through the real client and daemon: every feature at its area's real
/// position whatever `--output` says, and a truncated collection that says so.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct GeoJSONOutputTests {
    static func features(_ text: String) throws -> [JSONValue] {
        let collection = try JSONParser.parse(Array(text.utf8))
        #expect(collection["type"]?.string == "FeatureCollection")
        return try #require(collection["features"]).array
    }

    @Test(arguments: ["full", "ids"])
    func everyFeatureIsWhereItsAreaIs(output: String) throws {
        let daemon = try SampleDaemon()
        let run = try Binaries.run("areasctl", ["--socket", daemon.socket, "near", "37.53", "126.97", "-k", "3", "--output", output, "--geojson"])
        #expect(run.status == 0, "\(run.stderr)")
        let features = try Self.features(run.stdout)
        #expect(features.count == 3)
        for feature in features {
            let id = try #require(feature["properties"]?["id"]?.string)
            // The oracle: the area as `get` returns it.
            let area = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"get","id":"\#(id)"}"#)?["areas"]?.array.first)
            let coordinates = feature["geometry"]?["coordinates"]?.array ?? []
            #expect(coordinates.count == 2)
            #expect(coordinates.first?.double == area["lon"]?.double && coordinates.last?.double == area["lat"]?.double, "\(id)")
            #expect(feature["properties"]?["distanceMeters"]?.double != nil)
            if output == "ids" { #expect(feature["properties"]?["name"] == nil, "ids keeps only the id and distance") }
        }
    }

    @Test func aTruncatedCollectionSaysSoAndCountIsRefused() throws {
        let daemon = try SampleDaemon()
        let run = try Binaries.run("areasctl", ["--socket", daemon.socket, "radius", "37.53", "126.97", "5000", "--limit", "3", "--geojson"])
        #expect(run.status == 0)
        #expect(try Self.features(run.stdout).count == 3)
        #expect(try JSONParser.parse(Array(run.stdout.utf8))["truncated"]?.bool == true)
        #expect(run.stderr.contains("more areas matched than the 3 shown"))
        let count = try Binaries.run("areasctl", ["--socket", daemon.socket, "near", "37.53", "126.97", "--output", "count", "--geojson"])
        #expect(count.status == 2)
        #expect(count.stderr.contains("--output count has no places to draw"))
    }

    @Test func scriptsGetTheSameAreasAsTabsAndJSONLines() throws {
        let daemon = try SampleDaemon()
        let base = ["--socket", daemon.socket, "near", "37.53", "126.97", "-k", "5"]
        let json = try Binaries.run("areasctl", base + ["--json"])
        let ids = try JSONParser.parse(Array(json.stdout.utf8))["areas"]?.array.compactMap { $0["id"]?.string } ?? []
        #expect(ids.count == 5)
        let tsv = try Binaries.run("areasctl", base + ["--format", "tsv"])
        #expect(tsv.status == 0)
        #expect(tsv.stdout.split(separator: "\n").map { String($0.split(separator: "\t", omittingEmptySubsequences: false)[0]) } == ids)
        #expect(tsv.stdout.split(separator: "\n").allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 7 })
        let ndjson = try Binaries.run("areasctl", base + ["--format", "ndjson"])
        #expect(try ndjson.stdout.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8))["id"]?.string } == ids)
    }
}
