#if canImport(Glibc)
import Glibc
#endif

extension ShapeIndex {
    /// How near a leg of a route comes to shape `shape`'s footprint: the distance from the leg
    /// to the footprint (0 when the leg enters it), and how far along the leg that nearest
    /// point lies, in meters; nil when the runs read pass `limit`.
    ///
    /// Measured in the plane tangent at the leg's start, whose east-west scale is off by about
    /// 0.1% ten kilometres north or south of it.
    func approach(of shape: Int, from a: GeoPoint, to b: GeoPoint, work: inout Int, limit: Int) -> (sideMeters: Double, alongMeters: Double)? {
        let rings = Int(shapeRings[shape])..<Int(shapeRings[shape + 1])
        work += Int(ringChunks[rings.upperBound]) - Int(ringChunks[rings.lowerBound])
        guard work <= limit else { return nil }
        let northMeters = Geodesy.earthRadiusMeters * Double.pi / 180 / ShapeVertex.perDegree
        let eastMeters = northMeters * cos(a.latitude * Double.pi / 180)
        let (ox, oy) = (a.longitude * ShapeVertex.perDegree, a.latitude * ShapeVertex.perDegree)
        func plane(_ x: Double, _ y: Double) -> (Double, Double) { ((x - ox) * eastMeters, (y - oy) * northMeters) }
        let end = plane(b.longitude * ShapeVertex.perDegree, b.latitude * ShapeVertex.perDegree)
        let legLength = (end.0 * end.0 + end.1 * end.1).squareRoot()
        let isPolygon = kinds[shape] == Shape.Kind.polygon.rawValue
        var best = (distance: Double.infinity, along: 0.0)
        var crossingsAtStart = 0
        for ring in rings {
            let first = Int(ringStarts[ring])
            let count = Int(ringStarts[ring + 1]) - first
            let edges = isPolygon ? count : count - 1
            for i in 0..<edges {
                let p = vertices[first + i], q = vertices[first + (i + 1 == count ? 0 : i + 1)]
                let c = plane(Double(p.longitude), Double(p.latitude))
                let d = plane(Double(q.longitude), Double(q.latitude))
                // Whether the leg's start is inside: the ray east of it crosses an odd number of edges.
                if isPolygon, (c.1 > 0) != (d.1 > 0), c.0 + (0 - c.1) / (d.1 - c.1) * (d.0 - c.0) > 0 { crossingsAtStart += 1 }
                let found = Self.segmentDistance(end, c, d, legLength: legLength)
                if found.distance < best.distance { best = found }
            }
        }
        if isPolygon && crossingsAtStart % 2 == 1 { best = (0, 0) }
        return (Swift.max(0, best.distance - widths[shape]), best.along)
    }

    /// The distance between the leg from the origin to `end` and the edge from `c` to `d`, and
    /// how far along the leg the nearest point is (0 where they cross).
    static func segmentDistance(_ end: (Double, Double), _ c: (Double, Double), _ d: (Double, Double), legLength: Double) -> (distance: Double, along: Double) {
        let cross = { (u: (Double, Double), v: (Double, Double)) in u.0 * v.1 - u.1 * v.0 }
        let e = (d.0 - c.0, d.1 - c.1)
        let denominator = cross(end, e)
        if denominator != 0 {
            let t = cross(c, e) / denominator
            let s = cross(c, end) / denominator
            if (0...1).contains(t) && (0...1).contains(s) { return (0, t * legLength) }
        }
        // Otherwise the nearest pair has an end of one of the two.
        func toLeg(_ p: (Double, Double)) -> (Double, Double) {
            let lengthSquared = end.0 * end.0 + end.1 * end.1
            let t = lengthSquared > 0 ? Swift.min(Swift.max((p.0 * end.0 + p.1 * end.1) / lengthSquared, 0), 1) : 0
            let (x, y) = (p.0 - t * end.0, p.1 - t * end.1)
            return ((x * x + y * y).squareRoot(), t * legLength)
        }
        var best = toLeg(c)
        let fromD = toLeg(d)
        if fromD.0 < best.0 { best = fromD }
        let atStart = distance(fromOriginTo: c, d)
        if atStart < best.0 { best = (atStart, 0) }
        let atEnd = distance(fromOriginTo: (c.0 - end.0, c.1 - end.1), (d.0 - end.0, d.1 - end.1))
        if atEnd < best.0 { best = (atEnd, legLength) }
        return best
    }
}
