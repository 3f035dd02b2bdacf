@testable import AreasCore
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// Routes with long legs (searched in pieces of corridor), regions, and the work limit.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct RouteCorridorTests {
    static let index: AreaIndex = {
        let provinces = ["서울특별시", "경기도", "부산광역시"]
        let areas = SyntheticPoints.clustered(count: 20_000, seed: 71).enumerated().map { i, point in
            Area(id: "r:" + String(i, radix: 36), kind: i % 4 == 0 ? .smoking : .nonsmoking, name: "area \(i)", coordinate: point,
                 province: provinces[i % 3], district: i % 2 == 0 ? "중구" : "용산구", source: "t", fields: [])
        }
        return AreaIndex(areas: areas)
    }()

    /// Every area measured against every leg: the answer without any index.
    static func bruteForce(_ path: [GeoPoint], meters: Double, kind: KindFilter, region: Region) -> [AreaIndex.RouteMatch] {
        var expected: [AreaIndex.RouteMatch] = []
        let legs = path.count == 1 ? [(path[0], path[0])] : Array(zip(path, path.dropFirst()))
        for p in index.areas.indices where kind.admits(index.areas[p].kind) && region.contains(index.areas[p]) {
            var best: AreaIndex.RouteMatch?
            var offset = 0.0
            for (a, b) in legs {
                let (side, along) = Geodesy.segmentDistance(from: index.areas[p].coordinate, a: a, b: b)
                if side <= meters && (best.map { side < $0.sideMeters } ?? true) {
                    best = .init(position: p, alongMeters: offset + along, sideMeters: side)
                }
                offset += Geodesy.distance(a, b)
            }
            if let best { expected.append(best) }
        }
        expected.sort { ($0.alongMeters, $0.position) < ($1.alongMeters, $1.position) }
        return expected
    }

    @Test(arguments: [0.0, 40, 600, 3_000])
    func longLegsMatchBruteForce(meters: Double) throws {
        var random = SplitMix64(seed: UInt64(meters) &+ 3)
        for round in 0..<6 {
            // Five points 5 to 60 km apart around Seoul, where the data is dense.
            let path = try (0..<5).map { _ in
                try GeoPoint(latitude: 37.55 + Double.random(in: -0.3...0.3, using: &random),
                             longitude: 126.98 + Double.random(in: -0.4...0.4, using: &random))
            }
            let kind = KindFilter.allCases[round % 3]
            let region = [Region.anywhere, Region(province: "경기도"), Region(district: "중구"), Region(province: "없는도")][round % 4]
            let got = try Self.index.along(path, meters: meters, kind: kind, region: region)
            let expected = Self.bruteForce(path, meters: meters, kind: kind, region: region)
            #expect(got == expected, "route \(round), \(meters) m")
            if meters >= 600 && region.isAnywhere { #expect(!expected.isEmpty, "the route should pass areas") }
        }
    }

    @Test func aPointOnTheLegIsOnIt() throws {
        let a = try GeoPoint(latitude: 35.1, longitude: 129.0)
        let b = try GeoPoint(latitude: 37.6, longitude: 126.9)
        let leg = GreatCircleSegment(from: a, to: b)
        for fraction in stride(from: 0.0, through: 1.0, by: 0.125) {
            let (side, along) = leg.locate(leg.point(at: fraction))
            #expect(side < 0.01)
            #expect(abs(along - fraction * leg.length) < 0.01)
        }
    }

    @Test func aCorridorPastTheWorkLimitIsRefusedWithWhatToNarrow() throws {
        let across = [try GeoPoint(latitude: 37.45, longitude: 126.8), try GeoPoint(latitude: 37.65, longitude: 127.2)]
        let error = #expect(throws: GeoError.self) {
            try Self.index.along(across, meters: 20_000, workLimit: 5_000)
        }
        guard case .tooExpensive(let message) = error else {
            Issue.record("expected tooExpensive, got \(String(describing: error))")
            return
        }
        #expect(message.contains("narrower corridor (meters)"))
        // The same question within the limit is answered, and exactly.
        let answer = try Self.index.along(across, meters: 20_000)
        #expect(answer == Self.bruteForce(across, meters: 20_000, kind: .all, region: .anywhere))
    }

    @Test func aRouteTooLongForItsCorridorIsRefusedBeforeSearching() throws {
        // Forty legs the length of the country at 50 m: tens of thousands of pieces.
        let path = try (0..<40).map { i in try GeoPoint(latitude: i % 2 == 0 ? 33.5 : 38.3, longitude: 126.5 + Double(i) * 0.05) }
        let error = #expect(throws: GeoError.self) { try Self.index.along(path, meters: 50) }
        guard case .tooExpensive(let message) = error else {
            Issue.record("expected tooExpensive, got \(String(describing: error))")
            return
        }
        #expect(message.contains("ask for it in shorter parts"))
        // A limit of zero work refuses even that before touching the tree.
        #expect(throws: GeoError.self) { try Self.index.along(path, meters: 50, workLimit: 0) }
    }
}
