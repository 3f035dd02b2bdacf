import Foundation
import Testing
@testable import AreasCore
@testable import AreasTestSupport
import AreasTestTraits

/// check, along and region filters against brute force over every area.
@Suite(.offThePool, .timeLimit(.minutes(5)))
final class QuestionsTests {
    private func dataset(_ count: Int, seed: UInt64) -> [Area] {
        var random = SplitMix64(seed: seed)
        let provinces = ["서울특별시", "경기도", "부산광역시"]
        return SyntheticPoints.clustered(count: count, seed: seed).enumerated().map { i, point in
            let zone = i % 3 != 0
            let size: String = [String(Int.random(in: 1...200_000, using: &random)), "", "n/a", "0", " 1200 "][i % 5]
            return Area(id: "t:" + String(i, radix: 36), kind: zone ? .nonsmoking : .smoking, name: "area \(i)", coordinate: point,
                        province: provinces[i % 3], district: i % 2 == 0 ? "중구" : "용산구", source: "t",
                        fields: zone ? [Field("prhsmkAr", size)] : [])
        }
    }

    @Test func footprintRadius() {
        let policy = FootprintPolicy.standard
        func zone(_ size: String) -> Area {
            Area(id: "z", kind: .nonsmoking, name: "z", coordinate: GeoPoint(uncheckedLatitude: 37, longitude: 127), source: "s", fields: [Field("prhsmkAr", size)])
        }
        #expect(abs((policy.radius(of: zone("948"))) - ((948 / Double.pi).squareRoot())) <= 1e-9)
        #expect((policy.radius(of: zone(""))) == 10)
        #expect((policy.radius(of: zone("abc"))) == 10)
        #expect((policy.radius(of: zone("-5"))) == 10)
        #expect((policy.radius(of: zone("1"))) == 5, "clamped up to the narrowest")
        #expect((policy.radius(of: zone("100000000"))) == 300, "clamped down")
    }

    @Test func checkMatchesBruteForce() throws {
        let areas = dataset(4_000, seed: 31)
        let index = AreaIndex(areas: areas)
        // Every area made once: the brute force reads these, not the table again per question.
        let all = Array(index.areas)
        let radii = all.map { FootprintPolicy.standard.radius(of: $0) }
        var random = SplitMix64(seed: 32)
        var insideSeen = 0
        for i in 0..<800 {
            let anchor = all[Int.random(in: 0..<index.count, using: &random)].coordinate
            let jitter = i % 2 == 0 ? 0.0005 : 0.003
            let point = try GeoPoint(latitude: anchor.latitude + Double.random(in: -jitter...jitter, using: &random),
                                     longitude: anchor.longitude + Double.random(in: -jitter...jitter, using: &random))
            let region = i % 4 == 0 ? Region(province: "서울특별시") : .anywhere
            let got = try index.check(point, region: region)
            let expected = index.areas.indices.filter { p in
                all[p].kind == .nonsmoking && region.contains(all[p])
                    && Geodesy.distance(point, all[p].coordinate) <= radii[p]
            }.sorted { (Geodesy.distance(point, all[$0].coordinate), $0) < (Geodesy.distance(point, all[$1].coordinate), $1) }
            #expect(got.zones.map(\.position) == expected)
            #expect(got.inside == !expected.isEmpty, "inside at \(point)")
            if !expected.isEmpty { insideSeen += 1 }
            let smoking = index.areas.indices.filter { all[$0].kind == .smoking && region.contains(all[$0]) }
                .min { (Geodesy.distance(point, all[$0].coordinate), all[$0].id) < (Geodesy.distance(point, all[$1].coordinate), all[$1].id) }
            #expect((got.nearestSmoking?.position) == smoking)
        }
        #expect(insideSeen > 20, "the test reaches points inside zones")
    }

    /// Radii are kept to the centimeter: a point within the radius as stated is inside, one a
    /// hair beyond it is not.
    @Test func pointOnAFootprintEdgeIsInside() throws {
        let center = try GeoPoint(latitude: 37.5, longitude: 127.0)
        let point = try GeoPoint(latitude: 37.5003, longitude: 127.0004)
        let edge = Geodesy.distance(point, center)
        let zone = Area(id: "z", kind: .nonsmoking, name: "z", coordinate: center, source: "s", fields: [])
        let (below, above) = ((edge * 100).rounded(.down) / 100, (edge * 100).rounded(.up) / 100)
        #expect(below < edge && edge < above)
        let exact = AreaIndex(areas: [zone], footprint: FootprintPolicy(minimumMeters: above, maximumMeters: above))
        #expect(exact.footprintRadius(of: 0) == above)
        #expect(try exact.check(point).inside)
        let smaller = AreaIndex(areas: [zone], footprint: FootprintPolicy(minimumMeters: below, maximumMeters: below))
        #expect(smaller.footprintRadius(of: 0) == below)
        #expect(!(try smaller.check(point).inside))
    }

    @Test func segmentDistanceAgreesWithSampling() throws {
        var random = SplitMix64(seed: 41)
        for _ in 0..<300 {
            let a = SyntheticPoints.point(in: SyntheticPoints.korea, using: &random)
            let b = try GeoPoint(latitude: a.latitude + Double.random(in: -0.05...0.05, using: &random), longitude: a.longitude + Double.random(in: -0.05...0.05, using: &random))
            let p = try GeoPoint(latitude: a.latitude + Double.random(in: -0.06...0.06, using: &random), longitude: a.longitude + Double.random(in: -0.06...0.06, using: &random))
            let (side, along) = Geodesy.segmentDistance(from: p, a: a, b: b)
            // Oracle: the nearest of 4,001 points along the segment (linear steps in lat/lon are
            // close to the great circle at this scale).
            var best = (distance: Double.infinity, t: 0.0)
            for i in 0...4000 {
                let t = Double(i) / 4000
                let q = GeoPoint(uncheckedLatitude: a.latitude + (b.latitude - a.latitude) * t, longitude: a.longitude + (b.longitude - a.longitude) * t)
                let d = Geodesy.distance(p, q)
                if d < best.distance { best = (d, t) }
            }
            #expect(abs(side - best.distance) <= 3, "side")
            #expect(abs(along - (best.t * Geodesy.distance(a, b))) <= 10, "along")
        }
    }

    @Test func alongMatchesBruteForce() throws {
        let areas = dataset(5_000, seed: 51)
        let index = AreaIndex(areas: areas)
        // Every area made once: the brute force reads these, not the table again per question.
        let all = Array(index.areas)
        var random = SplitMix64(seed: 52)
        for q in 0..<30 {
            // A 5 km walk of 100 points from a data point, in a random direction.
            let start = all[Int.random(in: 0..<index.count, using: &random)].coordinate
            let heading = Double.random(in: 0..<(2 * .pi), using: &random)
            let path = try (0..<100).map { i -> GeoPoint in
                let step = Double(i) * 50 / 111_000
                return try GeoPoint(latitude: start.latitude + step * cos(heading) + Double.random(in: -0.0002...0.0002, using: &random),
                                    longitude: start.longitude + step * sin(heading) / cos(start.latitude * .pi / 180))
            }
            let meters = [0.0, 50, 200][q % 3]
            let kind = KindFilter.allCases[q % 3]
            let got = try index.along(path, meters: meters, kind: kind)
            var expected: [AreaIndex.RouteMatch] = []
            for p in index.areas.indices where kind.admits(all[p].kind) {
                var best: AreaIndex.RouteMatch?
                var offset = 0.0
                for (a, b) in zip(path, path.dropFirst()) {
                    let (side, along) = Geodesy.segmentDistance(from: all[p].coordinate, a: a, b: b)
                    if side <= meters && (best == nil || side < best!.sideMeters) {
                        best = .init(position: p, alongMeters: offset + along, sideMeters: side)
                    }
                    offset += Geodesy.distance(a, b)
                }
                if let best { expected.append(best) }
            }
            expected.sort { ($0.alongMeters, $0.position) < ($1.alongMeters, $1.position) }
            #expect(got == expected, "route \(q)")
        }
    }

    @Test func regionFiltersMatchBruteForce() throws {
        let index = AreaIndex(areas: dataset(4_000, seed: 61))
        // Every area made once: the brute force reads these, not the table again per question.
        let all = Array(index.areas)
        var random = SplitMix64(seed: 62)
        let regions = [Region(province: "경기도"), Region(district: "중구"), Region(province: "부산광역시", district: "용산구"), Region(province: "없는도")]
        for q in 0..<400 {
            let region = regions[q % regions.count]
            let point = all[Int.random(in: 0..<index.count, using: &random)].coordinate
            let admitted = index.areas.indices.filter { region.contains(all[$0]) }
            let ranked = admitted.map { ($0, Geodesy.distance(point, all[$0].coordinate)) }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            #expect((try index.nearest(to: point, k: 7, region: region).map(\.position)) == ranked.prefix(7).map(\.0))
            #expect((try index.areas(within: 3_000, of: point, region: region).map(\.position)) == (ranked.filter { $0.1 <= 3_000 }.map(\.0)))
            let box = SyntheticPoints.box(around: point, fraction: 0.001)
            #expect((try index.areas(in: box, region: region).map(\.position)) == (admitted.filter { box.contains(all[$0].coordinate) }))
        }
        #expect((Region(province: "서울").resolved(Region.standardAliases).province) == "서울특별시")
    }

    @Test func compassPoints() throws {
        let origin = try GeoPoint(latitude: 37.5, longitude: 127)
        #expect((Geodesy.compassPoint(Geodesy.bearing(from: origin, to: try GeoPoint(latitude: 37.6, longitude: 127)))) == "N")
        #expect((Geodesy.compassPoint(Geodesy.bearing(from: origin, to: try GeoPoint(latitude: 37.5, longitude: 127.1)))) == "E")
        #expect((Geodesy.compassPoint(Geodesy.bearing(from: origin, to: try GeoPoint(latitude: 37.45, longitude: 126.94)))) == "SW")
        #expect(Geodesy.compassPoint(359) == "N")
        #expect(Geodesy.compassPoint(44) == "NE")
    }
}
