import AreasCore
import AreasProtocol
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// What a map asks of a real daemon on the samples: vector tiles against the areas `bbox`
/// finds in each tile (positions projected here, by the formula written out again), read with
/// this package's decoder and with `mapbox-vector-tile` from PyPI; their caching; and `check`
/// with `previous` along a walk across a zone, against `check` at each end.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct MapAnswersTests {
    /// Web Mercator, as the slippy-map convention writes it.
    static func tile(of lat: Double, _ lon: Double, zoom: Int) -> (x: Double, y: Double) {
        let n = pow(2, Double(zoom))
        let rad = lat * .pi / 180
        return ((lon + 180) / 360 * n, (1 - asinh(tan(rad)) / .pi) / 2 * n)
    }

    /// `/v1/tiles.json`: TileJSON 3.0 naming the tiles by the host the client asked (behind a
    /// proxy, the host and scheme it forwards; a host name that is none, a path), the zooms,
    /// the bounds the data is kept within and both layers; cached as the tiles are.
    @Test func theTileJSONDescribesTheTiles() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        let response = try HTTPTestClient(address).get("/v1/tiles.json")
        #expect(response.status == 200 && response.field("content-type") == "application/json")
        let document = try JSONParser.parse(response.body)
        #expect(document["tilejson"]?.string == "3.0.0")
        #expect(document["minzoom"]?.double == 0 && document["maxzoom"]?.double == Double(Request.maximumZoom))
        #expect(document["bounds"]?.array.compactMap(\.double) == [124, 33, 132, 39])
        #expect(document["vector_layers"]?.array.compactMap { $0["id"]?.string } == ["smoking", "nonsmoking"])
        let proxied = try JSONParser.parse(try HTTPTestClient(address).get("/v1/tiles.json", fields: ["X-Forwarded-Proto: https", "X-Forwarded-Host: maps.example.org"]).body)
        #expect(proxied["tiles"]?.array.first?.string == "https://maps.example.org/v1/tiles/{z}/{x}/{y}.mvt")
        let hostile = try JSONParser.parse(try HTTPTestClient(address).get("/v1/tiles.json", fields: ["X-Forwarded-Host: a\\\"b/<c>"]).body)
        #expect(hostile["tiles"]?.array.first?.string == "http://areas.test/v1/tiles/{z}/{x}/{y}.mvt")
        let tag = try #require(response.field("etag"))
        #expect(try HTTPTestClient(address).get("/v1/tiles.json", fields: ["If-None-Match: \(tag)"]).status == 304)
        #expect(try HTTPTestClient(address).get("/v1/tiles.json?x=1").status == 400)
    }

    static let pythonDecoder = PythonModule.isAvailable("mapbox_vector_tile")

    @Test(arguments: [8, 12, 16, 18])
    func aTileHoldsTheAreasWhosePixelsLieInIt(zoom: Int) throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        let at = Self.tile(of: 37.529458, 126.964542, zoom: zoom)  // a booth at Yongsan station
        let (x, y) = (Int(at.x), Int(at.y))
        // The tile's URL as the TileJSON document gives it, and the fields its layers declare.
        let document = try JSONParser.parse(try HTTPTestClient(address).get("/v1/tiles.json").body)
        let template = try #require(document["tiles"]?.array.first?.string)
        #expect(template == "http://areas.test/v1/tiles/{z}/{x}/{y}.mvt")
        let declared = Dictionary(uniqueKeysWithValues: (document["vector_layers"]?.array ?? []).compactMap { layer -> (String, Set<String>)? in
            guard let id = layer["id"]?.string, case .object(let fields)? = layer["fields"] else { return nil }
            return (id, Set(fields.map(\.0)))
        })
        let target = template.replacingOccurrences(of: "http://areas.test", with: "")
            .replacingOccurrences(of: "{z}", with: "\(zoom)").replacingOccurrences(of: "{x}", with: "\(x)").replacingOccurrences(of: "{y}", with: "\(y)")
        let response = try HTTPTestClient(address).get(target)
        #expect(response.status == 200)
        #expect(response.field("content-type") == "application/vnd.mapbox-vector-tile")
        let layers = try VectorTileDecoder.decode(response.body)
        // The areas whose position falls in the tile's half-open square.
        let all = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"limit":10000}"#))
        var expected: [String: [String]] = [:]
        // From zoom 18, areas on one of the tile's 256 x 256 pixels are one feature.
        var byPixel: [String: [String: [String]]] = [:]
        for area in all["areas"]?.array ?? [] {
            let p = Self.tile(of: try #require(area["lat"]?.double), try #require(area["lon"]?.double), zoom: zoom)
            guard Int(p.x.rounded(.down)) == x, Int(p.y.rounded(.down)) == y else { continue }
            let kind = try #require(area["kind"]?.string), id = try #require(area["id"]?.string)
            expected[kind, default: []].append(id)
            byPixel[kind, default: [:]]["\(Int((p.x * 256).rounded(.down)))/\(Int((p.y * 256).rounded(.down)))", default: []].append(id)
        }
        #expect(!expected.isEmpty)
        for kind in ["smoking", "nonsmoking"] {
            let layer = layers.first { $0.name == kind }
            let features = layer?.features ?? []
            #expect(features.allSatisfy { $0.type == 1 && $0.points.count == 1 && (0..<4096).contains($0.points[0].x) && (0..<4096).contains($0.points[0].y) })
            for feature in features { #expect(Set(feature.properties.keys).isSubset(of: declared[kind] ?? []), "\(kind): \(feature.properties.keys.sorted())") }
            let ids = features.compactMap { feature -> String? in if case .string(let id)? = feature.properties["id"] { return id } else { return nil } }
            let clustered = features.reduce(0) { total, feature in
                if case .integer(let n)? = feature.properties["count"] { return total + Int(n) } else { return total }
            }
            #expect(ids.count + clustered == expected[kind]?.count ?? 0, "\(kind) at zoom \(zoom)")
            #expect(Set(ids).isSubset(of: Set(expected[kind] ?? [])))
            #expect(features.allSatisfy { $0.properties["id"] == nil ? $0.properties["name"] == nil : $0.properties["kind"] == .string(kind) })
            // Each zone carries its footprint's basis and radius; a smoking area none.
            #expect(features.allSatisfy { feature in
                guard feature.properties["id"] != nil else { return true }
                guard kind == "nonsmoking" else { return feature.properties["footprint"] == nil }
                guard case .string(let basis)? = feature.properties["footprint"], case .integer(let meters)? = feature.properties["footprintMeters"] else { return false }
                return ["shape", "stated", "route", "size", "default"].contains(basis) && meters >= 5
            })
            if zoom >= 18 {
                let pixels = Array((byPixel[kind] ?? [:]).values)
                #expect(Set(ids) == Set(pixels.filter { $0.count == 1 }.flatMap { $0 }))
                #expect(clustered == pixels.filter { $0.count > 1 }.reduce(0) { $0 + $1.count })
            }
        }
        // The same tile, read by an independent decoder.
        if Self.pythonDecoder {
            let file = daemon.folder + "/tile.mvt"
            try Data(response.body).write(to: URL(fileURLWithPath: file))
            let script = "import json,sys,mapbox_vector_tile as m; t=m.decode(open(sys.argv[1],'rb').read(), default_options={'y_coord_down': True}); "
                + "print(json.dumps({k: sorted([[f['geometry']['coordinates'][0], f['geometry']['coordinates'][1], f['properties'].get('id', ''), f['properties'].get('count', 0)] for f in v['features']]) for k, v in t.items()}))"
            let output = try Binaries.run("/usr/bin/python3", ["-c", script, file], seconds: 60)
            let theirs = try JSONParser.parse(Array(output.stdout.utf8))
            for layer in layers {
                let mine = layer.features.map { feature -> [JSONValue] in
                    var id = "", count = 0.0
                    if case .string(let text)? = feature.properties["id"] { id = text }
                    if case .integer(let n)? = feature.properties["count"] { count = Double(n) }
                    return [.number(Double(feature.points[0].x)), .number(Double(feature.points[0].y)), .string(id), .number(count)]
                }
                let sorted = mine.sorted { "\($0)" < "\($1)" }
                let decoded = (theirs[layer.name]?.array ?? []).compactMap(\.array).sorted { "\($0)" < "\($1)" }
                #expect(decoded.count == sorted.count && decoded.map { $0.map(\.double) } == sorted.map { $0.map(\.double) } || decoded == sorted, "\(layer.name)")
            }
        }
    }

    @Test(.enabled(if: MapAnswersTests.pythonDecoder, "mapbox-vector-tile from PyPI (Tests/run.sh installs it)"))
    func theIndependentDecoderIsThere() {
        #expect(Self.pythonDecoder)
    }

    @Test func tilesAreCachedLikeDataAndAnEmptyOneIsNoContent() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        let first = try HTTPTestClient(address).get("/v1/tiles/10/872/396.mvt")
        let tag = try #require(first.field("etag"))
        #expect(first.field("cache-control")?.contains("max-age") == true)
        #expect(try HTTPTestClient(address).get("/v1/tiles/10/872/396.mvt", fields: ["If-None-Match: \(tag)"]).status == 304)
        // The open sea south of Jeju, and nothing at all at zoom 3 in the Atlantic.
        #expect(try HTTPTestClient(address).get("/v1/tiles/3/3/3.mvt").status == 204)
        for bad in ["/v1/tiles/23/0/0.mvt", "/v1/tiles/2/4/0.mvt", "/v1/tiles/2/0/-1.mvt", "/v1/tiles/2/0/0.png", "/v1/tiles/2/0.mvt", "/v1/tiles/x/0/0.mvt"] {
            #expect(try HTTPTestClient(address).get(bad).status == 400, "\(bad)")
        }
    }

    /// Walking north across the zone at 용산구 공원로61 어린이공원 (10 m from its boundary, 48.8 m
    /// from its position) in 5 m steps: each step's
    /// `entered` and `exited` are the difference of `check` at the step's two ends.
    @Test func enteredAndExitedAlongAWalk() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        func zones(_ answer: JSONValue?) -> Set<String> { Set(answer?["zones"]?.array.compactMap { $0["id"]?.string } ?? []) }
        var previous = (37.52800, 126.967984)
        var entered = 0, exited = 0
        for step in 1...40 {
            let now = (37.52800 + Double(step) * 0.000045, 126.967984)
            let answer = try #require(DaemonQuestions.ask(daemon.socket, Request.check(point: try GeoPoint(latitude: now.0, longitude: now.1), region: Region(),
                                                                                       previous: try GeoPoint(latitude: previous.0, longitude: previous.1))))
            let here = zones(DaemonQuestions.ask(daemon.socket, #"{"op":"check","lat":\#(now.0),"lon":\#(now.1)}"#))
            let before = zones(DaemonQuestions.ask(daemon.socket, #"{"op":"check","lat":\#(previous.0),"lon":\#(previous.1)}"#))
            #expect(Set(answer["entered"]?.array.compactMap(\.string) ?? []) == here.subtracting(before), "step \(step)")
            #expect(Set(answer["exited"]?.array.compactMap(\.string) ?? []) == before.subtracting(here), "step \(step)")
            entered += here.subtracting(before).count
            exited += before.subtracting(here).count
            previous = now
        }
        #expect(entered > 0 && exited > 0, "the walk crosses a zone")
        // Without previous, neither member is there.
        let plain = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"check","lat":37.528916,"lon":126.967984}"#))
        #expect(plain["entered"] == nil && plain["exited"] == nil)
    }
}
