import Foundation
import Testing
@testable import AreasCore
@testable import AreasTestSupport
import AreasTestTraits

/// The outlines the `zones` collection draws: each holds every point its footprint holds (as
/// the shape engine decides it, the test `check` makes) and lies close around it, against
/// shapely's own buffer (PyPI) in the same plane.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct ShapeOutlineTests {
    /// The shapes of `ShapeIndexTests`, with the polygons that have holes widened too (holes
    /// shrink, and narrow ones close), and paths that turn back on themselves.
    static func shapes() -> [(shape: Shape, width: Double)] {
        var shapes = ShapeIndexTests.shapes(seed: 21).filter { $0.shape.vertexCount < 5_000 }
        shapes += shapes.prefix(10).filter { $0.shape.kind == .polygon }.map { ($0.shape, 25.0) }
        // A hairpin whose arms lie 23 m apart: a corridor of 10 m either side leaves a gap of 3 m.
        let start = GeoPoint(uncheckedLatitude: 37.55, longitude: 126.97)
        let plane = LocalPlane(origin: start)
        let hairpin = [(0.0, 0.0), (200, 0), (200, 23), (0, 23)].map { plane.vertex(x: $0.0, y: $0.1) }
        shapes.append((Shape(kind: .line, parts: [[hairpin]]), 10))
        return shapes
    }

    /// Points around `shape`: most within a few widths of its vertices, where outlines are drawn.
    static func points(around shape: Shape, width: Double, count: Int, using random: inout SplitMix64) -> [GeoPoint] {
        let vertices = shape.rings.flatMap { $0 }
        let reach = (width + 30) / 111_000
        return (0..<count).map { _ in
            let near = vertices[Int.random(in: 0..<vertices.count, using: &random)].point
            return GeoPoint(uncheckedLatitude: near.latitude + Double.random(in: -reach...reach, using: &random),
                            longitude: near.longitude + Double.random(in: -reach...reach, using: &random) * 1.3)
        }
    }

    /// Every point the engine puts in a footprint lies in its outline (tested as a polygon by
    /// the same engine, even-odd over its rings), and points well outside the footprint lie
    /// outside the outline.
    @Test func theOutlineHoldsEveryPointItsFootprintHolds() {
        var random = SplitMix64(seed: 3)
        var held = 0, outsideBoth = 0
        for (shape, width) in Self.shapes() {
            let footprint = ShapeIndex([(0, shape, width)])
            let outline = ShapeOutline.footprint(of: shape, widthMeters: width)
            guard !outline.parts.isEmpty else { Issue.record("no outline for a shape of width \(width)"); continue }
            #expect(outline.parts.allSatisfy { $0[0].count >= 3 })
            let drawn = ShapeIndex([(0, outline, 0)])
            let widened = ShapeIndex([(0, shape, width + 3)])
            for point in Self.points(around: shape, width: width, count: 400, using: &random) {
                var inFootprint = false, inOutline = false, nearFootprint = false
                footprint.forEach(holding: point) { _ in inFootprint = true }
                drawn.forEach(holding: point, measuringEdge: false) { _ in inOutline = true }
                widened.forEach(holding: point) { _ in nearFootprint = true }
                if inFootprint { held += 1; #expect(inOutline, "\(point) is in the footprint (width \(width)), not in its outline") }
                if !nearFootprint { outsideBoth += 1; #expect(!inOutline, "\(point) lies 3 m beyond the footprint (width \(width)), inside its outline") }
            }
        }
        #expect(held > 5_000 && outsideBoth > 5_000)
    }

    /// A circle's polygon: 64 vertices, every one and every edge's middle at least the radius
    /// from the centre, and none much farther.
    @Test func aCircleIsAPolygonAroundIt() {
        for (center, radius) in [(GeoPoint(uncheckedLatitude: 37.55, longitude: 126.97), 10.0), (GeoPoint(uncheckedLatitude: 33.2, longitude: 126.5), 300.0)] {
            let ring = ShapeOutline.circle(around: center, radiusMeters: radius).parts[0][0]
            #expect(ring.count == ShapeOutline.circleVertices && ShapeOutline.circleVertices >= 32)
            for (a, b) in zip(ring, ring.dropFirst() + ring.prefix(1)) {
                let middle = GeoPoint(uncheckedLatitude: (a.point.latitude + b.point.latitude) / 2, longitude: (a.point.longitude + b.point.longitude) / 2)
                for point in [a.point, middle] {
                    let distance = Geodesy.distance(center, point)
                    #expect(distance >= radius && distance <= radius * 1.01 + 0.05, "\(distance) m from a circle of \(radius) m")
                }
            }
        }
    }

    /// A polygon without a width is its own rings, outer counter-clockwise and holes clockwise.
    @Test func anUnwidenedPolygonIsItselfRightHanded() {
        for (shape, width) in Self.shapes() where shape.kind == .polygon && width == 0 {
            let outline = ShapeOutline.footprint(of: shape, widthMeters: 0)
            #expect(outline.parts.count == shape.parts.count)
            for (drawn, given) in zip(outline.parts, shape.parts) {
                for (number, (ring, original)) in zip(drawn, given).enumerated() {
                    #expect(Set(ring) == Set(original))
                    let area = ShapeOutline.signedArea(ring.map { (Double($0.longitude), Double($0.latitude)) })
                    #expect(number == 0 ? area > 0 : area < 0)
                }
            }
        }
    }

    /// Shapely's buffer of each shape, in the plane at its box's corner: the outline covers it,
    /// is a valid polygon, and lies within the margin and a grid cell of it, but for notches
    /// narrower than a cell (the star polygons' spikes widened), a sliver of its area.
    @Test(.enabled(if: ShapeIndexTests.shapely, "shapely from PyPI (Tests/run.sh installs it)"))
    func theOutlineHugsShapelysBuffer() throws {
        let shapes = Self.shapes().filter { $0.width > 0 }
        func coordinates(_ ring: [ShapeVertex]) -> [[Double]] { ring.map { [Double($0.longitude) / 1e7, Double($0.latitude) / 1e7] } }
        let input: [[String: Any]] = shapes.map { shape, width in
            let box = shape.box
            let span = LocalPlane(origin: GeoPoint(uncheckedLatitude: box.south, longitude: box.west))
                .position(of: GeoPoint(uncheckedLatitude: box.north, longitude: box.east))
            let cell = ShapeOutline.cellMeters(widthMeters: width, spanMeters: max(span.x, span.y))
            let outline = ShapeOutline.footprint(of: shape, widthMeters: width)
            return ["kind": shape.kind == .polygon ? "polygon" : "line", "width": width, "origin": [box.west, box.south],
                    "parts": shape.parts.map { $0.map(coordinates) }, "outline": outline.parts.map { $0.map(coordinates) },
                    "bound": ShapeOutline.margin(widthMeters: width, cellMeters: cell) + cell]
        }
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try JSONSerialization.data(withJSONObject: input).write(to: URL(fileURLWithPath: folder + "/in.json"))
        let script = #"""
            import json, math, sys
            import shapely
            from shapely.geometry import Polygon, MultiPolygon, LineString, MultiLineString, Point
            R = 6371008.8
            out = []
            for s in json.load(open(sys.argv[1])):
                lon0, lat0 = s["origin"]
                k = R * math.pi / 180
                c = math.cos(lat0 * math.pi / 180)
                plane = lambda xy: [((x - lon0) * c * k, (y - lat0) * k) for x, y in xy]
                if s["kind"] == "polygon":
                    given = MultiPolygon([Polygon(plane(p[0]), [plane(h) for h in p[1:]]) for p in s["parts"]])
                else:
                    given = MultiLineString([plane(p[0]) for p in s["parts"]])
                truth = given.buffer(s["width"], quad_segs=64)
                drawn = MultiPolygon([Polygon(plane(p[0]), [plane(h) for h in p[1:]]) for p in s["outline"]])
                beyond = drawn.difference(truth.buffer(s["bound"], quad_segs=64)).area
                out.append({"valid": bool(drawn.is_valid), "covers": bool(drawn.buffer(0.002).covers(truth)),
                            "beyond": beyond / truth.area, "bound": s["bound"]})
            print(json.dumps(out))
            """#
        let verdicts = try #require(try PythonOracle.json(script, inline: true, [folder + "/in.json"]) as? [[String: Any]])
        try #require(verdicts.count == shapes.count)
        for (number, verdict) in verdicts.enumerated() {
            #expect(verdict["valid"] as? Bool == true && verdict["covers"] as? Bool == true, "shape \(number) (width \(shapes[number].width)): \(verdict)")
            // Beyond the bound lie only the notches narrower than a cell that the grid fills.
            let beyond = verdict["beyond"] as? Double ?? 1
            #expect(beyond <= 0.002, "shape \(number): \(beyond * 100)% of the footprint's area lies beyond \(verdict["bound"] ?? 0) m of it")
        }
    }

    /// A comb of 20,000 vertices widened by 10 m: the grid's size, not the shape's vertices,
    /// bounds the outline, and it still holds what the footprint holds.
    @Test func aHostileCombIsOutlinedOnABoundedGrid() {
        let comb = Shape(kind: .polygon, parts: [[HostileShapes.comb(vertices: 20_000)]])
        let outline = ShapeOutline.footprint(of: comb, widthMeters: 10)
        let vertices = outline.vertexCount
        #expect(vertices > 0 && vertices <= 4 * ShapeOutline.maximumCells * ShapeOutline.maximumCells / 8, "\(vertices) vertices")
        let footprint = ShapeIndex([(0, comb, 10)]), drawn = ShapeIndex([(0, outline, 0)])
        var random = SplitMix64(seed: 9)
        for point in Self.points(around: comb, width: 10, count: 2_000, using: &random) {
            var inFootprint = false, inOutline = false
            footprint.forEach(holding: point) { _ in inFootprint = true }
            drawn.forEach(holding: point, measuringEdge: false) { _ in inOutline = true }
            if inFootprint { #expect(inOutline, "\(point)") }
        }
    }

    /// Within an answer's work: the comb is drawn as the circle of its reach (and the work is
    /// spent), while every shape of the samples' size is drawn as itself.
    @Test func aShapeTooCostlyToTraceIsDrawnAsItsReach() {
        let comb = Shape(kind: .polygon, parts: [[HostileShapes.comb(vertices: 20_000)]])
        var footprint = ZoneFootprint(basis: .shape, shape: .polygon, radiusMeters: 2_500)
        footprint.widthMeters = 10
        let center = comb.rings[0][0].point
        var work = 4 * ShapeOutline.workLimit
        let drawn = ShapeOutline.zone(footprint, center: center, shape: comb, work: &work)
        #expect(drawn?.drawing == .reach && drawn?.outline.parts[0][0].count == ShapeOutline.circleVertices)
        #expect(work == 3 * ShapeOutline.workLimit, "the comb spent the most one outline may")
        for (shape, width) in Self.shapes() {
            var shaped = ZoneFootprint(basis: .shape, shape: shape.kind == .polygon ? .polygon : .corridor, radiusMeters: 2_000)
            shaped.widthMeters = width
            var work = ShapeOutline.workLimit
            let drawing: ShapeOutline.Drawing = shape.kind == .polygon && width == 0 ? .polygon : .traced
            #expect(ShapeOutline.zone(shaped, center: center, shape: shape, work: &work)?.drawing == drawing, "a shape of \(shape.vertexCount) vertices")
        }
        var spent = 0
        #expect(ShapeOutline.zone(footprint, center: center, shape: comb, work: &spent)?.drawing == .reach, "nothing left: drawn as its reach at once")
    }
}
