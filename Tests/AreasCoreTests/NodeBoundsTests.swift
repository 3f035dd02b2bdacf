import Foundation
import Testing
@testable import AreasCore
@testable import AreasTestSupport
import AreasTestTraits

/// The single-precision node bounds prune the nearest search: if one ever exceeded the true
/// distance an answer would be lost, and if they were loose the search would open more nodes.
@Suite(.offThePool, .timeLimit(.minutes(5)))
final class NodeBoundsTests {
    /// Lower bounds for `boxes` seen from `query`, through the vector path.
    private func vectorBounds(_ boxes: [GeoBox], from query: GeoPoint) -> [Double] {
        var extent = GeoBox.empty
        for box in boxes { extent = extent.union(box) }
        let bounds = NodeBounds(boxes[...], reference: GeoPoint(
            uncheckedLatitude: (extent.south + extent.north) / 2, longitude: (extent.west + extent.east) / 2))
        let origin = bounds.origin(DistanceOrigin(query))
        return Self.bounds(bounds, count: boxes.count, from: origin).lower
    }

    /// Lower and upper bounds for the first `count` nodes of `bounds`.
    private static func bounds(_ bounds: NodeBounds, count: Int, from origin: NodeBounds.Origin) -> (lower: [Double], upper: [Double]) {
        var lower = [Float](repeating: .nan, count: count + NodeBounds.lanes)
        var upper = lower
        var first = 0
        // In node-sized runs, as the search asks, including runs that end mid-vector.
        while first < count {
            let run = Swift.min(13, count - first)
            lower.withUnsafeMutableBufferPointer { lower in
                upper.withUnsafeMutableBufferPointer { upper in
                    bounds.bounds(first: first, count: run, from: origin, lower: lower.baseAddress! + first, upper: upper.baseAddress! + first)
                }
            }
            first += run
        }
        return (lower.prefix(count).map(Double.init), upper.prefix(count).map(Double.init))
    }

    @Test func neverAboveTheExactBoundAnywhereOnEarth() throws {
        var random = SplitMix64(seed: 31)
        for round in 0..<300 {
            let boxes = (0..<40).map { _ in
                let center = GeoPoint(uncheckedLatitude: Double.random(in: -89...89, using: &random), longitude: Double.random(in: -179.9...179.9, using: &random))
                return SyntheticPoints.box(around: center, fraction: [0, 1e-8, 1e-5, 1e-3, 0.2][Int.random(in: 0..<5, using: &random)])
            }
            for _ in 0..<20 {
                // Queries anywhere, and some right on a box's corner or edge.
                let box = boxes[Int.random(in: 0..<boxes.count, using: &random)]
                let query = round % 3 == 0
                    ? GeoPoint(uncheckedLatitude: box.north, longitude: box.west)
                    : GeoPoint(uncheckedLatitude: Double.random(in: -90...90, using: &random), longitude: Double.random(in: -180...180, using: &random))
                let exact = DistanceOrigin(query)
                for (box, bound) in zip(boxes, vectorBounds(boxes, from: query)) {
                    #expect(bound <= (exact.haversineLowerBound(to: box)), "bound above the true distance from \(query) to \(box)")
                    #expect(bound >= 0)
                }
            }
        }
    }

    @Test func upperBoundNeverBelowAPointOfTheNode() {
        var random = SplitMix64(seed: 33)
        for _ in 0..<300 {
            let boxes = (0..<20).map { _ in
                let center = GeoPoint(uncheckedLatitude: Double.random(in: -89...89, using: &random), longitude: Double.random(in: -179.9...179.9, using: &random))
                return SyntheticPoints.box(around: center, fraction: [0, 1e-8, 1e-5, 1e-3, 0.2][Int.random(in: 0..<5, using: &random)])
            }
            var extent = GeoBox.empty
            for box in boxes { extent = extent.union(box) }
            let bounds = NodeBounds(boxes[...], reference: GeoPoint(
                uncheckedLatitude: (extent.south + extent.north) / 2, longitude: (extent.west + extent.east) / 2))
            for _ in 0..<10 {
                let query = GeoPoint(uncheckedLatitude: Double.random(in: -90...90, using: &random), longitude: Double.random(in: -180...180, using: &random))
                let exact = DistanceOrigin(query)
                let uppers = Self.bounds(bounds, count: boxes.count, from: bounds.origin(exact)).upper
                for (i, box) in boxes.enumerated() {
                    let upper = uppers[i]
                    // Corners first: the farthest point of a small box is one of them.
                    let corners = [(box.south, box.west), (box.south, box.east), (box.north, box.west), (box.north, box.east)]
                    for (latitude, longitude) in corners {
                        #expect(upper >= (exact.haversine(latitude: latitude, longitude: longitude)), "upper bound below a corner of \(box) from \(query)")
                    }
                    for _ in 0..<5 {
                        let inside = SyntheticPoints.point(in: box, using: &random)
                        #expect(upper >= (exact.haversine(latitude: inside.latitude, longitude: inside.longitude)))
                    }
                    #expect(upper <= (Self.arithmeticUpperBound(from: exact, to: box) * 1.001 + 1e-12), "upper bound far looser than its arithmetic in double precision")
                }
            }
        }
    }

    /// The upper bound's arithmetic in double precision, unpadded: sin²x ≤ x² and
    /// cos φ ≤ cos φ₀ + |φ − φ₀|, at the farthest edges.
    private static func arithmeticUpperBound(from origin: DistanceOrigin, to box: GeoBox) -> Double {
        let latSpan = Swift.max(box.north - origin.latitude, origin.latitude - box.south)
        let lonSpan = Swift.min(Swift.max(box.east - origin.longitude, origin.longitude - box.west), 180)
        let halfLat = latSpan * .pi / 360
        let halfLon = lonSpan * .pi / 360
        let cosBound = Swift.min(1, origin.cosLatitude + latSpan * .pi / 180)
        return halfLat * halfLat + origin.cosLatitude * cosBound * halfLon * halfLon
    }

    @Test func tightForNeighbourhoodsInKorea() {
        var random = SplitMix64(seed: 32)
        let points = SyntheticPoints.clustered(count: 5_000, seed: 32)
        let boxes = (0..<400).map { _ in
            SyntheticPoints.box(around: points[Int.random(in: 0..<points.count, using: &random)], fraction: [1e-7, 1e-5, 1e-3][Int.random(in: 0..<3, using: &random)])
        }
        var strictlyPositive = 0
        for _ in 0..<200 {
            let query = points[Int.random(in: 0..<points.count, using: &random)]
            let origin = DistanceOrigin(query)
            for (box, bound) in zip(boxes, vectorBounds(boxes, from: query)) {
                // Single precision and its padding cost under a metre here, and the final
                // shrink a relative 1e-5 of the term (5e-6 of the distance).
                let quick = Geodesy.meters(haversine: origin.quickHaversineLowerBound(to: box))
                #expect((Geodesy.meters(haversine: bound)) >= (quick * (1 - 5e-6) - 1), "loose bound to \(box)")
                #expect(bound <= (origin.haversineLowerBound(to: box)))
                if bound > 0 { strictlyPositive += 1 }
            }
        }
        #expect(strictlyPositive > (200 * 400 / 2), "most boxes lie away from the query and must get a positive bound")
    }
}
