import AreasCore
import AreasSystem
import AreasTestSupport
import Foundation

/// `areas-bench shapes`: `check` among zones drawn as circles (today's footprints) beside the
/// same zones, at the same positions, drawn as polygons of 50 to 500 vertices, in one run; what
/// the shapes cost to build and to hold, per vertex; and what drawing a zone's outline costs
/// (OGC's `zones`: a polygon widened by 10 m, a circle), beside a `check` among the same zones.
struct ShapeBenchmark {
    var zones = 100_000
    var seed: UInt64 = 7
    var queries = 20_000

    init(arguments: inout ArgumentList) throws {
        zones = try arguments.value("--zones", as: { Int($0) }) ?? zones
        queries = try arguments.value("--queries", as: { Int($0) }) ?? queries
        _ = try arguments.positionals()
    }

    func run() throws {
        let centres = SyntheticPoints.clustered(count: zones, seed: seed)
        var random = SplitMix64(seed: seed &+ 1)
        var vertices = 0
        var circles: [Area] = []
        var polygons: [Area] = []
        var shapes: [Shape] = []
        circles.reserveCapacity(zones)
        polygons.reserveCapacity(zones)
        for (i, centre) in centres.enumerated() {
            let radius = Double.random(in: 20...150, using: &random)
            let count = Int.random(in: 50...500, using: &random)
            vertices += count
            let ring = (0..<count).map { k -> ShapeVertex in
                let angle = Double(k) / Double(count) * 2 * Double.pi
                let r = radius * Double.random(in: 0.7...1.0, using: &random)
                return ShapeVertex(GeoPoint(uncheckedLatitude: centre.latitude + r * sin(angle) / 111_195,
                                            longitude: centre.longitude + r * cos(angle) / 111_195 / cos(centre.latitude * Double.pi / 180)))
            }
            shapes.append(Shape(kind: .polygon, parts: [[ring]]))
            let size = String(Int(Double.pi * radius * radius))
            let id = String(i, radix: 36)
            circles.append(Area(id: id, kind: .nonsmoking, name: "zone \(i)", coordinate: centre, source: "bench", fields: [Field("prhsmkAr", size)]))
            polygons.append(Area(id: id, kind: .nonsmoking, name: "zone \(i)", coordinate: centre, source: "bench",
                                 fields: [Field("prhsmkAr", size), Field(ShapeText.fieldKey, ShapeText.encode(Shape(kind: .polygon, parts: [[ring]])))]))
        }
        // Points near the zones: most hold one or a few of them.
        let points = (0..<queries).map { _ -> GeoPoint in
            let centre = centres[Int.random(in: 0..<centres.count, using: &random)]
            return GeoPoint(uncheckedLatitude: centre.latitude + Double.random(in: -0.001...0.001, using: &random),
                            longitude: centre.longitude + Double.random(in: -0.0013...0.0013, using: &random))
        }
        print("\(zones) zones; polygons of 50 to 500 vertices (\(vertices) in all); \(queries) check points near them")
        var figures: [String: Double] = ["zones": Double(zones), "vertices": Double(vertices)]
        for (name, areas) in [("circles", circles), ("polygons", polygons)] {
            let table = AreaTable(areas: areas)
            let start = Measure.clock.now
            let index = AreaIndex(table: table)
            let buildMilliseconds = (Measure.clock.now - start).milliseconds
            let check = Measure.medianMicroseconds(points, passes: 3) { (try? index.check($0))?.zones.count ?? -1 }
            var inside = 0
            for point in points.prefix(2_000) where (try? index.check(point))?.inside == true { inside += 1 }
            print("  \(name): build \(Measure.format(buildMilliseconds, 0)) ms, check \(Measure.format(check.median, 3)) µs median, "
                  + "\(inside * 100 / 2_000)% of points inside, index \(index.indexByteCount >> 20) MiB, text \(table.strings.byteCount >> 20) MiB")
            figures["\(name)_build_ms"] = buildMilliseconds
            figures["\(name)_check_us"] = check.median
            figures["\(name)_index_bytes"] = Double(index.indexByteCount)
            figures["\(name)_text_bytes"] = Double(table.strings.byteCount)
        }
        // Outlines: the first 2,000 polygons widened by 10 m, their circles, and a comb of
        // 20,000 vertices within one outline's work (drawn as its reach).
        let sample = Array(shapes.prefix(2_000))
        let widened = Measure.medianMicroseconds(sample) { ShapeOutline.footprint(of: $0, widthMeters: 10).vertexCount }
        let round = Measure.medianMicroseconds(Array(centres.prefix(2_000))) { ShapeOutline.circle(around: $0, radiusMeters: 100).vertexCount }
        let comb = Shape(kind: .polygon, parts: [[HostileShapes.comb(vertices: 20_000)]])
        var combFootprint = ZoneFootprint(basis: .shape, shape: .polygon, radiusMeters: 2_500)
        combFootprint.widthMeters = 10
        let combStart = Measure.clock.now
        var work = ShapeOutline.workLimit
        let combDrawing = ShapeOutline.zone(combFootprint, center: centres[0], shape: comb, work: &work)?.drawing
        let combMilliseconds = (Measure.clock.now - combStart).milliseconds
        figures["outline_widened_us"] = widened.median
        figures["outline_circle_us"] = round.median
        figures["outline_comb_ms"] = combMilliseconds
        figures["outline_widened_per_check"] = widened.median / figures["polygons_check_us", default: 1]
        print("  outline of a polygon widened by 10 m: \(Measure.format(widened.median, 1)) µs median (\(Measure.format(figures["outline_widened_per_check", default: 0], 1))x a check among them; "
              + "\(Measure.format(Double(widened.checksum) / Double(sample.count), 0)) vertices); a circle's \(Measure.format(round.median, 2)) µs; "
              + "a comb of 20,000 vertices: \(combDrawing == .reach ? "its reach" : "traced") in \(Measure.format(combMilliseconds, 1)) ms")
        let indexPerVertex = (figures["polygons_index_bytes", default: 0] - figures["circles_index_bytes", default: 0]) / Double(vertices)
        let textPerVertex = (figures["polygons_text_bytes", default: 0] - figures["circles_text_bytes", default: 0]) / Double(vertices)
        figures["index_bytes_per_vertex"] = indexPerVertex
        figures["text_bytes_per_vertex"] = textPerVertex
        figures["check_ratio"] = figures["polygons_check_us", default: 0] / figures["circles_check_us", default: 0]
        print("  per vertex: \(Measure.format(indexPerVertex)) bytes in the index, \(Measure.format(textPerVertex)) bytes of shape text in the table")
        print("  check among polygons / among circles: \(Measure.format(figures["check_ratio", default: 0]))x (goal: at most 2x)")
        print(Measure.json(figures))
    }
}
