import AreasProtocol
import AreasTestSupport
import Foundation
import Glibc
import Testing

/// The map rings the areas first seen in the last 30 days, in a real Chromium: none on a fresh
/// start (every area is first seen at once there), and after a release that added booths,
/// exactly those, where they are.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct MapNewAreasTests {
    /// Three booths a later release adds near Samgakji station, apart from the samples' areas.
    /// Each alone in its cell of the map's grid (64 pixels, about 120 m at zoom 16), so listed.
    static let booths = [("삼각지 새 흡연부스 가", 37.5310, 126.9690), ("삼각지 새 흡연부스 나", 37.5345, 126.9640), ("삼각지 새 흡연부스 다", 37.5290, 126.9740)]
    static let view = "37.5325,126.9700"

    /// What the page drew, in a browser of its own (`visit`: its folder, for its profile and
    /// screenshot; a browser that kept the last visit's answers could show them again).
    static func page(_ address: String, _ daemon: SampleDaemon, visit: String) throws -> JSONValue {
        let folder = daemon.folder + "/" + visit
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let run = try Binaries.run("/usr/bin/python3", [Fixtures.path("Tests/Browser/map_page.py"), "http://\(address)", folder, "--new", view], seconds: 120)
        try #require(run.status == 0, "\(run.stderr)")
        return try JSONParser.parse(Array(run.stdout.utf8))
    }

    /// The new source's file, as its publisher releases it.
    static func publish(_ booths: [(String, Double, Double)], in folder: String) throws {
        let csv = "이름,위도,경도,주소\n" + booths.map { "\($0.0),\($0.1),\($0.2),서울특별시 용산구 한강대로 \(Int($0.1 * 1e4) % 100)" }.joined(separator: "\n") + "\n"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/new-booths.csv"))
    }

    @Test(.enabled(if: MapPageTests.browser, "chromium, chromium-driver, python3-selenium and libjs-leaflet (Tests/run.sh installs them)"))
    func theAreasFirstSeenLaterAreRinged() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        let fresh = try Self.page(address, daemon, visit: "fresh")
        #expect(fresh["console"]?.array.isEmpty == true, "console: \(fresh["console"] ?? .null)")
        #expect((fresh["areaMarkers"]?.double ?? 0) > 0, "the view shows the samples' areas: \(fresh)")
        #expect(fresh["rings"]?.array.isEmpty == true && fresh["shown"]?["fresh"]?.double == 0, "a fresh start rings nothing: \(fresh["rings"] ?? .null)")
        #expect(fresh["newLegend"]?.string?.contains("최근 30일 새로 생긴 곳") == true, "\(fresh["newLegend"] ?? .null)")
        #expect(fresh["gone"] == .array([]) && fresh["goneRings"]?.array.isEmpty == true && fresh["goneText"] == .null, "nothing gone yet: \(fresh)")

        // The next release: a source of three booths more, read on SIGHUP.
        let first = try #require(DataVersionTests.version(daemon.socket))
        try Self.publish(Self.booths, in: daemon.folder)
        let config = try String(contentsOfFile: daemon.config, encoding: .utf8)
        let source = #"{"name": "new-booths", "kind": "smoking", "format": "csv", "file": "\#(daemon.folder)/new-booths.csv", "#
            + #""province": "서울특별시", "district": "용산구", "fields": {"name": "이름", "latitude": "위도", "longitude": "경도", "address": "주소"}},"#
        let added = config.replacingOccurrences(of: #""sources": ["#, with: #""sources": ["# + source)
        try #require(added != config, "the samples config has no sources list")
        try added.write(toFile: daemon.config, atomically: true, encoding: .utf8)
        kill(daemon.pid, SIGHUP)
        #expect(DaemonQuestions.waitUntil(seconds: 30) { DataVersionTests.version(daemon.socket).map { $0 != first } ?? false }, "no new version after SIGHUP")

        let later = try Self.page(address, daemon, visit: "later")
        #expect(later["console"]?.array.isEmpty == true, "console: \(later["console"] ?? .null)")
        // The oracle: the booths this test added, where it put them, among the areas the API
        // lists for the page's view.
        let answer = try MapPageTests.clusters(address, try #require(later["view"]))
        let listed = (answer["areas"]?.array ?? []).filter { $0["source"]?.string == "new-booths" }
        #expect(listed.count == Self.booths.count, "the view lists the three booths one by one: \(listed.count)")
        #expect(answer["firstServed"]?.string != nil && listed.allSatisfy { ($0["firstSeen"]?.string ?? "") > (answer["firstServed"]?.string ?? "~") }, "\(listed)")
        let rings: [(Double, Double)] = (later["rings"]?.array ?? []).compactMap { ring in
            let at = ring.array.compactMap(\.double)
            return at.count == 2 ? (at[0], at[1]) : nil
        }
        #expect(rings.count == Self.booths.count && later["shown"]?["fresh"]?.double == Double(Self.booths.count), "\(rings) \(later["shown"] ?? .null) \(answer["firstServed"] ?? .null) \(listed.map { $0["firstSeen"] ?? .null })")
        for booth in Self.booths {
            // A ring's centre within 5 m of the booth (a pixel is about 2 m at zoom 16).
            let ringed = rings.contains { (lat: Double, lon: Double) -> Bool in abs(lat - booth.1) * 111_000 < 5 && abs(lon - booth.2) * 88_000 < 5 }
            #expect(ringed, "\(booth.0) at \(booth.1),\(booth.2) is not ringed; rings at \(rings)")
        }
        // Clicked, a ringed booth says when it was first seen (the day of this run, in UTC).
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let details = later["details"]?.string ?? ""
        #expect(details.contains("처음 본 날 (first seen): \(today)") && details.contains("삼각지 새 흡연부스"), "\(details)")
        #expect(later["gone"] == .array([]), "nothing gone yet: \(later["gone"] ?? .null)")

        // The release after it drops one booth: listed as gone, ringed grey where it was; the
        // other two still ringed as new.
        try Self.publish(Array(Self.booths.prefix(2)), in: daemon.folder)
        let refresh = DaemonQuestions.ask(daemon.socket, #"{"op":"refresh","wait":true}"#)
        #expect(refresh?["ok"]?.bool == true, "\(refresh ?? .null)")
        let dropped = Self.booths[2]
        let last = try Self.page(address, daemon, visit: "last")
        let droppedAnswer = try MapPageTests.clusters(address, try #require(last["view"]))
        let goneIDs = (droppedAnswer["vanished"]?.array ?? []).compactMap { $0["id"]?.string }
        #expect(goneIDs.count == 1 && droppedAnswer["vanished"]?.array.first?["name"]?.string == dropped.0, "\(droppedAnswer["vanished"] ?? .null)")
        #expect(last["gone"]?.array.compactMap(\.string) == goneIDs, "\(last["gone"] ?? .null)")
        #expect(last["goneText"]?.string?.contains(dropped.0) == true && last["goneText"]?.string?.contains("최근 30일 사라진 곳") == true, "\(last["goneText"] ?? .null)")
        let goneRings = (last["goneRings"]?.array ?? []).map { $0.array.compactMap(\.double) }
        #expect(goneRings.count == 1 && goneRings.allSatisfy { $0.count == 2 && abs($0[0] - dropped.1) * 111_000 < 5 && abs($0[1] - dropped.2) * 88_000 < 5 }, "\(goneRings)")
        #expect(last["rings"]?.array.count == 2, "\(last["rings"] ?? .null)")
        // Filtered by district as the areas are: the booth was served in 용산구, not in 강남구.
        for (district, listed) in [("용산구", 1), ("강남구", 0)] {
            let query = "/v1/clusters?south=37.52&west=126.95&north=37.54&east=126.99&zoom=16&district=" + (district.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            let filtered = try JSONParser.parse(try HTTPTestClient(address).get(query).body)
            #expect(filtered["vanished"]?.array.count == listed, "\(district): \(filtered["vanished"] ?? .null)")
        }
    }
}
