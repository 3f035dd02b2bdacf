#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

/// A great-circle segment with the trigonometry every measurement against it shares done once:
/// a route search measures thousands of areas against each leg.
public struct GreatCircleSegment: Sendable {
    public let start: GeoPoint
    public let end: GeoPoint
    /// In meters.
    public let length: Double
    private let fromStart: DistanceOrigin
    private let fromEnd: DistanceOrigin
    /// The initial bearing from start to end, in radians.
    private let heading: Double

    public init(from start: GeoPoint, to end: GeoPoint) {
        self.start = start
        self.end = end
        fromStart = DistanceOrigin(start)
        fromEnd = DistanceOrigin(end)
        length = Geodesy.distance(from: fromStart, to: end)
        heading = Self.bearing(from: fromStart, to: end)
    }

    /// The distance from `point` to the segment (to its nearer end when the perpendicular foot
    /// falls outside it), and how far along the segment from its start the nearest point is.
    /// Both in meters.
    public func locate(_ point: GeoPoint) -> (side: Double, along: Double) {
        let toPoint = Geodesy.distance(from: fromStart, to: point)
        guard length > 0, toPoint > 0 else { return (toPoint, 0) }
        let angle13 = toPoint / Geodesy.earthRadiusMeters
        let theta = Self.bearing(from: fromStart, to: point) - heading
        // Behind the start: the nearest point is the start itself.
        if cos(theta) <= 0 { return (toPoint, 0) }
        let cross = asin(Swift.max(-1, Swift.min(1, sin(angle13) * sin(theta))))
        let along = acos(Swift.max(-1, Swift.min(1, cos(angle13) / cos(cross)))) * Geodesy.earthRadiusMeters
        if along >= length { return (Geodesy.distance(from: fromEnd, to: point), length) }
        return (abs(cross) * Geodesy.earthRadiusMeters, along)
    }

    /// The point `fraction` of the way from start to end along the great circle.
    public func point(at fraction: Double) -> GeoPoint {
        let angle = length / Geodesy.earthRadiusMeters
        guard angle > 1e-12, sin(angle) > 1e-12 else { return start }
        let weightStart = sin((1 - fraction) * angle) / sin(angle)
        let weightEnd = sin(fraction * angle) / sin(angle)
        let lonStart = start.longitude * Geodesy.radiansPerDegree
        let lonEnd = end.longitude * Geodesy.radiansPerDegree
        let x = weightStart * fromStart.cosLatitude * cos(lonStart) + weightEnd * fromEnd.cosLatitude * cos(lonEnd)
        let y = weightStart * fromStart.cosLatitude * sin(lonStart) + weightEnd * fromEnd.cosLatitude * sin(lonEnd)
        let z = weightStart * fromStart.sinLatitude + weightEnd * fromEnd.sinLatitude
        let latitude = atan2(z, (x * x + y * y).squareRoot()) / Geodesy.radiansPerDegree
        let longitude = atan2(y, x) / Geodesy.radiansPerDegree
        return GeoPoint(uncheckedLatitude: Swift.max(-90, Swift.min(90, latitude)), longitude: Swift.max(-180, Swift.min(180, longitude)))
    }

    /// The initial great-circle bearing in radians, with the origin's trigonometry reused.
    private static func bearing(from origin: DistanceOrigin, to point: GeoPoint) -> Double {
        let latitude = point.latitude * Geodesy.radiansPerDegree
        let dLon = (point.longitude - origin.longitude) * Geodesy.radiansPerDegree
        let y = sin(dLon) * cos(latitude)
        let x = origin.cosLatitude * sin(latitude) - origin.sinLatitude * cos(latitude) * cos(dLon)
        return atan2(y, x)
    }
}
