/// A point inside a polygon shape to serve it at (its rings checked and repaired first:
/// `PolygonRepair`).
public enum RingCheck {
    /// A point inside the polygon shape: on the line of latitude halfway across its first
    /// polygon's box (nudged half a unit off every vertex), the middle of the widest stretch
    /// that lies inside by the even-odd rule.
    public static func pointInside(_ shape: Shape) -> GeoPoint {
        let rings = shape.parts[0]
        let outer = rings[0]
        let south = outer.map(\.latitude).min() ?? 0
        let north = outer.map(\.latitude).max() ?? 0
        let y = (Double(south) + Double(north)) / 2 + 0.5
        var crossings: [Double] = []
        for ring in rings {
            for i in ring.indices {
                let (a, b) = (ring[i], ring[(i + 1) % ring.count])
                let (ay, by) = (Double(a.latitude), Double(b.latitude))
                if (ay > y) != (by > y) {
                    crossings.append(Double(a.longitude) + (y - ay) / (by - ay) * (Double(b.longitude) - Double(a.longitude)))
                }
            }
        }
        crossings.sort()
        var best = (width: -1.0, x: Double(outer[0].longitude))
        var i = 0
        while i + 1 < crossings.count {
            if crossings[i + 1] - crossings[i] > best.width { best = (crossings[i + 1] - crossings[i], (crossings[i] + crossings[i + 1]) / 2) }
            i += 2
        }
        return GeoPoint(uncheckedLatitude: y / ShapeVertex.perDegree, longitude: best.x / ShapeVertex.perDegree)
    }
}
