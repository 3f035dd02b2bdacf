#if canImport(Glibc)
import Glibc
#endif

/// A zone's footprint as polygons a GIS can draw (OGC API's `zones`), drawn so that the
/// outline holds every point the footprint holds, the points `check` finds in the zone.
///
/// A polygon without a width is its own rings. A circle is a regular polygon of
/// `circleVertices` whose edges touch the circle from outside. A widened polygon or a corridor
/// (the points within a distance of a path) has no closed form here: its outline is traced on a
/// grid over the distance `ShapeIndex` measures (marching squares), each vertex placed by
/// bisection along its grid edge on a level a little beyond the footprint's edge. That margin
/// is the most a chord between two traced vertices can cut inside the curve it follows (a
/// curve whose radius is at least the level: the edge of the points within a distance of a
/// shape), plus the simplification's tolerance and rounding to fixed point; so the outline
/// holds the footprint and lies within `margin(widthMeters:cellMeters:)` and a cell of it, but
/// where the footprint leaves a notch narrower than a cell (two widened edges nearly meeting),
/// which the outline fills.
public enum ShapeOutline {
    public static let circleVertices = 32
    /// The most cells a side of a traced shape's grid has: a shape kilometres wide is traced in
    /// coarser cells (and a wider margin), never in more work.
    static let maximumCells = 400
    /// How far a kept vertex may be from a dropped one's chord, in meters.
    static let simplifiedMeters = 0.02
    /// What rounding to the 1e-7 degree and the plane's curvature (0.1% within kilometres) add.
    static func slack(widthMeters: Double) -> Double { 0.01 + simplifiedMeters + 0.002 * widthMeters }

    /// The regular polygon around the circle of `radiusMeters` about `center`, counter-clockwise.
    public static func circle(around center: GeoPoint, radiusMeters: Double) -> Shape {
        let plane = LocalPlane(origin: center)
        let reach = (radiusMeters * 1.002 + 0.01) / cos(Double.pi / Double(circleVertices))
        let ring = (0..<circleVertices).map { k in
            let angle = 2 * Double.pi * Double(k) / Double(circleVertices)
            return plane.vertex(x: reach * cos(angle), y: reach * sin(angle))
        }
        return Shape(kind: .polygon, parts: [[ring]])
    }

    /// The runs of edges one outline may read: a park of a few hundred vertices reads well under
    /// a million; a hostile comb of 20,000 would read tens of millions.
    public static let workLimit = 16_000_000

    /// How a zone's outline was drawn.
    public enum Drawing: Sendable, Equatable {
        /// Its circle's polygon.
        case circle
        /// Its polygon as published (no width).
        case polygon
        /// Traced around its widened polygon or its corridor, within the margin.
        case traced
        /// The circle of its reach around its position, where tracing its shape would have
        /// read more than the work allowed: it holds the footprint, and more.
        case reach
    }

    /// The outline of a zone's footprint: its circle about `center`, or its shape widened by the
    /// footprint's width; nil when the shape is not at hand. A shape whose outline would read
    /// more than `workLimit` runs of edges (taken from `work`) is drawn as the circle of its reach.
    public static func zone(_ footprint: ZoneFootprint, center: GeoPoint, shape: Shape?, work: inout Int) -> (outline: Shape, drawing: Drawing)? {
        guard footprint.shape != .circle else { return (circle(around: center, radiusMeters: footprint.radiusMeters), .circle) }
        guard let shape else { return nil }
        let allowed = Swift.min(work, workLimit)
        if allowed > 0, let (outline, used) = self.footprint(of: shape, widthMeters: footprint.widthMeters, workLimit: allowed) {
            work -= used
            return (outline, shape.kind == .polygon && footprint.widthMeters <= 0 ? .polygon : .traced)
        }
        work -= allowed
        return (circle(around: center, radiusMeters: footprint.radiusMeters), .reach)
    }

    /// The outline of `shape`'s footprint: a polygon widened by `widthMeters` (itself when 0),
    /// or the corridor `widthMeters` either side of its paths. Outer rings run counter-clockwise
    /// and holes clockwise (GeoJSON's right-hand rule).
    public static func footprint(of shape: Shape, widthMeters: Double) -> Shape {
        footprint(of: shape, widthMeters: widthMeters, workLimit: .max)?.outline ?? Shape(kind: .polygon, parts: [])
    }

    /// The outline and the runs of edges read to draw it; nil past `workLimit`.
    static func footprint(of shape: Shape, widthMeters: Double, workLimit: Int) -> (outline: Shape, work: Int)? {
        if shape.kind == .polygon && widthMeters <= 0 { return (oriented(shape), shape.vertexCount / ShapeIndex.chunkLength + 1) }
        let width = Swift.max(widthMeters, 0)
        let index = ShapeIndex([(owner: 0, shape: shape, widthMeters: width)])
        let box = shape.box
        let plane = LocalPlane(origin: GeoPoint(uncheckedLatitude: box.south, longitude: box.west))
        let (spanX, spanY) = plane.position(of: GeoPoint(uncheckedLatitude: box.north, longitude: box.east))
        let cell = cellMeters(widthMeters: width, spanMeters: Swift.max(spanX, spanY))
        let level = width + margin(widthMeters: width, cellMeters: cell)
        let grid = Grid(index: index, isPolygon: shape.kind == .polygon, plane: plane, level: level, cell: cell,
                        origin: (-level - 2 * cell, -level - 2 * cell), spanX: spanX + 2 * level + 4 * cell, spanY: spanY + 2 * level + 4 * cell,
                        workLimit: workLimit)
        guard let loops = grid.loops() else { return nil }
        return (assembled(loops.map { simplified($0) }.filter { $0.count >= 3 }, plane: plane), grid.meter.used)
    }

    /// The side of a grid cell: fine enough that a chord cuts at most a few centimetres inside a
    /// footprint's rounded edge, coarse enough that a side has at most `maximumCells`.
    static func cellMeters(widthMeters: Double, spanMeters: Double) -> Double {
        let target = Swift.max(0.1, 0.01 * widthMeters)
        return Swift.max((4 * widthMeters * target).squareRoot(), (spanMeters + 2 * widthMeters) / Double(maximumCells - 8), 0.1)
    }

    /// How far beyond the footprint the traced outline may lie: the chord's cut on a curve of
    /// radius at least the level (at least two cells, so the grid sees every part), and the slack.
    public static func margin(widthMeters: Double, cellMeters cell: Double) -> Double {
        let slack = slack(widthMeters: widthMeters)
        let level = Swift.max(widthMeters + slack + cell * cell / (4 * Swift.max(widthMeters, 2 * cell)), 2 * cell)
        return level - widthMeters
    }

    /// `shape` with its outer rings counter-clockwise and its holes clockwise.
    static func oriented(_ shape: Shape) -> Shape {
        Shape(kind: .polygon, parts: shape.parts.map { part in
            part.enumerated().map { number, ring in
                let area = signedArea(ring.map { (Double($0.longitude), Double($0.latitude)) })
                return (number == 0) == (area > 0) ? ring : ring.reversed()
            }
        })
    }

    static func signedArea(_ ring: [(Double, Double)]) -> Double {
        var twice = 0.0
        for i in ring.indices {
            let (a, b) = (ring[i], ring[(i + 1) % ring.count])
            twice += (a.0 - b.0) * (a.1 + b.1)
        }
        return twice / 2
    }

    /// A closed loop with every vertex dropped that lies within `simplifiedMeters` of the chord
    /// that replaces it (the straight runs along a polygon's edges), at most 256 to a chord.
    static func simplified(_ loop: [(Double, Double)]) -> [(Double, Double)] {
        guard loop.count > 4 else { return loop }
        var kept = [loop[0]]
        var anchor = 0
        for i in 1..<loop.count {
            let next = loop[(i + 1) % loop.count]
            let fits = i - anchor < 256 && (anchor + 1...i).allSatisfy { distance(loop[$0], loop[anchor], next) <= simplifiedMeters }
            if !fits {
                kept.append(loop[i])
                anchor = i
            }
        }
        return kept
    }

    static func distance(_ p: (Double, Double), _ a: (Double, Double), _ b: (Double, Double)) -> Double {
        ShapeIndex.distance(fromOriginTo: (a.0 - p.0, a.1 - p.1), (b.0 - p.0, b.1 - p.1))
    }

    /// Loops as polygons: each counter-clockwise loop an outer ring, each clockwise one a hole
    /// of the smallest outer ring around it.
    static func assembled(_ loops: [[(Double, Double)]], plane: LocalPlane) -> Shape {
        let areas = loops.map(signedArea)
        let outers = loops.indices.filter { areas[$0] > 0 }.sorted { areas[$0] < areas[$1] }
        var parts = outers.map { [loops[$0]] }
        for hole in loops.indices where areas[hole] < 0 {
            guard let around = outers.firstIndex(where: { contains(loops[$0], loops[hole][0]) }) else { continue }
            parts[around].append(loops[hole])
        }
        return Shape(kind: .polygon, parts: parts.map { part in part.map { ring in ring.map { plane.vertex(x: $0.0, y: $0.1) } } })
    }

    static func contains(_ ring: [(Double, Double)], _ point: (Double, Double)) -> Bool {
        var inside = false
        for i in ring.indices {
            let (a, b) = (ring[i], ring[(i + 1) % ring.count])
            if (a.1 > point.1) != (b.1 > point.1), a.0 + (point.1 - a.1) / (b.1 - a.1) * (b.0 - a.0) > point.0 { inside.toggle() }
        }
        return inside
    }
}

/// Meters east and north of an origin, in the plane tangent there.
struct LocalPlane {
    let origin: GeoPoint
    let metersPerDegreeNorth: Double
    let metersPerDegreeEast: Double

    init(origin: GeoPoint) {
        self.origin = origin
        metersPerDegreeNorth = Geodesy.earthRadiusMeters * Double.pi / 180
        metersPerDegreeEast = metersPerDegreeNorth * cos(origin.latitude * Double.pi / 180)
    }

    func position(of point: GeoPoint) -> (x: Double, y: Double) {
        ((point.longitude - origin.longitude) * metersPerDegreeEast, (point.latitude - origin.latitude) * metersPerDegreeNorth)
    }

    func point(x: Double, y: Double) -> GeoPoint {
        GeoPoint(uncheckedLatitude: Swift.min(Swift.max(origin.latitude + y / metersPerDegreeNorth, -90), 90),
                 longitude: Swift.min(Swift.max(origin.longitude + x / metersPerDegreeEast, -180), 180))
    }

    func vertex(x: Double, y: Double) -> ShapeVertex { ShapeVertex(point(x: x, y: y)) }
}
