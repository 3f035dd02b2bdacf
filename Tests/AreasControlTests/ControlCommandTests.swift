import AreasControl
import AreasCore
import AreasProtocol
import AreasSystem
import Testing
import AreasTestTraits

/// areasctl's command lines: each must become the request the daemon's own parser reads back as
/// the same question (the parser is the oracle), and each bad line a usage error.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ControlCommandTests {
    @Test(arguments: [
        (["near", "37.53", "126.97", "-k", "3"], Request.near(point: GeoPoint(uncheckedLatitude: 37.53, longitude: 126.97), k: 3, maxMeters: nil, kind: .all, region: Region(), output: .full)),
        (["near", "37.53", "126.97", "--max-meters", "500", "--kind", "smoking", "--output", "ids"],
         Request.near(point: GeoPoint(uncheckedLatitude: 37.53, longitude: 126.97), k: 10, maxMeters: 500, kind: .smoking, region: Region(), output: .ids)),
        (["radius", "37.5", "127", "300", "--limit", "5"],
         Request.radius(point: GeoPoint(uncheckedLatitude: 37.5, longitude: 127), meters: 300, kind: .all, region: Region(), limit: 5, output: .full)),
        (["bbox", "37.5", "126.9", "37.6", "127.0", "--province", "서울"],
         Request.bbox(box: GeoBox(uncheckedSouth: 37.5, west: 126.9, north: 37.6, east: 127.0), kind: .all, region: Region(province: "서울"), limit: nil, output: .full)),
        (["check", "37.528916", "126.967984"], Request.check(point: GeoPoint(uncheckedLatitude: 37.528916, longitude: 126.967984), region: Region())),
        (["get", "yongsan:027a36e0cd0ad58b"], Request.get(id: "yongsan:027a36e0cd0ad58b")),
        (["stats"], Request.stats),
        (["health"], Request.health),
        (["refresh", "--force"], Request.refresh(wait: true, force: true)),
    ])
    func commandBecomesTheRequestTheDaemonReads(arguments: [String], expected: Request) throws {
        let command = try ControlCommand.parse(arguments)
        #expect(command.request == expected)
        #expect(try Request.parse(command.line) == expected)
    }

    @Test func alongSendsEveryPointInOrder() throws {
        let command = try ControlCommand.parse(["along", "--meters", "30", "37.55,126.97", "37.56,126.98", "37.57,126.99"])
        guard case .along(let path, let meters, _, _, _, _) = try Request.parse(command.line) else {
            Issue.record("not an along request")
            return
        }
        #expect(meters == 30)
        #expect(path.map(\.latitude) == [37.55, 37.56, 37.57])
        #expect(path.map(\.longitude) == [126.97, 126.98, 126.99])
    }

    @Test func outputFormatAndSocketComeFromTheirFlags() throws {
        #expect(try ControlCommand.parse(["stats", "--json"]).format == .json)
        #expect(try ControlCommand.parse(["near", "37", "127", "--geojson"]).format == .geojson)
        #expect(try ControlCommand.parse(["health"]).format == .table)
        #expect(try ControlCommand.parse(["--socket", "/tmp/x.sock", "health"]).socketPath == "/tmp/x.sock")
        #expect(try ControlCommand.parse(["refresh", "--quiet"]).quiet)
    }

    @Test(arguments: [
        ["near", "37.53"],
        ["near", "north", "126.97"],
        ["near", "37.53", "inf"],
        ["bbox", "1", "2", "3"],
        ["get"],
        ["stats", "extra"],
        ["fly"],
        [],
        ["near", "37", "127", "--kind", "cigars"],
        ["near", "37", "127", "--output", "xml"],
        ["near", "37", "127", "--json", "--geojson"],
        ["along", "37.5;127"],
        ["along"],
    ])
    func badCommandLinesAreUsageErrors(arguments: [String]) {
        #expect(throws: UsageError.self) { try ControlCommand.parse(arguments) }
    }
}
