import Foundation
import Testing
@testable import AreasCore
@testable import AreasTestSupport
import AreasTestTraits

@Suite(.offThePool, .timeLimit(.minutes(5)))
final class GeodesyTests {
    /// Distance by the spherical law of cosines in vector form: an independent formula.
    private func vectorDistance(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        func unit(_ p: GeoPoint) -> (Double, Double, Double) {
            let lat = p.latitude * .pi / 180, lon = p.longitude * .pi / 180
            return (cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
        }
        let u = unit(a), v = unit(b)
        let cross = (u.1 * v.2 - u.2 * v.1, u.2 * v.0 - u.0 * v.2, u.0 * v.1 - u.1 * v.0)
        let sinAngle = (cross.0 * cross.0 + cross.1 * cross.1 + cross.2 * cross.2).squareRoot()
        let cosAngle = u.0 * v.0 + u.1 * v.1 + u.2 * v.2
        return atan2(sinAngle, cosAngle) * Geodesy.earthRadiusMeters
    }

    private func point(_ lat: Double, _ lon: Double) throws -> GeoPoint {
        try GeoPoint(latitude: lat, longitude: lon)
    }

    @Test func knownDistances() throws {
        let seoul = try point(37.5665, 126.9780)
        let busan = try point(35.1796, 129.0756)
        #expect(abs((Geodesy.distance(seoul, busan)) - 325_000) <= 2_000)
        #expect((Geodesy.distance(seoul, seoul)) == 0)
        // One degree of latitude is R·π/180 on the sphere.
        #expect(abs((Geodesy.distance(try point(10, 20), try point(11, 20))) - (Geodesy.earthRadiusMeters * .pi / 180)) <= 1e-6)
        #expect(abs((Geodesy.distance(try point(0, -179.5), try point(0, 179.5))) - (Geodesy.earthRadiusMeters * .pi / 180)) <= 1e-6)
    }

    @Test func distanceAgreesWithIndependentFormula() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<5_000 {
            let a = try point(Double.random(in: -90...90, using: &random), Double.random(in: -180...180, using: &random))
            let b = try point(Double.random(in: -90...90, using: &random), Double.random(in: -180...180, using: &random))
            let expected = vectorDistance(a, b)
            #expect(abs((Geodesy.distance(a, b)) - expected) <= 1e-6 * Swift.max(expected, 1))
            // The query point's trigonometry is shared, the other's derived: symmetric to rounding.
            #expect(abs((Geodesy.distance(a, b)) - (Geodesy.distance(b, a))) <= 1e-12 * Swift.max(expected, 1))
        }
    }

    @Test func smallAnglePolynomialsMatchLibm() {
        var random = SplitMix64(seed: 5)
        // Every tier: tiny, small, and the libm fallback, plus both signs and the boundaries.
        var samples: [Double] = [0, SmallAngle.tiny, -SmallAngle.tiny, 0.1, 0.05, 1e-300, .leastNonzeroMagnitude]
        for scale in [1e-9, 1e-6, 1e-3, 1.0 / 128, 0.01, 0.05, 0.1, 0.5] {
            for _ in 0..<2_000 { samples.append(Double.random(in: -scale...scale, using: &random)) }
        }
        for x in samples {
            #expect(abs(SmallAngle.sine(x) - sin(x)) <= 4 * abs(sin(x)).ulp, "sin \(x)")
            #expect(abs(SmallAngle.cosine(x) - cos(x)) <= 4 * abs(cos(x)).ulp, "cos \(x)")
            if abs(x) <= 1 {
                #expect(abs(SmallAngle.arcsine(x) - asin(x)) <= 4 * abs(asin(x)).ulp, "asin \(x)")
            }
        }
    }

    @Test func shortDistancesAgreeWithIndependentFormulaToTheMicrometre() throws {
        var random = SplitMix64(seed: 9)
        for _ in 0..<5_000 {
            let a = try point(Double.random(in: -85...85, using: &random), Double.random(in: -179...179, using: &random))
            let spread = [1e-7, 1e-5, 1e-3, 0.1, 1][Int.random(in: 0..<5, using: &random)]
            let b = try point(a.latitude + Double.random(in: -spread...spread, using: &random),
                              a.longitude + Double.random(in: -spread...spread, using: &random))
            #expect(abs((Geodesy.distance(a, b)) - (vectorDistance(a, b))) <= 1e-6)
        }
    }

    /// The vector run must give each point exactly the scalar term, which the brute-force
    /// oracle uses: nearby points (the polynomial lanes), far ones and the antimeridian (the
    /// scalar fallback), mixed within one step, and a count that is not a whole step.
    @Test func haversineRunIsBitForBitTheScalarTerm() throws {
        var random = SplitMix64(seed: 13)
        for trial in 0..<2_000 {
            let origin = DistanceOrigin(try point(Double.random(in: -89...89, using: &random), Double.random(in: -180...180, using: &random)))
            let count = Int.random(in: 1...19, using: &random)
            var latitudes: [Double] = [], longitudes: [Double] = []
            for _ in 0..<count {
                // Mostly within a few kilometres, some beyond the polynomials' reach.
                let spread = [0.001, 0.05, 1.5, 40][Int.random(in: 0..<4, using: &random)]
                latitudes.append(Swift.min(90, Swift.max(-90, origin.latitude + Double.random(in: -spread...spread, using: &random))))
                var lon = origin.longitude + Double.random(in: -spread...spread, using: &random)
                if lon > 180 { lon -= 360 }
                if lon < -180 { lon += 360 }
                longitudes.append(lon)
            }
            let padded = (count + DistanceOrigin.haversineLanes - 1) / DistanceOrigin.haversineLanes * DistanceOrigin.haversineLanes
            latitudes += Array(repeating: latitudes[0], count: padded - count)
            longitudes += Array(repeating: longitudes[0], count: padded - count)
            var terms = [Double](repeating: .nan, count: padded)
            latitudes.withUnsafeBufferPointer { lat in
                longitudes.withUnsafeBufferPointer { lon in
                    terms.withUnsafeMutableBufferPointer { out in
                        origin.haversines(latitudes: lat.baseAddress!, longitudes: lon.baseAddress!, count: count, into: out.baseAddress!)
                    }
                }
            }
            for i in 0..<count {
                let scalar = origin.haversine(latitude: latitudes[i], longitude: longitudes[i])
                #expect(terms[i].bitPattern == scalar.bitPattern, "trial \(trial), point \(i): \(terms[i]) vs \(scalar)")
            }
        }
    }

    @Test func minimumDistanceToBoxIsTheClosestBoundaryPoint() throws {
        var random = SplitMix64(seed: 11)
        for _ in 0..<400 {
            let center = SyntheticPoints.point(in: SyntheticPoints.korea, using: &random)
            let box = SyntheticPoints.box(around: center, fraction: Double.random(in: 0.0001...0.05, using: &random))
            let query = try point(Double.random(in: 30...42, using: &random), Double.random(in: 120...136, using: &random))
            let bound = Geodesy.minimumDistance(from: query, to: box)
            if box.contains(query) {
                #expect(bound == 0)
                continue
            }
            // Oracle: the closest of many points along the four edges.
            var closest = Double.infinity
            let steps = 2_000
            for i in 0...steps {
                let t = Double(i) / Double(steps)
                let lat = box.south + (box.north - box.south) * t
                let lon = box.west + (box.east - box.west) * t
                for p in [try point(lat, box.west), try point(lat, box.east), try point(box.south, lon), try point(box.north, lon)] {
                    closest = Swift.min(closest, vectorDistance(query, p))
                }
            }
            #expect(bound <= (closest + 1e-6))
            // The sampling step is under 2 km; the bound must be that close to the true minimum.
            #expect(bound > (closest - 50), "bound \(bound) far below sampled \(closest)")
        }
    }

    @Test func arithmeticBoundsHoldForEveryPointOfABox() throws {
        var random = SplitMix64(seed: 21)
        for _ in 0..<3_000 {
            let query = try point(Double.random(in: -80...80, using: &random), Double.random(in: -179...179, using: &random))
            let center = try point(Double.random(in: -80...80, using: &random), Double.random(in: -179...179, using: &random))
            let box = SyntheticPoints.box(around: center, fraction: [0, 1e-6, 1e-3, 0.5, 30][Int.random(in: 0..<5, using: &random)])
            let origin = DistanceOrigin(query)
            let lower = origin.quickHaversineLowerBound(to: box)
            let exactLower = origin.haversineLowerBound(to: box)
            #expect(lower <= (exactLower * (1 + 1e-12) + 1e-300))
            for _ in 0..<20 {
                let inside = SyntheticPoints.point(in: box, using: &random)
                let h = origin.haversine(latitude: inside.latitude, longitude: inside.longitude)
                #expect(lower <= (h * (1 + 1e-12) + 1e-300), "lower bound above a point of the box")
            }
        }
    }

    @Test func radiusBoxIsNeverTooSmall() throws {
        var random = SplitMix64(seed: 3)
        for _ in 0..<2_000 {
            let center = try point(Double.random(in: -89...89, using: &random), Double.random(in: -179...179, using: &random))
            let meters = Double.random(in: 0...200_000, using: &random)
            let box = try Geodesy.boundingBox(around: center, meters: meters)
            // Walk to exactly `meters` away in many directions: every such point is inside.
            for bearingStep in 0..<36 {
                let bearing = Double(bearingStep) * 10 * .pi / 180
                let angle = meters / Geodesy.earthRadiusMeters
                let lat1 = center.latitude * .pi / 180, lon1 = center.longitude * .pi / 180
                let lat2 = asin(sin(lat1) * cos(angle) + cos(lat1) * sin(angle) * cos(bearing))
                var lon2 = lon1 + atan2(sin(bearing) * sin(angle) * cos(lat1), cos(angle) - sin(lat1) * sin(lat2))
                lon2 = lon2 * 180 / .pi
                if lon2 > 180 || lon2 < -180 { continue }  // across the antimeridian: out of scope
                let p = try point(lat2 * 180 / .pi, lon2)
                #expect(box.contains(p), "\(p) at \(meters) m from \(center) outside \(box)")
            }
        }
    }

    @Test func invalidInputIsATypedError() {
        if let error = #expect(throws: (any Error).self, performing: { try GeoPoint(latitude: .nan, longitude: 0) }) {
            guard case .invalidLatitude(let value)? = error as? GeoError else { Issue.record("\(error)"); return }
            #expect(value.isNaN)
        }
        if let error = #expect(throws: (any Error).self, performing: { try GeoPoint(latitude: 91, longitude: 0) }) { #expect((error as? GeoError) == .invalidLatitude(91)) }
        if let error = #expect(throws: (any Error).self, performing: { try GeoPoint(latitude: 0, longitude: -180.0001) }) { #expect((error as? GeoError) == .invalidLongitude(-180.0001)) }
        if let error = #expect(throws: (any Error).self, performing: { try GeoPoint(latitude: 0, longitude: .infinity) }) { #expect((error as? GeoError) == .invalidLongitude(.infinity)) }
        if let error = #expect(throws: (any Error).self, performing: { try Geodesy.boundingBox(around: GeoPoint(latitude: 0, longitude: 0), meters: -1) }) {
            #expect((error as? GeoError) == .invalidDistance(-1))
        }
        if let error = #expect(throws: (any Error).self, performing: { try GeoBox(south: 38, west: 126, north: 37, east: 127) }) {
            #expect((error as? GeoError) == (.invertedBox(south: 38, north: 37)))
        }
        if let error = #expect(throws: (any Error).self, performing: { try GeoBox(south: 37, west: 128, north: 38, east: 127) }) {
            #expect((error as? GeoError) == (.wrappedBox(west: 128, east: 127)))
        }
        #expect(GeoError.invalidLatitude(91).description.contains("between -90 and 90"))
    }
}
