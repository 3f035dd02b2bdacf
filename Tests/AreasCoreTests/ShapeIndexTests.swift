import Foundation
import Testing
@testable import AreasCore
@testable import AreasTestSupport
import AreasTestTraits

/// The shape engine against shapely (PyPI), an independent implementation: for polygons with
/// holes, multipolygons, widened polygons, corridors and a polygon of 20,000 vertices, which
/// shapes hold each of thousands of points and how far each point is from their edges.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct ShapeIndexTests {
    static let shapely = PythonModule.isAvailable("shapely")

    /// A star-shaped ring around `center`: `count` vertices at radii in `radii` meters, in order
    /// of angle, so it never crosses itself.
    static func star(_ center: GeoPoint, count: Int, radii: ClosedRange<Double>, clockwise: Bool = false, using random: inout SplitMix64) -> [ShapeVertex] {
        let ring = (0..<count).map { i -> ShapeVertex in
            let angle = (Double(i) + Double.random(in: 0..<0.9, using: &random)) / Double(count) * 2 * Double.pi
            let r = Double.random(in: radii, using: &random)
            let dLat = r * sin(angle) / Geodesy.earthRadiusMeters * 180 / Double.pi
            let dLon = r * cos(angle) / Geodesy.earthRadiusMeters * 180 / Double.pi / cos(center.latitude * Double.pi / 180)
            return ShapeVertex(GeoPoint(uncheckedLatitude: center.latitude + dLat, longitude: center.longitude + dLon))
        }
        return clockwise ? ring.reversed() : ring
    }

    /// Shapes of every kind around Seoul, each with its width.
    static func shapes(seed: UInt64) -> [(shape: Shape, width: Double)] {
        var random = SplitMix64(seed: seed)
        var shapes: [(Shape, Double)] = []
        for i in 0..<60 {
            let center = GeoPoint(uncheckedLatitude: 37.55 + Double.random(in: -0.02...0.02, using: &random),
                                  longitude: 126.98 + Double.random(in: -0.025...0.025, using: &random))
            switch i % 5 {
            case 0:  // A polygon with two holes.
                let outer = star(center, count: Int.random(in: 50...500, using: &random), radii: 150...300, using: &random)
                let east = GeoPoint(uncheckedLatitude: center.latitude, longitude: center.longitude + 60 / 88_000)
                let west = GeoPoint(uncheckedLatitude: center.latitude, longitude: center.longitude - 60 / 88_000)
                shapes.append((Shape(kind: .polygon, parts: [[outer, star(east, count: 12, radii: 20...40, clockwise: true, using: &random),
                                                              star(west, count: 30, radii: 20...40, using: &random)]]), 0))
            case 1:  // Two polygons.
                let other = GeoPoint(uncheckedLatitude: center.latitude + 0.004, longitude: center.longitude)
                shapes.append((Shape(kind: .polygon, parts: [[star(center, count: 40, radii: 60...150, using: &random)],
                                                             [star(other, count: 8, radii: 30...120, using: &random)]]), 0))
            case 2:  // A polygon widened by a stated distance.
                shapes.append((Shape(kind: .polygon, parts: [[star(center, count: 20, radii: 10...80, using: &random)]]), 10))
            case 3:  // A path with its corridor.
                var path = [ShapeVertex(center)]
                var at = center
                for _ in 0..<Int.random(in: 2...40, using: &random) {
                    at = GeoPoint(uncheckedLatitude: at.latitude + Double.random(in: -0.0004...0.0004, using: &random),
                                  longitude: at.longitude + Double.random(in: -0.0005...0.0005, using: &random))
                    path.append(ShapeVertex(at))
                }
                shapes.append((Shape(kind: .line, parts: [[path]]), Double.random(in: 5...30, using: &random)))
            default:  // A district-sized polygon of many vertices.
                shapes.append((Shape(kind: .polygon, parts: [[star(center, count: i == 4 ? 20_000 : 2_000, radii: 900...1_500, using: &random)]]), 0))
            }
        }
        return shapes
    }

    /// Shapely's verdict for every point and shape: inside (covers, or within the width) and
    /// the distance to the edge, measured in the same tangent plane the engine uses.
    static func shapelyVerdicts(_ shapes: [(shape: Shape, width: Double)], points: [GeoPoint]) throws -> [[Double?]] {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func coordinates(_ ring: [ShapeVertex]) -> [[Double]] {
            ring.map { [Double($0.longitude) / 1e7, Double($0.latitude) / 1e7] }
        }
        let input: [String: Any] = [
            "shapes": shapes.map { shape, width -> [String: Any] in
                ["kind": shape.kind == .polygon ? "polygon" : "line", "width": width, "parts": shape.parts.map { $0.map(coordinates) }]
            },
            "points": points.map { [$0.longitude, $0.latitude] },
        ]
        try JSONSerialization.data(withJSONObject: input).write(to: URL(fileURLWithPath: folder + "/in.json"))
        let script = #"""
            import json, math, sys
            from shapely.geometry import Polygon, MultiPolygon, LineString, MultiLineString, Point
            from shapely.affinity import affine_transform
            data = json.load(open(sys.argv[1]))
            R = 6371008.8
            shapes = []
            for s in data["shapes"]:
                if s["kind"] == "polygon":
                    g = MultiPolygon([Polygon(p[0], p[1:]) for p in s["parts"]])
                else:
                    g = MultiLineString([p[0] for p in s["parts"]])
                shapes.append((s["kind"], s["width"], g))
            out = []
            for lon, lat in data["points"]:
                k = R * math.pi / 180
                c = math.cos(lat * math.pi / 180)
                plane = [c * k, 0, 0, k, -lon * c * k, -lat * k]  # x' = (x - lon) c k, y' = (y - lat) k
                row = []
                for kind, width, g in shapes:
                    if g.bounds[0] - 0.004 > lon or g.bounds[2] + 0.004 < lon or g.bounds[1] - 0.004 > lat or g.bounds[3] + 0.004 < lat:
                        row.append(None); continue
                    local = affine_transform(g, plane)
                    edge = local.boundary.distance(Point(0, 0)) if kind == "polygon" else local.distance(Point(0, 0))
                    if kind == "polygon" and g.covers(Point(lon, lat)):
                        row.append(edge + width)
                    elif edge <= width:
                        row.append(width - edge)
                    else:
                        row.append(None)
                out.append(row)
            print(json.dumps(out))
            """#
        // Into a file, with a deadline: a hung interpreter fails the test instead of holding it.
        _ = FileManager.default.createFile(atPath: folder + "/out.json", contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, folder + "/in.json"]
        process.standardOutput = FileHandle(forWritingAtPath: folder + "/out.json")
        try process.run()
        let deadline = Date().addingTimeInterval(240)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "shapely's script failed or ran past its deadline")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/out.json"))) as? [[Any]])
        return rows.map { row in row.map { $0 as? Double } }
    }

    @Test(.enabled(if: ShapeIndexTests.shapely, "shapely from PyPI (Tests/run.sh installs it)"))
    func insideAndEdgeAgreeWithShapely() throws {
        let shapes = Self.shapes(seed: 11)
        let index = ShapeIndex(shapes.enumerated().map { (UInt32($0), $1.shape, $1.width) })
        var random = SplitMix64(seed: 12)
        // Points near the shapes (most within a few hundred meters of an edge) and a few far off.
        var points: [GeoPoint] = []
        for i in 0..<1_500 {
            let (shape, _) = shapes[i % shapes.count]
            let ring = shape.rings[0]
            let near = ring[Int.random(in: 0..<ring.count, using: &random)].point
            points.append(GeoPoint(uncheckedLatitude: near.latitude + Double.random(in: -0.003...0.003, using: &random),
                                   longitude: near.longitude + Double.random(in: -0.004...0.004, using: &random)))
        }
        let verdicts = try Self.shapelyVerdicts(shapes, points: points)
        try #require(verdicts.count == points.count)
        var inside = 0, outside = 0, nearEdges = 0
        for (point, expected) in zip(points, verdicts) {
            var found: [Int: Double] = [:]
            #expect(index.forEach(holding: point) { found[$0.owner] = $0.edgeMeters })
            for (shape, verdict) in expected.enumerated() {
                // Points within a millimeter of an edge may fall either way in floating point.
                if let edge = verdict ?? found[shape], edge < 0.001 { nearEdges += 1; continue }
                #expect((found[shape] != nil) == (verdict != nil), "point \(point), shape \(shape): \(found[shape] as Any) against \(verdict as Any)")
                if let mine = found[shape], let theirs = verdict {
                    #expect(abs(mine - theirs) <= 1e-6 * max(1, theirs), "point \(point), shape \(shape): edge \(mine) against \(theirs)")
                    inside += 1
                } else {
                    outside += 1
                }
            }
        }
        #expect(inside > 500, "the points reach inside the shapes")
        #expect(outside > 500 && nearEdges < 10)
    }

    /// Points exactly level with vertices, where a crossing rule decides at the vertex: a
    /// notch's inner vertex, vertices the side passes straight through, the peaks. Each answer
    /// worked out by hand on the outline (0,0) (4,0) (4,2) (4,4) (2,2) (0,4) (0,2), in steps
    /// of 0.001 degrees: level with (2,2), inside both lobes and outside beyond the sides;
    /// level with the peaks and the base, outside.
    @Test func pointsLevelWithVerticesAreDecidedByTheOutline() {
        let unit = 10_000  // 0.001 degrees in fixed point
        func vertex(_ x: Int, _ y: Int) -> ShapeVertex { ShapeVertex(latitude: Int32(375_000_000 + y * unit), longitude: Int32(1_270_000_000 + x * unit)) }
        func point(_ x: Double, _ y: Int) -> GeoPoint { GeoPoint(uncheckedLatitude: 37.5 + Double(y) * 0.001, longitude: 127.0 + x * 0.001) }
        let notch = [vertex(0, 0), vertex(4, 0), vertex(4, 2), vertex(4, 4), vertex(2, 2), vertex(0, 4), vertex(0, 2)]
        let cases: [(x: Double, y: Int, inside: Bool)] = [
            (-1, 2, false), (0.5, 2, true), (1, 2, true), (3, 2, true), (3.5, 2, true), (5, 2, false),
            (-1, 4, false), (1, 4, false), (2, 4, false), (3, 4, false), (5, 4, false),
            (-1, 0, false), (5, 0, false),
            (1, 1, true), (2, 3, false), (0.5, 3, true), (3.5, 3, true),
        ]
        for polygon in [notch, notch.reversed()] {
            let index = ShapeIndex([(0, Shape(kind: .polygon, parts: [[polygon]]), 0)])
            for c in cases {
                var held = false
                index.forEach(holding: point(c.x, c.y), measuringEdge: false) { _ in held = true }
                #expect(held == c.inside, "(\(c.x), \(c.y)): \(held ? "inside" : "outside"), worked out \(c.inside ? "inside" : "outside")")
            }
        }
    }

    @Test func workIsBounded() {
        let shapes = Self.shapes(seed: 11)
        let index = ShapeIndex(shapes.enumerated().map { (UInt32($0), $1.shape, $1.width) })
        let big = shapes[4].shape.rings[0]
        let center = big[0].point  // on the edge of the 20,000-vertex polygon
        var visits = 0
        #expect(!index.forEach(holding: center, workLimit: 100) { _ in visits += 1 }, "20,000 vertices are 1,250 runs")
        #expect(index.forEach(holding: center, workLimit: 2_000) { _ in visits += 1 })
    }

    @Test func textRoundTripsAndRefusesWhatItDoesNotWrite() {
        for (shape, _) in Self.shapes(seed: 5) {
            let text = ShapeText.encode(shape)
            #expect(ShapeText.decode(text) == shape)
            #expect(text.utf8.count <= shape.vertexCount * 12 + 8, "about 7 bytes a vertex")
        }
        var random = SplitMix64(seed: 6)
        var refused = 0
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...60, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let decoded = bytes.withUnsafeBufferPointer { ShapeText.decode($0) }
            if let decoded {
                #expect(decoded.rings.allSatisfy { $0.count >= 2 })
            } else {
                refused += 1
            }
        }
        #expect(refused > 1_900)
        let many = Shape(kind: .line, parts: [[Array(repeating: ShapeVertex(latitude: 0, longitude: 0), count: 10)]])
        #expect(ShapeText.encode(many).utf8.withContiguousStorageIfAvailable { ShapeText.decode($0, maximumVertices: 9) } == .some(nil))
    }
}
