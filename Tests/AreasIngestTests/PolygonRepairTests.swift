import AreasCore
import Foundation
import Testing
@testable import AreasIngest
@testable import AreasTestSupport
import AreasTestTraits

/// Polygons as publishers draw them (`Fixtures/polygons-as-drawn.geojson`: a position repeated,
/// a figure-eight, a ring touching itself, a spike, holes crossing, touching and beside their
/// shells, a ring drawn twice, a pentagram), read as a `geojson` zone source reads them, against
/// shapely: each valid one served as published, each invalid one repaired so that it holds
/// exactly the points shapely's `make_valid` holds, and only what cannot be a polygon refused.
@Suite(.offThePool, .timeLimit(.minutes(3)))
struct PolygonRepairTests {
    static let file = "Tests/AreasIngestTests/Fixtures/polygons-as-drawn.geojson"

    struct Feature {
        var code: String
        var name: String
        var expect: String
        var row: [Field]
        var published: [[[Double]]]  // every ring's positions as published, for the sampling box
    }

    static func features() throws -> [Feature] {
        let bytes = try Fixtures.bytes(file)
        let rows = try GeoJSONDecoder().decode(bytes).records
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let features = try #require(json["features"] as? [[String: Any]])
        #expect(rows.count == features.count)
        return try zip(rows, features).map { row, feature in
            let properties = try #require(feature["properties"] as? [String: Any])
            let geometry = try #require(feature["geometry"] as? [String: Any])
            var positions: [[[Double]]] = []
            func collect(_ value: Any) {
                if let pair = value as? [Double], pair.count == 2 { positions.append([pair]); return }
                if let list = value as? [Any] { list.forEach(collect) }
            }
            collect(geometry["coordinates"] ?? [])
            return Feature(code: properties["AREA_CD"] as? String ?? "", name: properties["AREA_NM"] as? String ?? "",
                           expect: properties["expect"] as? String ?? "", row: row, published: positions)
        }
    }

    @Test func eachPolygonIsServedAsDrawnRepairedOrRefusedWithItsReason() throws {
        let features = try Self.features()
        let source = SourceConfig(name: "parks", kind: .nonsmoking, format: .geojson, location: .file(Fixtures.path(Self.file)), serviceKeyEnv: nil, pageSize: 1,
                                  fields: FieldMapping(name: "AREA_NM", latitude: GeoJSONDecoder.positionKey, longitude: GeoJSONDecoder.positionKey),
                                  concurrency: 1, timeoutSeconds: 1, retries: 0, retryDelaySeconds: 0, maxPages: 1, maxShrink: 1, province: nil)
        let validator = RecordValidator(source: source, bounds: .korea)
        var points: [String: [[Double]]] = [:]
        var shapes: [String: Shape] = [:]
        var rng = SplitMix64(seed: 65)
        for feature in features {
            let outcome = validator.validate(feature.row)
            switch (outcome, feature.expect) {
            case (.accepted(let area, let repaired), "valid"), (.accepted(let area, let repaired), "repaired"):
                #expect(repaired == (feature.expect == "repaired"), "\(feature.name): repaired \(repaired), expected \(feature.expect)")
                let shape = try #require(area.field(ShapeText.fieldKey).flatMap(ShapeText.decode), "\(feature.name) has no shape")
                shapes[feature.code] = shape
                // The points shapely is asked about: random ones across the feature's box and a
                // little beyond, on no fixed-point vertex's line.
                let lons = feature.published.map { $0[0][0] }, lats = feature.published.map { $0[0][1] }
                let (west, east, south, north) = (lons.min() ?? 0, lons.max() ?? 0, lats.min() ?? 0, lats.max() ?? 0)
                let (padLon, padLat) = ((east - west) * 0.1, (north - south) * 0.1)
                points[feature.code] = (0..<400).map { _ in
                    [west - padLon + Double.random(in: 0..<1, using: &rng) * (east - west + 2 * padLon), south - padLat + Double.random(in: 0..<1, using: &rng) * (north - south + 2 * padLat)]
                }
                if feature.expect == "valid" {
                    // As published: the vertices are the file's, less a repeated one.
                    let published = feature.published.count - shape.parts.reduce(0) { $0 + $1.count }
                    #expect(shape.vertexCount <= published && shape.vertexCount >= published - 1, "\(feature.name): \(shape.vertexCount) of \(published) positions kept")
                }
            case (.rejected(let reason), let expected):
                #expect(reason.rawValue == expected, "\(feature.name): refused as '\(reason.rawValue)', expected \(expected)")
            default:
                Issue.record("\(feature.name): \(outcome), expected \(feature.expect)")
            }
        }
        #expect(shapes.count == features.filter { ["valid", "repaired"].contains($0.expect) }.count)

        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try JSONSerialization.data(withJSONObject: points).write(to: URL(fileURLWithPath: folder + "/points.json"))
        let oracle = try #require(try PythonOracle.json("Tests/Oracles/shapes.py", ["make-valid", Fixtures.path(Self.file), folder + "/points.json"]) as? [String: Any])
        var compared = 0
        for feature in features {
            guard let shape = shapes[feature.code], let sample = points[feature.code] else { continue }
            let answer = try #require(oracle[feature.code] as? [String: Any], "shapely said nothing of \(feature.name)")
            #expect((answer["valid"] as? Bool) == (feature.expect == "valid"), "\(feature.name): shapely's validity")
            let inside = answer["inside"] as? [Bool] ?? [], nearEdge = answer["nearEdge"] as? [Bool] ?? []
            let index = ShapeIndex([(0, shape, 0)])
            var disagreements: [String] = []
            for (i, point) in sample.enumerated() where i < inside.count && !nearEdge[i] {
                var held = false
                index.forEach(holding: GeoPoint(uncheckedLatitude: point[1], longitude: point[0]), measuringEdge: false) { _ in held = true }
                compared += 1
                if held != inside[i] { disagreements.append("(\(point[1]), \(point[0])): ours \(held), shapely \(inside[i])") }
            }
            #expect(disagreements.isEmpty, "\(feature.name): \(disagreements.count) points disagree with make_valid: \(disagreements.prefix(3))")
        }
        #expect(compared > 3_000)
    }

    /// A valid polygon's check, and a repair, cost work in proportion to the edges and where
    /// they meet, however the ring is drawn: a comb of 24,999 teeth against a circle of as many
    /// vertices; a zigzag that would cross itself a million times is refused within the budget.
    @Test func theWorkIsBoundedHoweverTheRingIsDrawn() throws {
        let comb = HostileShapes.comb(vertices: 99_998)
        let circle = HostileShapes.round(comb.count)
        func work(_ rings: [[ShapeVertex]]) -> (PolygonRepair.Outcome, Int) {
            var budget = PolygonRepair.maximumWork
            let outcome = PolygonRepair.check(rings, budget: &budget)
            return (outcome, PolygonRepair.maximumWork - budget)
        }
        let (combOutcome, combWork) = work([comb])
        let (circleOutcome, circleWork) = work([circle])
        guard case .valid = combOutcome, case .valid = circleOutcome else {
            Issue.record("comb \(combOutcome == .refused(.tooComplex) ? "too complex" : "not valid"), circle \(circleOutcome == .refused(.tooComplex) ? "too complex" : "not valid")")
            return
        }
        #expect(combWork <= 3 * circleWork, "the comb of \(comb.count) vertices took \(combWork) steps, the circle of \(circle.count) \(circleWork)")
        // A zigzag across a zigzag: 1,000 × 1,000 crossings, refused within the budget.
        var zigzag: [ShapeVertex] = []
        for i in 0..<1_000 { zigzag.append(ShapeVertex(latitude: Int32(375_000_000 + (i % 2) * 100_000), longitude: Int32(1_270_000_000 + i * 100))) }
        for i in 0..<1_000 { zigzag.append(ShapeVertex(latitude: Int32(375_000_000 + i * 100), longitude: Int32(1_270_100_000 - (i % 2) * 100_000))) }
        let (zigzagOutcome, zigzagWork) = work([zigzag])
        #expect(zigzagOutcome == .refused(.tooComplex), "a million crossings")
        #expect(zigzagWork <= PolygonRepair.maximumWork + 1_000_000)
    }
}
