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
        #expect(collections.compactMap { $0["id"]?.string } == ["smoking", "nonsmoking"])
        // Each extent is the box of its areas, as the socket's areas draw it.
        for collection in collections {
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
        #expect(info.status == 0 && info.stdout.contains("smoking") && info.stdout.contains("nonsmoking"), "\(info.stdout) \(info.stderr)")
        let copy = folder + "/smoking.geojson"
        let run = try Binaries.run("/usr/bin/ogr2ogr", ["-f", "GeoJSON", copy, "OAPIF:http://\(address)/ogc", "smoking", "-oo", "PAGE_SIZE=50"],
                                   environment: environment, seconds: 180)
        #expect(run.status == 0, "\(run.stderr)")
        let copied = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: copy))))
        let ids = copied["features"]?.array.compactMap { $0["properties"]?["id"]?.string } ?? []
        let expected = try Self.socketAreas(daemon.socket, kind: "smoking")
        #expect(ids.count == expected.count && Set(ids) == Set(expected.keys), "\(ids.count) copied, \(expected.count) served")

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
}
