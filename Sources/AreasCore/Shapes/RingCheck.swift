/// What a shape must be before it is indexed: rings that do not cross themselves, and a point
/// inside it to serve it at.
public enum RingCheck {
    public enum Verdict: Sendable, Equatable {
        case simple
        case crosses
        /// Checking would compare more pairs of edges than `maximumComparisons`.
        case tooComplex
    }

    /// Pairs of edges one ring's check may compare: a sweep compares only edges whose
    /// longitudes overlap, so a real ring of 100,000 vertices needs a few million.
    public static let maximumComparisons = 20_000_000

    /// Whether the ring (not closed: its last vertex joins its first) crosses or touches itself
    /// anywhere but where consecutive edges meet. Edges are swept in order of their western
    /// ends; each is compared with the edges still open to its west whose latitudes overlap.
    public static func crossings(of ring: [ShapeVertex]) -> Verdict {
        let n = ring.count
        guard n >= 3 else { return .crosses }
        struct Edge { var west: Int64, east: Int64, south: Int64, north: Int64, index: Int }
        var edges = (0..<n).map { i -> Edge in
            let (a, b) = (ring[i], ring[(i + 1) % n])
            return Edge(west: Int64(Swift.min(a.longitude, b.longitude)), east: Int64(Swift.max(a.longitude, b.longitude)),
                        south: Int64(Swift.min(a.latitude, b.latitude)), north: Int64(Swift.max(a.latitude, b.latitude)), index: i)
        }
        edges.sort { $0.west < $1.west }
        var open: [Edge] = []
        var comparisons = 0
        for edge in edges {
            open.removeAll { $0.east < edge.west }
            for other in open where other.north >= edge.south && other.south <= edge.north {
                comparisons += 1
                if comparisons > maximumComparisons { return .tooComplex }
                let (i, j) = (edge.index, other.index)
                // Consecutive edges share a vertex by design.
                if abs(i - j) == 1 || abs(i - j) == n - 1 { continue }
                if intersect(ring[i], ring[(i + 1) % n], ring[j], ring[(j + 1) % n]) { return .crosses }
            }
            open.append(edge)
        }
        return .simple
    }

    /// Whether segments `ab` and `cd` meet, touching included. Exact: the products of fixed-point
    /// differences fit in 64-bit integers for any shape a degree or so across, and larger
    /// differences are compared in floating point.
    static func intersect(_ a: ShapeVertex, _ b: ShapeVertex, _ c: ShapeVertex, _ d: ShapeVertex) -> Bool {
        func orientation(_ p: ShapeVertex, _ q: ShapeVertex, _ r: ShapeVertex) -> Int {
            let value = Double(Int64(q.longitude) - Int64(p.longitude)) * Double(Int64(r.latitude) - Int64(p.latitude))
                - Double(Int64(q.latitude) - Int64(p.latitude)) * Double(Int64(r.longitude) - Int64(p.longitude))
            return value > 0 ? 1 : value < 0 ? -1 : 0
        }
        func onSegment(_ p: ShapeVertex, _ q: ShapeVertex, _ r: ShapeVertex) -> Bool {
            Swift.min(p.longitude, q.longitude) <= r.longitude && r.longitude <= Swift.max(p.longitude, q.longitude)
                && Swift.min(p.latitude, q.latitude) <= r.latitude && r.latitude <= Swift.max(p.latitude, q.latitude)
        }
        let (o1, o2, o3, o4) = (orientation(a, b, c), orientation(a, b, d), orientation(c, d, a), orientation(c, d, b))
        if o1 != o2 && o3 != o4 { return true }
        return (o1 == 0 && onSegment(a, b, c)) || (o2 == 0 && onSegment(a, b, d)) || (o3 == 0 && onSegment(c, d, a)) || (o4 == 0 && onSegment(c, d, b))
    }

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
