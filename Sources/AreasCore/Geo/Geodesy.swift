#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

/// Great-circle geometry on a sphere, the model every query and every test oracle shares.
///
/// Distances are haversine distances on a sphere of mean Earth radius. Internally the search
/// compares the haversine term `h = sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2)`, which grows with
/// distance, and turns it into meters only for results: one `asin` per answer, not per candidate.
public enum Geodesy {
    /// IUGG mean Earth radius, in meters.
    public static let earthRadiusMeters = 6_371_008.8

    @usableFromInline
    static let radiansPerDegree = Double.pi / 180

    /// Great-circle distance between two points, in meters.
    @inlinable
    public static func distance(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        distance(from: DistanceOrigin(a), to: b)
    }

    /// The same distance, from an origin whose trigonometry is already done.
    @inlinable
    package static func distance(from origin: DistanceOrigin, to b: GeoPoint) -> Double {
        meters(haversine: origin.haversine(latitude: b.latitude, longitude: b.longitude))
    }

    /// The smallest distance, in meters, from `point` to any point of `box` (0 inside it).
    public static func minimumDistance(from point: GeoPoint, to box: GeoBox) -> Double {
        meters(haversine: DistanceOrigin(point).haversineLowerBound(to: box))
    }

    /// A box holding every point within `meters` of `center`; never too small, slightly large at most.
    public static func boundingBox(around center: GeoPoint, meters: Double) throws(GeoError) -> GeoBox {
        guard meters.isFinite, meters >= 0 else { throw .invalidDistance(meters) }
        let angle = meters / earthRadiusMeters
        // Pad by a relative 1e-9 and a few nanodegrees so rounding can never cut off a point.
        let latDelta = angle / radiansPerDegree * (1 + 1e-9) + 1e-9
        let south = center.latitude - latDelta
        let north = center.latitude + latDelta
        if south <= -90 || north >= 90 || angle >= Double.pi / 2 {
            return GeoBox(uncheckedSouth: Swift.max(south, -90), west: -180, north: Swift.min(north, 90), east: 180)
        }
        let ratio = sin(angle) / cos(center.latitude * radiansPerDegree)
        if ratio >= 1 {
            return GeoBox(uncheckedSouth: south, west: -180, north: north, east: 180)
        }
        let lonDelta = asin(ratio) / radiansPerDegree * (1 + 1e-9) + 1e-9
        return GeoBox(
            uncheckedSouth: south, west: Swift.max(center.longitude - lonDelta, -180),
            north: north, east: Swift.min(center.longitude + lonDelta, 180))
    }

    /// The initial great-circle bearing from `a` to `b`, in degrees clockwise from north [0, 360).
    public static func bearing(from a: GeoPoint, to b: GeoPoint) -> Double {
        let lat1 = a.latitude * radiansPerDegree, lat2 = b.latitude * radiansPerDegree
        let dLon = (b.longitude - a.longitude) * radiansPerDegree
        let y = sin(dLon) * cos(lat2)
        let x = cos(lat1) * sin(lat2) - sin(lat1) * cos(lat2) * cos(dLon)
        let degrees = atan2(y, x) / radiansPerDegree
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// One of the eight compass points (`N`, `NE`, ... `NW`) for a bearing in degrees.
    public static func compassPoint(_ bearing: Double) -> String {
        let names = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        let index = Int(((bearing.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) + 22.5) / 45) % 8
        return names[index]
    }

    /// Where `point` lies beside the great-circle segment from `a` to `b`: the distance to the
    /// segment (to its nearest end when the perpendicular foot falls outside it) and how far along
    /// the segment, from `a`, the nearest point is. Both in meters.
    public static func segmentDistance(from point: GeoPoint, a: GeoPoint, b: GeoPoint) -> (side: Double, along: Double) {
        GreatCircleSegment(from: a, to: b).locate(point)
    }

    /// Meters for a haversine term.
    @inlinable
    public static func meters(haversine h: Double) -> Double {
        2 * earthRadiusMeters * SmallAngle.arcsine(Swift.min(1, Swift.max(h, 0).squareRoot()))
    }

    /// The haversine term for a distance in meters (the inverse of `meters(haversine:)`).
    @inlinable
    public static func haversine(meters: Double) -> Double {
        let angle = Swift.min(meters / earthRadiusMeters, Double.pi)
        let s = SmallAngle.sine(angle / 2)
        return s * s
    }

    /// sin²(x/2) for an angle in degrees.
    @inlinable
    static func hav(degrees: Double) -> Double {
        let s = SmallAngle.sine(degrees * (radiansPerDegree / 2))
        return s * s
    }
}

/// A query point with the trigonometry that every distance from it shares, computed once.
@usableFromInline
package struct DistanceOrigin: Sendable {
    @usableFromInline let latitude: Double
    @usableFromInline let longitude: Double
    @usableFromInline let cosLatitude: Double
    @usableFromInline let sinLatitude: Double

    @inlinable
    package init(_ point: GeoPoint) {
        latitude = point.latitude
        longitude = point.longitude
        cosLatitude = cos(point.latitude * Geodesy.radiansPerDegree)
        sinLatitude = sin(point.latitude * Geodesy.radiansPerDegree)
    }

    var point: GeoPoint { GeoPoint(uncheckedLatitude: latitude, longitude: longitude) }

    /// The haversine term to a point. Every distance in the system is computed by this expression.
    @inlinable
    func haversine(latitude otherLatitude: Double, longitude otherLongitude: Double) -> Double {
        corner(hav: Geodesy.hav(degrees: otherLongitude - longitude), latitude: otherLatitude)
    }

    /// The haversine term to the point at `latitude` on a meridian whose sin²(Δλ/2) is `hav`.
    @inlinable
    func corner(hav: Double, latitude otherLatitude: Double) -> Double {
        // cos φ₂ = cos(φ₁ + Δφ) from the half angle that sin²(Δφ/2) needs anyway, so a nearby
        // point costs two short polynomials rather than a libm cosine of its latitude.
        let half = (otherLatitude - latitude) * (Geodesy.radiansPerDegree / 2)
        let s = SmallAngle.sine(half)
        let c = SmallAngle.cosine(half)
        let cosOther = cosLatitude * (1 - 2 * s * s) - sinLatitude * (2 * s * c)
        return s * s + cosLatitude * cosOther * hav
    }

    /// A lower bound of the haversine term to any point of `box`, from arithmetic alone.
    ///
    /// Uses sin²x ≥ x²(1 − x²/3) and cos φ ≥ cos φ₀ − |φ − φ₀|: a few multiplications where the
    /// exact bound takes five trigonometric calls. The search ranks candidates by this and pays
    /// for the exact distance only on the few that reach the front of its queue.
    @inlinable
    func quickHaversineLowerBound(to box: GeoBox) -> Double {
        // Written without branches: the search evaluates it for every child of every node it
        // opens, and which side of a child the point lies on is a coin toss for the predictor.
        let latGap = Swift.max(Swift.max(box.south - latitude, latitude - box.north), 0)
        // The longitude gap the short way round, which may cross the antimeridian: `west` and
        // `east` are how far the box lies east and west of the point, negative when it doesn't.
        let west = box.west - longitude
        let east = longitude - box.east
        let lonGap = Swift.max(Swift.max(Swift.min(west, 360 + east), Swift.min(east, 360 + west)), 0)
        let halfLat = latGap * (Geodesy.radiansPerDegree / 2)
        let latTerm = halfLat * halfLat * Swift.max(1 - halfLat * halfLat / 3, 0)
        let halfLon = Swift.min(lonGap, 180) * (Geodesy.radiansPerDegree / 2)
        let lonTerm = halfLon * halfLon * Swift.max(1 - halfLon * halfLon / 3, 0)
        let farthest = Swift.max(box.north - latitude, latitude - box.south) * Geodesy.radiansPerDegree
        let cosBound = Swift.max(cosLatitude - farthest, 0)
        return latTerm + cosLatitude * cosBound * lonTerm
    }

    /// The smallest haversine term to any point of `box`.
    ///
    /// Inside the box's longitudes the nearest point is straight north or south. Outside them it
    /// lies on the nearer edge meridian: at the latitude where the great circle through the
    /// query meets that meridian at a right angle if that lies on the edge, else at a corner.
    @inlinable
    func haversineLowerBound(to box: GeoBox) -> Double {
        // Most entries are points: their bound is their distance.
        if box.south == box.north && box.west == box.east {
            return haversine(latitude: box.south, longitude: box.west)
        }
        if longitude >= box.west && longitude <= box.east {
            if latitude < box.south { return Geodesy.hav(degrees: box.south - latitude) }
            if latitude > box.north { return Geodesy.hav(degrees: box.north - latitude) }
            return 0
        }
        let hav = Swift.min(
            Geodesy.hav(degrees: box.west - longitude), Geodesy.hav(degrees: box.east - longitude))
        let cosDelta = 1 - 2 * hav
        let vertex: Double
        if cosDelta <= 0 {
            vertex = latitude > 0 ? 90 : -90
        } else {
            vertex = atan(tan(latitude * Geodesy.radiansPerDegree) / cosDelta) / Geodesy.radiansPerDegree
        }
        if vertex > box.south && vertex < box.north {
            return corner(hav: hav, latitude: vertex)
        }
        return Swift.min(corner(hav: hav, latitude: box.south), corner(hav: hav, latitude: box.north))
    }
}
