import AreasCore
import AreasProtocol
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// The samples' GeoJSON park zones served by a real daemon: `check` at hundreds of points around
/// them against shapely reading the same file on its own (polygons with holes, parks of two
/// parts, polygons widened by the 10 m their words state, school routes' corridors), the
/// features it must refuse counted by reason, and `get` giving the shape back as GeoJSON.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct ZoneShapesTests {
    static let file = "samples/district-files/seoul-park-zones.geojson"

    /// The samples' parks are shaped like parks, rounded and lobed, not stars: each valid
    /// polygon part fills at least 85% of its convex hull, as shapely measures it (the spiky
    /// ones filled 60-77%).
    @Test(.enabled(if: ShapelyOracle.available, "shapely from PyPI (Tests/run.sh installs it)"))
    func theSampleParksAreShapedLikeParks() throws {
        let script = #"""
            import json, sys
            from shapely.geometry import shape
            fills = []
            for feature in json.load(open(sys.argv[1]))["features"]:
                geometry = feature.get("geometry") or {}
                if geometry.get("type") not in ("Polygon", "MultiPolygon") or "공원" not in feature["properties"].get("공원명", ""):
                    continue
                for part in getattr(shape(geometry), "geoms", [shape(geometry)]):
                    if part.is_valid:
                        fills.append(part.area / part.convex_hull.area)
            print(json.dumps(fills))
            """#
        let fills = try JSONSerialization.jsonObject(with: PythonOracle.run(script, inline: true, [Fixtures.path(Self.file)])) as? [Double] ?? []
        #expect(fills.count >= 14, "\(fills)")
        for fill in fills { #expect(fill >= 0.85, "a park fills \(fill) of its convex hull") }
    }

    @Test(.enabled(if: ShapelyOracle.available, "shapely from PyPI (Tests/run.sh installs it)"))
    func checkAgreesWithShapelyOnTheSampleFile() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        // Points around every vertex-bearing feature, from the file as Foundation reads it.
        // (Foundation refuses the planted 1e999, which only a refused feature has.)
        let text = String(decoding: try Fixtures.bytes(Self.file), as: UTF8.self).replacingOccurrences(of: "1e999", with: "0")
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        var random = SplitMix64(seed: 44)
        var points: [GeoPoint] = []
        for feature in features {
            guard let geometry = feature["geometry"] as? [String: Any], let type = geometry["type"] as? String,
                  ["Polygon", "MultiPolygon", "LineString", "MultiLineString"].contains(type) else { continue }
            let flat = "\(geometry["coordinates"] ?? "")".split { !"0123456789.-".contains($0) }.compactMap { Double($0) }
            guard flat.count >= 2, (124...132).contains(flat[0]) else { continue }
            for _ in 0..<30 {
                let i = 2 * Int.random(in: 0..<(flat.count / 2), using: &random)
                points.append(GeoPoint(uncheckedLatitude: flat[i + 1] + Double.random(in: -0.0015...0.0015, using: &random),
                                       longitude: flat[i] + Double.random(in: -0.002...0.002, using: &random)))
            }
        }
        try #require(points.count > 300)
        let script = #"""
            import json, math, sys
            from shapely.geometry import shape, Point
            from shapely.ops import transform, unary_union
            from shapely.validation import make_valid
            data = json.load(open(sys.argv[1]))
            points = json.load(open(sys.argv[2]))
            R = 6371008.8
            zones = []
            for f in data["features"]:
                g = f.get("geometry")
                if not g or g["type"] not in ("Polygon", "MultiPolygon", "LineString", "MultiLineString"): continue
                # The features planted to be refused (an unclosed ring shapely would close).
                if f["properties"]["공원명"].startswith("잘못된"): continue
                try:
                    s = shape(g)
                except Exception:
                    continue
                # A polygon that crosses itself is served as make_valid repairs it.
                if not s.is_valid and "Polygon" in g["type"]:
                    s = unary_union([p for p in getattr(make_valid(s), "geoms", [make_valid(s)]) if "Polygon" in p.geom_type])
                if not s.is_valid or s.bounds[2] - s.bounds[0] > 0.2: continue
                words = f["properties"].get("금연구역범위상세", "")
                width = 10.0 if "10m" in words else 5.0 if "5m" in words else (10.0 if "Line" in g["type"] else 0.0)
                zones.append((f["properties"]["공원명"], "Line" in g["type"], width, s))
            out = []
            for lon, lat in points:
                k = R * math.pi / 180
                c = math.cos(lat * math.pi / 180)
                plane = lambda x, y, z=None: ((x - lon) * c * k, (y - lat) * k)
                inside, near = [], False
                for name, line, width, s in zones:
                    if s.bounds[0] - 0.003 > lon or s.bounds[2] + 0.003 < lon or s.bounds[1] - 0.003 > lat or s.bounds[3] + 0.003 < lat: continue
                    local = transform(plane, s)
                    edge = local.distance(Point(0, 0)) if line else local.boundary.distance(Point(0, 0))
                    if abs(edge - width) < 0.001 or edge < 0.001: near = True
                    if (not line and s.covers(Point(lon, lat))) or edge <= width: inside.append(name)
                out.append({"inside": sorted(inside), "nearEdge": near})
            print(json.dumps(out, ensure_ascii=False))
            """#
        let folder = daemon.folder
        try JSONSerialization.data(withJSONObject: points.map { [$0.longitude, $0.latitude] }).write(to: URL(fileURLWithPath: folder + "/points.json"))
        let run = try Binaries.run("/usr/bin/python3", ["-c", script, Fixtures.path(Self.file), folder + "/points.json"], seconds: 120)
        try #require(run.status == 0, "\(run.stderr)")
        let verdicts = try JSONParser.parse(Array(run.stdout.utf8)).array
        try #require(verdicts.count == points.count)
        var insideSeen = 0, outsideSeen = 0
        for (point, verdict) in zip(points, verdicts) where verdict["nearEdge"]?.bool != true {
            let answer = try #require(DaemonQuestions.ask(daemon.socket, Request.check(point: point, region: Region())))
            let zones = answer["zones"]?.array ?? []
            // Shapes only: the file's points are circles, which shapely is not asked about.
            let mine = zones.filter { $0["source"]?.string == "seoul-parks" && $0["footprint"]?["basis"]?.string == "shape" }
            let names = mine.compactMap { $0["name"]?.string }.sorted()
            let expected = (verdict["inside"]?.array ?? []).compactMap(\.string)
            #expect(names == expected, "at \(point.latitude), \(point.longitude)")
            if expected.isEmpty { outsideSeen += 1 } else { insideSeen += 1 }
            for zone in mine {
                let edge = zone["edgeMeters"]?.double ?? -1
                #expect(edge >= 0 && edge <= (zone["footprintMeters"]?.double ?? 0) + 0.01, "edge \(edge) of \(zone["name"]?.string ?? "")")
            }
        }
        #expect(insideSeen > 100 && outsideSeen > 100, "inside \(insideSeen), outside \(outsideSeen)")
    }

    /// `along` a route through the parks: a zone with a shape is along it when its footprint
    /// is, whatever its position, as shapely measures the route against the file's geometry.
    @Test(.enabled(if: ShapelyOracle.available, "shapely from PyPI (Tests/run.sh installs it)"))
    func alongMeasuresShapesAgainstShapely() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        let all = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"bbox","south":37.4,"west":126.8,"north":37.7,"east":127.2,"kind":"nonsmoking"}"#))
        let parks = (all["areas"]?.array ?? []).filter { $0["source"]?.string == "seoul-parks" && $0["footprint"]?["basis"]?.string == "shape" }
        // A walk past every shape west of 127°E (강남구's are left far off), in the order of
        // their longitudes.
        let stops = parks.compactMap { park -> [Double]? in
            guard let lat = park["lat"]?.double, let lon = park["lon"]?.double else { return nil }
            return [lon + 0.0012, lat + 0.0009]
        }.filter { $0[0] < 127.0 }.sorted { $0[0] < $1[0] }
        try #require(stops.count >= 6)
        let path = stops.map { "[\($0[1]),\($0[0])]" }.joined(separator: ",")
        let answer = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"along","path":[\#(path)],"meters":120,"kind":"nonsmoking","limit":10000}"#))
        let mine = Dictionary((answer["areas"]?.array ?? []).filter { $0["source"]?.string == "seoul-parks" && $0["footprint"]?["basis"]?.string == "shape" }
            .compactMap { area in area["name"]?.string.map { ($0, area["sideMeters"]?.double ?? -1) } }, uniquingKeysWith: { a, _ in a })
        let script = #"""
            import json, math, sys
            from shapely.geometry import shape, LineString
            from shapely.ops import transform
            data = json.load(open(sys.argv[1]))
            route = json.loads(sys.argv[2])
            out = {}
            for f in data["features"]:
                g = f.get("geometry")
                name = f["properties"]["공원명"]
                if not g or name.startswith("잘못된") or g["type"] not in ("Polygon", "MultiPolygon", "LineString", "MultiLineString"): continue
                words = f["properties"].get("금연구역범위상세", "")
                width = 10.0 if "10m" in words else 5.0 if "5m" in words else (10.0 if "Line" in g["type"] else 0.0)
                best = math.inf
                for (x0, y0), (x1, y1) in zip(route, route[1:]):
                    k = 6371008.8 * math.pi / 180
                    c = math.cos(y0 * math.pi / 180)
                    plane = lambda x, y, z=None: ((x - x0) * c * k, (y - y0) * k)
                    leg = transform(plane, LineString([(x0, y0), (x1, y1)]))
                    best = min(best, leg.distance(transform(plane, shape(g))))
                out[name] = max(0.0, best - width)
            print(json.dumps(out, ensure_ascii=False))
            """#
        let route = "[" + stops.map { "[\($0[0]),\($0[1])]" }.joined(separator: ",") + "]"
        let run = try Binaries.run("/usr/bin/python3", ["-c", script, Fixtures.path(Self.file), route], seconds: 120)
        try #require(run.status == 0, "\(run.stderr)")
        guard case .object(let theirs) = try JSONParser.parse(Array(run.stdout.utf8)) else { Issue.record("no verdicts"); return }
        var near = 0, far = 0
        for (name, value) in theirs {
            let side = value.double ?? .infinity
            if abs(side - 120) < 1 { continue }  // at the corridor's edge either way
            let said = mine[name].map { "\($0) m" } ?? "not along"
            #expect((mine[name] != nil) == (side <= 120), "\(name): shapely \(side) m, areas \(said)")
            if let got = mine[name] { #expect(abs(got - side) <= 0.5 + side * 0.002, "\(name): \(got) against \(side)") }
            if side <= 120 { near += 1 } else { far += 1 }
        }
        #expect(near >= 6 && far >= 3, "near \(near), far \(far)")
    }

    @Test func refusedFeaturesAreCountedAndShapesComeBackAsGeoJSON() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        let sources = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"sources"}"#)?["sources"]?.array)
        let parks = try #require(sources.first { $0["name"]?.string == "seoul-parks" })
        let planted = try #require(SampleCounts.districtFiles["seoul-parks"])
        #expect(parks["accepted"]?.double == Double(planted.accepted))
        for (reason, count) in planted.rejected {
            #expect(parks["rejected"]?[reason]?.double == Double(count), "\(reason)")
        }
        #expect((parks["footprints"]?["shape"]?.double ?? 0) >= 19)
        // A park with holes: `get` gives its polygon with every ring, closed, and the record's
        // published fields without the shape's own text.
        let all = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"bbox","south":37.4,"west":126.8,"north":37.7,"east":127.2,"kind":"nonsmoking"}"#))
        let withHoles = (all["areas"]?.array ?? []).filter {
            $0["source"]?.string == "seoul-parks" && ($0["footprint"]?["geometry"]?["coordinates"]?.array.count ?? 0) == 3
        }
        #expect(withHoles.count >= 3, "four parks have two holes each")
        let park = try #require(withHoles.first)
        let id = try #require(park["id"]?.string)
        let detail = try #require(DaemonQuestions.ask(daemon.socket, Request.get(id: id))?["areas"]?.array.first)
        #expect(detail["footprint"] == park["footprint"])
        #expect(detail["fields"]?["공원명"]?.string == park["name"]?.string)
        if case .object(let members)? = detail["fields"] { #expect(!members.contains { $0.0.hasPrefix("\u{1}") }) }
        for ring in park["footprint"]?["geometry"]?["coordinates"]?.array ?? [] {
            let positions = ring.array
            #expect(positions.count >= 4 && positions.first == positions.last)
        }
        // Its served position is inside it: check there names it.
        let (lat, lon) = (try #require(park["lat"]?.double), try #require(park["lon"]?.double))
        let at = try GeoPoint(latitude: lat, longitude: lon)
        let check = try #require(DaemonQuestions.ask(daemon.socket, Request.check(point: at, region: Region())))
        #expect((check["zones"]?.array ?? []).contains { $0["id"] == park["id"] })
    }
}

/// Whether shapely (PyPI) is there to be asked.
enum ShapelyOracle {
    static let available = PythonModule.isAvailable("shapely")
}
