import AreasCore
import AreasProtocol
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// OGC API - Features on the samples, against the socket's own answers: the landing page links
/// up, every area is paged exactly once, filters give what the socket gives, bad input is a
/// 400 or 404 with the JSON error body, the OpenAPI document passes PyPI's validator, and GDAL
/// (the OAPIF driver QGIS and ogr2ogr use) reads the collections whole.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct OGCFeaturesTests {
    static let gdal = FileManager.default.isExecutableFile(atPath: "/usr/bin/ogr2ogr")
    static let validator = PythonModule.isAvailable("openapi_spec_validator")
    static let shapely = PythonModule.isAvailable("shapely")

    static func get(_ address: String, _ target: String, fields: [String] = []) throws -> (status: Int, body: JSONValue) {
        let response = try HTTPTestClient(address).get(target, fields: fields)
        return (response.status, try JSONParser.parse(response.body))
    }

    /// The socket's areas of a kind, by id: the oracle every page is held to.
    static func socketAreas(_ socket: String, kind: String) throws -> [String: JSONValue] {
        let answer = try #require(DaemonQuestions.ask(socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"kind":"\#(kind)","limit":100000}"#))
        return Dictionary(uniqueKeysWithValues: answer["areas"]?.array.compactMap { area in area["id"]?.string.map { ($0, area) } } ?? [])
    }

    @Test func theLandingPageConformanceAndCollectionsLinkUp() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        let landing = try Self.get(address, "/ogc")
        #expect(landing.status == 200)
        let links = Dictionary((landing.body["links"]?.array ?? []).compactMap { link in link["rel"]?.string.map { ($0, link["href"]?.string ?? "") } }, uniquingKeysWith: { a, _ in a })
        #expect(links["self"] == "http://areas.test/ogc" && links["conformance"] == "http://areas.test/ogc/conformance")
        #expect(links["data"] == "http://areas.test/ogc/collections" && links["service-desc"] == "http://areas.test/ogc/api")
        let classes = try Self.get(address, "/ogc/conformance").body["conformsTo"]?.array.compactMap(\.string) ?? []
        for part in ["core", "oas30", "geojson"] { #expect(classes.contains("http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/\(part)")) }
        let collections = try Self.get(address, "/ogc/collections").body["collections"]?.array ?? []
        #expect(collections.compactMap { $0["id"]?.string } == ["smoking", "nonsmoking", "zones"])
        // Each extent is the box of its areas, as the socket's areas draw it; the zones' holds
        // the zones' positions and reaches past them.
        let box = { (collection: JSONValue) in collection["extent"]?["spatial"]?["bbox"]?.array.first?.array.compactMap(\.double) ?? [] }
        let (points, footprints) = (box(collections[1]), box(collections[2]))
        #expect(footprints.count == 4 && footprints[0] < points[0] && footprints[1] < points[1] && footprints[2] > points[2] && footprints[3] > points[3])
        for collection in collections.prefix(2) {
            let kind = try #require(collection["id"]?.string)
            let areas = try Self.socketAreas(daemon.socket, kind: kind).values
            let box = collection["extent"]?["spatial"]?["bbox"]?.array.first?.array.compactMap(\.double) ?? []
            let lats = areas.compactMap { $0["lat"]?.double }, lons = areas.compactMap { $0["lon"]?.double }
            #expect(box == [lons.min() ?? 0, lats.min() ?? 0, lons.max() ?? 0, lats.max() ?? 0], "\(kind)")
        }
        let queryables = try Self.get(address, "/ogc/collections/smoking/queryables").body["properties"]
        #expect(Set(["district", "province", "source", "kind", "name"]).allSatisfy { queryables?[$0] != nil })
    }

    /// Fifty at a time, following `next`: every area of the kind exactly once, each as the
    /// socket gives it; a page costs its own areas, not a scan from the start.
    @Test(arguments: ["smoking", "nonsmoking"])
    func pagingGivesEveryAreaOnce(kind: String) throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        let expected = try Self.socketAreas(daemon.socket, kind: kind)
        var seen: [String] = []
        var target: String? = "/ogc/collections/\(kind)/items?limit=50"
        var matched: Double?
        while let next = target, seen.count <= expected.count {
            let page = try Self.get(address, next)
            #expect(page.status == 200, "\(next): \(page.body)")
            matched = page.body["numberMatched"]?.double ?? matched
            let features = page.body["features"]?.array ?? []
            #expect(page.body["numberReturned"]?.double == Double(features.count))
            for feature in features {
                let id = try #require(feature["id"]?.string)
                seen.append(id)
                let coordinates = feature["geometry"]?["coordinates"]?.array.compactMap(\.double) ?? []
                #expect(coordinates == [expected[id]?["lon"]?.double ?? .nan, expected[id]?["lat"]?.double ?? .nan], "\(id)")
                #expect(feature["properties"]?["name"] == expected[id]?["name"])
            }
            target = (page.body["links"]?.array ?? []).first { $0["rel"]?.string == "next" }?["href"]?.string.map { $0.replacingOccurrences(of: "http://areas.test", with: "") }
        }
        #expect(seen.count == expected.count && Set(seen) == Set(expected.keys), "\(seen.count) paged, \(expected.count) served")
        #expect(matched == Double(expected.count))
    }

    @Test func filtersGiveWhatTheSocketGives() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        let all = try Self.socketAreas(daemon.socket, kind: "nonsmoking")
        let inBox = { (area: JSONValue) in
            let (lat, lon) = (area["lat"]?.double ?? 0, area["lon"]?.double ?? 0)
            return lat >= 37.5 && lat <= 37.6 && lon >= 126.9 && lon <= 127.0
        }
        for (query, keep) in [("bbox=126.9,37.5,127.0,37.6", { (area: JSONValue) in inBox(area) }),
                              ("district=%EC%9A%A9%EC%82%B0%EA%B5%AC", { (area: JSONValue) in area["district"]?.string == "용산구" }),
                              ("bbox=126.9,37.5,127.0,37.6&source=nonsmoking-zones", { (area: JSONValue) in inBox(area) && area["source"]?.string == "nonsmoking-zones" })] {
            let page = try Self.get(address, "/ogc/collections/nonsmoking/items?limit=10000&" + query)
            #expect(page.status == 200, "\(query): \(page.body)")
            let ids = Set(page.body["features"]?.array.compactMap { $0["id"]?.string } ?? [])
            let wanted = Set(all.filter { keep($0.value) }.keys)
            #expect(!wanted.isEmpty && ids == wanted, "\(query): \(ids.count) against \(wanted.count)")
        }
        let one = try #require(all.keys.sorted().first)
        let item = try Self.get(address, "/ogc/collections/nonsmoking/items/" + Request.percentEncoded(one))
        #expect(item.status == 200 && item.body["id"]?.string == one)
    }

    /// Paging inside a box, whether the page is read from the tree (a box of few areas) or in
    /// id order (a box of many): every area in the box once; zones by their footprints.
    @Test func pagingInABoxGivesEveryAreaInItOnce() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        func page(_ first: String) throws -> [JSONValue] {
            var features: [JSONValue] = []
            var target: String? = first
            while let next = target, features.count < 20_000 {
                let body = try Self.get(address, next).body
                features += body["features"]?.array ?? []
                target = (body["links"]?.array ?? []).first { $0["rel"]?.string == "next" }?["href"]?.string.map { $0.replacingOccurrences(of: "http://areas.test", with: "") }
            }
            return features
        }
        let boxes = [(33.0, 124.0, 39.0, 132.0), (37.5, 126.9, 37.6, 127.0), (37.52, 126.95, 37.56, 126.99)]
        for kind in ["smoking", "nonsmoking"] {
            let all = try Self.socketAreas(daemon.socket, kind: kind)
            for (south, west, north, east) in boxes {
                let wanted = Set(all.filter { _, area in
                    let (lat, lon) = (area["lat"]?.double ?? 0, area["lon"]?.double ?? 0)
                    return lat >= south && lat <= north && lon >= west && lon <= east
                }.keys)
                for limit in [7, 50, 1_000] {
                    let ids = try page("/ogc/collections/\(kind)/items?limit=\(limit)&bbox=\(west),\(south),\(east),\(north)").compactMap { $0["id"]?.string }
                    #expect(ids.count == wanted.count && Set(ids) == wanted, "\(kind) in \((south, west, north, east)), \(limit) a page: \(ids.count) against \(wanted.count)")
                }
            }
        }
        // Zones: every zone whose outline lies in the box, and none whose outline is far from it.
        let zones = try page("/ogc/collections/zones/items?limit=10000")
        func outlineBox(_ feature: JSONValue) -> (Double, Double, Double, Double) {
            func positions(_ value: JSONValue) -> [[Double]] {
                let numbers = value.array.compactMap(\.double)
                return numbers.count == 2 ? [numbers] : value.array.flatMap(positions)
            }
            let points = positions(feature["geometry"]?["coordinates"] ?? .null)
            return (points.map { $0[1] }.min() ?? 0, points.map { $0[0] }.min() ?? 0, points.map { $0[1] }.max() ?? 0, points.map { $0[0] }.max() ?? 0)
        }
        for (south, west, north, east) in boxes.dropFirst() {
            for limit in [7, 1_000] {
                let ids = Set(try page("/ogc/collections/zones/items?limit=\(limit)&bbox=\(west),\(south),\(east),\(north)").compactMap { $0["id"]?.string })
                let slack = 0.0001  // about 10 m: the outline lies a little beyond the footprint
                for zone in zones {
                    let (s, w, n, e) = outlineBox(zone)
                    let id = zone["id"]?.string ?? ""
                    if s >= south && n <= north && w >= west && e <= east { #expect(ids.contains(id), "\(id) lies in the box") }
                    if s > north + slack || n < south - slack || w > east + slack || e < west - slack { #expect(!ids.contains(id), "\(id) lies outside the box") }
                }
                #expect(!ids.isEmpty)
            }
        }
    }

    @Test func badInputIsAClearError() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        for (target, status, words) in [
            ("/ogc/collections/smoking/items?limit=0", 400, "limit must be"), ("/ogc/collections/smoking/items?limit=10001", 400, "limit must be"),
            ("/ogc/collections/smoking/items?bbox=1,2", 400, "bbox must be"), ("/ogc/collections/smoking/items?bbox=nan,33,132,39", 400, "bbox must be"),
            ("/ogc/collections/smoking/items?bbox=130,33,125,39", 400, "antimeridian"), ("/ogc/collections/smoking/items?colour=red", 400, "takes no parameter 'colour'"),
            ("/ogc/collections/smoking/items?cursor=forged", 400, "start again"), ("/ogc/collections/smoking/items?cursor=old~5", 410, "start again"),
            ("/ogc/collections/smoking/items?f=xml", 400, "f must be json"), ("/ogc/collections/parks", 404, "no collection 'parks'"),
            ("/ogc/collections/smoking/items/nothing:0", 404, "no feature"), ("/ogc/elsewhere", 404, "no such path"),
        ] as [(String, Int, String)] {
            let answer = try Self.get(address, target)
            #expect(answer.status == status && answer.body["ok"]?.bool == false, "\(target): \(answer.status) \(answer.body)")
            #expect(answer.body["error"]?["message"]?.string?.contains(words) == true, "\(target): \(answer.body)")
        }
    }

    @Test(.enabled(if: OGCFeaturesTests.validator, "openapi-spec-validator from PyPI (Tests/run.sh installs it)"))
    func theOpenAPIDocumentIsValid() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        let response = try HTTPTestClient(address).get("/ogc/api")
        #expect(response.status == 200)
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(response.body).write(to: URL(fileURLWithPath: folder + "/api.json"))
        let script = "import json, sys\nfrom openapi_spec_validator import validate\nvalidate(json.load(open(sys.argv[1])))\nprint('valid')"
        #expect(String(decoding: try PythonOracle.run(script, inline: true, [folder + "/api.json"]), as: UTF8.self).contains("valid"))
    }

    /// GDAL's OAPIF driver, as QGIS and ogr2ogr read a service: it lists both collections and
    /// copies every area exactly once, fifty to a page.
    @Test(.enabled(if: OGCFeaturesTests.gdal, "gdal-bin (Tests/run.sh installs it)"))
    func gdalReadsTheCollectionsWhole() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = ["GDAL_HTTP_TIMEOUT": "30", "CPL_DEBUG": "OFF", "HOME": folder]
        let info = try Binaries.run("/usr/bin/ogrinfo", ["-ro", "-q", "OAPIF:http://\(address)/ogc"], environment: environment, seconds: 120)
        #expect(info.status == 0 && ["smoking", "nonsmoking", "zones"].allSatisfy { info.stdout.contains("\($0) (") }, "\(info.stdout) \(info.stderr)")
        // Into a GeoPackage fifty to a page, read back by GDAL: every area once, where the socket puts it.
        let run = try Binaries.run("/usr/bin/ogr2ogr", ["-f", "GPKG", folder + "/smoking.gpkg", "OAPIF:http://\(address)/ogc", "smoking", "-oo", "PAGE_SIZE=50"],
                                   environment: environment, seconds: 180)
        #expect(run.status == 0, "\(run.stderr)")
        let copy = folder + "/smoking.geojson"
        let back = try Binaries.run("/usr/bin/ogr2ogr", ["-f", "GeoJSON", copy, folder + "/smoking.gpkg"], environment: environment, seconds: 60)
        #expect(back.status == 0, "\(back.stderr)")
        let copied = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: copy))))
        let features = copied["features"]?.array ?? []
        let ids = features.compactMap { $0["properties"]?["id"]?.string }
        let expected = try Self.socketAreas(daemon.socket, kind: "smoking")
        #expect(ids.count == expected.count && Set(ids) == Set(expected.keys), "\(ids.count) copied, \(expected.count) served")
        for feature in features {
            let id = feature["properties"]?["id"]?.string ?? ""
            let position = feature["geometry"]?["coordinates"]?.array.compactMap(\.double) ?? []
            #expect(position == [expected[id]?["lon"]?.double ?? .nan, expected[id]?["lat"]?.double ?? .nan], "\(id): \(position)")
        }

        // A box (`-spat`) and an attribute filter (`-where`, sent as a queryable) give exactly
        // what the socket gives.
        let zones = try Self.socketAreas(daemon.socket, kind: "nonsmoking")
        for (options, keep) in [(["-spat", "126.9", "37.5", "127.0", "37.6"], { (area: JSONValue) -> Bool in
                                    let (lat, lon) = (area["lat"]?.double ?? 0, area["lon"]?.double ?? 0)
                                    return lat >= 37.5 && lat <= 37.6 && lon >= 126.9 && lon <= 127.0 }),
                                (["-where", "district = '용산구'"], { (area: JSONValue) -> Bool in area["district"]?.string == "용산구" })] {
            let filtered = folder + "/filtered-\(options[0].dropFirst()).geojson"
            let run = try Binaries.run("/usr/bin/ogr2ogr", ["-f", "GeoJSON", filtered, "OAPIF:http://\(address)/ogc", "nonsmoking", "-oo", "PAGE_SIZE=500"] + options,
                                       environment: environment, seconds: 180)
            #expect(run.status == 0, "\(options): \(run.stderr)")
            let got = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: filtered))))
            let ids = got["features"]?.array.compactMap { $0["properties"]?["id"]?.string } ?? []
            let wanted = Set(zones.filter { keep($0.value) }.keys)
            #expect(!wanted.isEmpty && ids.count == wanted.count && Set(ids) == wanted, "\(options): \(ids.count) copied, \(wanted.count) served")
        }
    }

    /// The `zones` collection: every zone once, each a polygon (a circle of at least 32
    /// vertices), and each holding every point `check` puts in it, by shapely. GDAL copies it
    /// into a GeoPackage whole, polygons and all.
    @Test(.enabled(if: OGCFeaturesTests.shapely, "shapely from PyPI (Tests/run.sh installs it)"))
    func zonesAreTheFootprintsCheckTests() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        let expected = try Self.socketAreas(daemon.socket, kind: "nonsmoking")
        let page = try Self.get(address, "/ogc/collections/zones/items?limit=10000")
        #expect(page.status == 200)
        let features = page.body["features"]?.array ?? []
        let zones = Dictionary(features.compactMap { feature in feature["id"]?.string.map { ($0, feature) } }, uniquingKeysWith: { a, _ in a })
        #expect(features.count == expected.count && Set(zones.keys) == Set(expected.keys), "\(features.count) zones, \(expected.count) served")
        var shaped = 0
        for (id, feature) in zones {
            let type = feature["geometry"]?["type"]?.string ?? "none"
            #expect(type == "Polygon" || type == "MultiPolygon", "\(id): \(type)")
            let footprint = feature["properties"]?["footprint"]
            if footprint?["shape"]?.string == "circle" {
                #expect((feature["geometry"]?["coordinates"]?.array.first?.array.count ?? 0) >= 33, "\(id): a circle of 32 vertices and the first again")
            } else {
                shaped += 1
            }
            #expect(feature["properties"]?["name"] == expected[id]?["name"])
        }
        #expect(shaped >= 15, "the samples' parks and school routes")
        // Asked again (the traced outlines now kept), the same polygons.
        let again = try Self.get(address, "/ogc/collections/zones/items?limit=10000").body["features"]?.array ?? []
        #expect(again.map { $0["geometry"] } == features.map { $0["geometry"] })

        // Points over every shaped zone and a sample of circles, each asked of `check`.
        func positions(_ value: JSONValue) -> [[Double]] {
            let numbers = value.array.compactMap(\.double)
            return numbers.count == 2 ? [numbers] : value.array.flatMap(positions)
        }
        var random = SplitMix64(seed: 7)
        let sampled = zones.keys.sorted().filter { zones[$0]?["properties"]?["footprint"]?["shape"]?.string != "circle" } + zones.keys.sorted().prefix(40)
        var asked: [[String: Any]] = []
        for id in sampled {
            let corners = positions(zones[id]?["geometry"]?["coordinates"] ?? .null)
            let (lons, lats) = (corners.map { $0[0] }, corners.map { $0[1] })
            guard let west = lons.min(), let east = lons.max(), let south = lats.min(), let north = lats.max() else { continue }
            for _ in 0..<25 {
                let lat = Double.random(in: south...north, using: &random), lon = Double.random(in: west...east, using: &random)
                let answer = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"check","lat":\#(lat),"lon":\#(lon)}"#))
                let holding = answer["zones"]?.array.compactMap { $0["id"]?.string } ?? []
                asked.append(["point": [lon, lat], "zones": holding])
            }
        }
        let held = asked.reduce(0) { $0 + (($1["zones"] as? [String])?.count ?? 0) }
        #expect(held > 500, "the points fall in zones")
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(page.body.indentedText.utf8).write(to: URL(fileURLWithPath: folder + "/zones.json"))
        try JSONSerialization.data(withJSONObject: asked).write(to: URL(fileURLWithPath: folder + "/asked.json"))
        let script = """
            import json, sys
            from shapely.geometry import shape, Point
            zones = {f["id"]: shape(f["geometry"]) for f in json.load(open(sys.argv[1]))["features"]}
            invalid = [i for i, g in zones.items() if not g.is_valid]
            outside = [(a["point"], z) for a in json.load(open(sys.argv[2])) for z in a["zones"] if not zones[z].buffer(1e-9).covers(Point(a["point"]))]
            print(json.dumps({"invalid": invalid, "outside": outside[:20], "count": len(outside)}))
            """
        let verdict = try #require(try PythonOracle.json(script, inline: true, [folder + "/zones.json", folder + "/asked.json"]) as? [String: Any])
        #expect((verdict["invalid"] as? [Any])?.isEmpty == true, "shapely finds invalid outlines: \(verdict)")
        #expect(verdict["count"] as? Int == 0, "points check puts in a zone lie outside its outline: \(verdict)")

        // GDAL, into a GeoPackage and back: every zone, as a polygon.
        guard Self.gdal else {
            Issue.record("gdal-bin is missing (Tests/run.sh installs it)")
            return
        }
        let environment = ["GDAL_HTTP_TIMEOUT": "30", "CPL_DEBUG": "OFF", "HOME": folder]
        let copy = try Binaries.run("/usr/bin/ogr2ogr", ["-f", "GPKG", folder + "/zones.gpkg", "OAPIF:http://\(address)/ogc", "zones", "-oo", "PAGE_SIZE=200"],
                                    environment: environment, seconds: 180)
        #expect(copy.status == 0, "\(copy.stderr)")
        let back = try Binaries.run("/usr/bin/ogr2ogr", ["-f", "GeoJSON", folder + "/back.geojson", folder + "/zones.gpkg"], environment: environment, seconds: 60)
        #expect(back.status == 0, "\(back.stderr)")
        let copied = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/back.geojson"))))["features"]?.array ?? []
        #expect(Set(copied.compactMap { $0["properties"]?["id"]?.string }) == Set(expected.keys) && copied.count == expected.count)
        #expect(copied.allSatisfy { ["Polygon", "MultiPolygon"].contains($0["geometry"]?["type"]?.string ?? "") })
    }
}
