#if canImport(Glibc)
import Glibc
#endif

/// Shapes indexed for "which of them holds this point, and how far is it from their edge":
/// zones' polygons and corridors today, and any owner's shapes (a region, a hotspot) alike.
///
/// A packed R-tree over each shape's box (widened by its width) finds the candidates. Each ring
/// or path is cut into runs of `chunkLength` segments with a box of their own, so a test reads
/// only the runs that can matter: for inside (an even-odd count of crossings of the ray east of
/// the point), the runs whose latitudes span the point's and that reach east of it; for the
/// distance to the edge, the runs whose box lies nearer than the nearest edge found so far.
/// Vertices are fixed point (`ShapeVertex`), and distances are measured in a plane tangent at
/// the point (exact to well under 0.1% within a few kilometres).
public struct ShapeIndex: Sendable {
    /// The segments in one run.
    public static let chunkLength = 16

    let tree: PackedRTree
    /// Per shape: its owner (a zone's table position), its kind, the distance it is widened by
    /// (a polygon) or its half-width (a corridor) in meters, and its rings `shapeRings[i]..<shapeRings[i + 1]`.
    let owners: Column<UInt32>
    let kinds: Column<UInt8>
    let widths: Column<Double>
    let shapeRings: Column<UInt32>
    /// Per ring (or path): its vertices `ringStarts[r]..<ringStarts[r + 1]` and its runs
    /// `ringChunks[r]..<ringChunks[r + 1]`.
    let ringStarts: Column<UInt32>
    let ringChunks: Column<UInt32>
    let chunkBoxes: Column<ChunkBox>
    let vertices: Column<ShapeVertex>

    /// A run's box in fixed point.
    public struct ChunkBox: Sendable, BitwiseCopyable, Equatable {
        var south: Int32, west: Int32, north: Int32, east: Int32
    }

    public static let empty = ShapeIndex(tree: PackedRTree(entries: []), owners: Column(), kinds: Column(), widths: Column(), shapeRings: Column([0]),
                                         ringStarts: Column([0]), ringChunks: Column([0]), chunkBoxes: Column(), vertices: Column())

    init(tree: PackedRTree, owners: Column<UInt32>, kinds: Column<UInt8>, widths: Column<Double>, shapeRings: Column<UInt32>,
         ringStarts: Column<UInt32>, ringChunks: Column<UInt32>, chunkBoxes: Column<ChunkBox>, vertices: Column<ShapeVertex>) {
        self.tree = tree
        self.owners = owners
        self.kinds = kinds
        self.widths = widths
        self.shapeRings = shapeRings
        self.ringStarts = ringStarts
        self.ringChunks = ringChunks
        self.chunkBoxes = chunkBoxes
        self.vertices = vertices
    }

    /// Indexes `shapes`, each with its owner and width.
    public init(_ shapes: [(owner: UInt32, shape: Shape, widthMeters: Double)], nodeSize: Int = PackedRTree.defaultNodeSize) {
        var owners: [UInt32] = [], kinds: [UInt8] = [], widths: [Double] = [], shapeRings: [UInt32] = [0]
        var ringStarts: [UInt32] = [0], ringChunks: [UInt32] = [0], chunkBoxes: [ChunkBox] = [], vertices: [ShapeVertex] = []
        var boxes: [GeoBox] = []
        for (owner, shape, width) in shapes {
            owners.append(owner)
            kinds.append(shape.kind.rawValue)
            widths.append(width)
            for ring in shape.rings {
                vertices.append(contentsOf: ring)
                ringStarts.append(UInt32(vertices.count))
                let segments = shape.kind == .polygon ? ring.count : ring.count - 1
                var start = 0
                while start < segments {
                    let end = Swift.min(start + Self.chunkLength, segments)
                    var box = ChunkBox(south: .max, west: .max, north: .min, east: .min)
                    for i in start...end {
                        let v = ring[i % ring.count]
                        box.south = Swift.min(box.south, v.latitude); box.north = Swift.max(box.north, v.latitude)
                        box.west = Swift.min(box.west, v.longitude); box.east = Swift.max(box.east, v.longitude)
                    }
                    chunkBoxes.append(box)
                    start = end
                }
                ringChunks.append(UInt32(chunkBoxes.count))
            }
            shapeRings.append(UInt32(ringStarts.count - 1))
            boxes.append(Self.widened(shape.box, by: width))
        }
        self.init(tree: PackedRTree(entries: boxes, nodeSize: nodeSize), owners: Column(owners), kinds: Column(kinds), widths: Column(widths),
                  shapeRings: Column(shapeRings), ringStarts: Column(ringStarts), ringChunks: Column(ringChunks),
                  chunkBoxes: Column(chunkBoxes), vertices: Column(vertices))
    }

    /// `box` grown by `meters` on every side.
    package static func widened(_ box: GeoBox, by meters: Double) -> GeoBox {
        let dLat = meters / Geodesy.earthRadiusMeters * 180 / Double.pi
        let cosine = Swift.max(cos(Swift.max(abs(box.south), abs(box.north)) * Double.pi / 180), 0.01)
        let dLon = dLat / cosine
        return GeoBox(uncheckedSouth: Swift.max(box.south - dLat, -90), west: Swift.max(box.west - dLon, -180),
                      north: Swift.min(box.north + dLat, 90), east: Swift.min(box.east + dLon, 180))
    }

    public var count: Int { owners.count }

    /// Bytes held by the tree and the columns.
    public var byteCount: Int {
        tree.byteCount + owners.byteCount + kinds.byteCount + widths.byteCount + shapeRings.byteCount + ringStarts.byteCount
            + ringChunks.byteCount + chunkBoxes.byteCount + vertices.byteCount
    }

    /// What a test of one shape found.
    public struct Hit: Sendable, Equatable {
        /// The shape's number in the index, and its owner.
        public var shape: Int
        public var owner: Int
        /// How far the point is from the footprint's edge (inside it): the walk to leave.
        public var edgeMeters: Double
    }

    /// Calls `visit` for every shape whose footprint holds `point`: inside a polygon or within
    /// its width of the polygon's edge, or within a corridor's half-width of its path. Returns
    /// false, having stopped, when the runs read would pass `workLimit`. Without
    /// `measuringEdge`, a polygon without a width is tested by its crossings alone and its hit
    /// says 0 for the edge (a region asked which one holds a point).
    @discardableResult
    public func forEach(holding point: GeoPoint, workLimit: Int = .max, measuringEdge: Bool = true, _ visit: (Hit) -> Void) -> Bool {
        guard count > 0 else { return true }
        var work = 0
        var withinLimit = true
        tree.forEach(intersecting: GeoBox(point), filter: AdmitAll()) { entry in
            let shape = Int(entry)
            guard let (inside, edge) = test(shape, point, work: &work, limit: workLimit, measuringEdge: measuringEdge) else {
                withinLimit = false
                return false
            }
            if inside { visit(Hit(shape: shape, owner: Int(owners[shape]), edgeMeters: edge)) }
            return true
        }
        return withinLimit
    }

    /// Meters per fixed-point unit, north and east, in the plane tangent at `point`.
    @inline(__always)
    static func unitMeters(at point: GeoPoint) -> (north: Double, east: Double) {
        let north = Geodesy.earthRadiusMeters * Double.pi / 180 / ShapeVertex.perDegree
        return (north, north * cos(point.latitude * Double.pi / 180))
    }

    /// Calls `body` with each edge of run `chunk` of `ring` (of a shape of kind `isPolygon`),
    /// in fixed point.
    @inline(__always)
    func forEachEdge(ring: Int, chunk: Int, isPolygon: Bool, _ body: (Double, Double, Double, Double) -> Void) {
        let first = Int(ringStarts[ring])
        let count = Int(ringStarts[ring + 1]) - first
        let start = (chunk - Int(ringChunks[ring])) * Self.chunkLength
        let end = Swift.min(start + Self.chunkLength, isPolygon ? count : count - 1)
        for i in start..<end {
            let a = vertices[first + i]
            let b = vertices[first + (i + 1 == count ? 0 : i + 1)]
            body(Double(a.longitude), Double(a.latitude), Double(b.longitude), Double(b.latitude))
        }
    }

    /// Whether shape `shape`'s footprint holds `point` and how far the point is from its edge;
    /// nil when the runs read pass `limit`. First the crossings (a polygon without a width that
    /// the point is outside of is done then), then the nearest edge.
    func test(_ shape: Int, _ point: GeoPoint, work: inout Int, limit: Int, measuringEdge: Bool = true) -> (inside: Bool, edgeMeters: Double)? {
        let isPolygon = kinds[shape] == Shape.Kind.polygon.rawValue
        let width = widths[shape]
        let rings = Int(shapeRings[shape])..<Int(shapeRings[shape + 1])
        work += Int(ringChunks[rings.upperBound]) - Int(ringChunks[rings.lowerBound])
        guard work <= limit else { return nil }
        var inside = false
        if isPolygon {
            inside = contains(shape, point)
            if !inside && width == 0 { return (false, 0) }
            if inside && width == 0 && !measuringEdge { return (true, 0) }
        }
        // Outside, only an edge within the width matters.
        let nearest = nearestEdgeMeters(shape, point, within: inside ? .infinity : width)
        if inside { return (true, nearest + width) }
        return nearest <= width ? (true, width - nearest) : (false, 0)
    }

    /// Whether polygon `shape` holds `point`: an odd count of its edges crossing the ray east
    /// of the point, read only in runs whose latitudes span the point's and that reach east of it.
    func contains(_ shape: Int, _ point: GeoPoint) -> Bool {
        let y = point.latitude * ShapeVertex.perDegree
        let x = point.longitude * ShapeVertex.perDegree
        // Against a run's whole-unit box, the point's units rounded down decide alike.
        let (flooredY, flooredX) = (Int32((y).rounded(.down)), Int32((x).rounded(.down)))
        var crossings = 0
        for ring in Int(shapeRings[shape])..<Int(shapeRings[shape + 1]) {
            for chunk in Int(ringChunks[ring])..<Int(ringChunks[ring + 1]) {
                let box = chunkBoxes[chunk]
                guard box.south <= flooredY, flooredY < box.north, box.east > flooredX else { continue }
                forEachEdge(ring: ring, chunk: chunk, isPolygon: true) { ax, ay, bx, by in
                    if (ay > y) != (by > y), ax + (y - ay) / (by - ay) * (bx - ax) > x { crossings += 1 }
                }
            }
        }
        return crossings % 2 == 1
    }

    /// How far `point` is from the nearest edge of shape `shape` (its rings or paths, not its
    /// width), when that is within `cutoff` meters; infinity otherwise. The runs are read by
    /// how near their boxes are, nearest first, until the next one's box lies beyond the
    /// nearest edge found.
    func nearestEdgeMeters(_ shape: Int, _ point: GeoPoint, within cutoff: Double) -> Double {
        let y = point.latitude * ShapeVertex.perDegree
        let x = point.longitude * ShapeVertex.perDegree
        let (northMeters, eastMeters) = Self.unitMeters(at: point)
        let isPolygon = kinds[shape] == Shape.Kind.polygon.rawValue
        var runs: [(squared: Double, ring: Int, chunk: Int)] = []
        for ring in Int(shapeRings[shape])..<Int(shapeRings[shape + 1]) {
            for chunk in Int(ringChunks[ring])..<Int(ringChunks[ring + 1]) {
                let box = chunkBoxes[chunk]
                let dy = Swift.max(Double(box.south) - y, 0, y - Double(box.north)) * northMeters
                let dx = Swift.max(Double(box.west) - x, 0, x - Double(box.east)) * eastMeters
                let squared = dx * dx + dy * dy
                if squared > cutoff * cutoff { continue }
                runs.append((squared, ring, chunk))
            }
        }
        runs.sort { $0.squared < $1.squared }
        var nearest = Double.infinity
        for run in runs {
            guard run.squared < nearest * nearest else { break }
            forEachEdge(ring: run.ring, chunk: run.chunk, isPolygon: isPolygon) { ax, ay, bx, by in
                nearest = Swift.min(nearest, Self.distance(fromOriginTo: ((ax - x) * eastMeters, (ay - y) * northMeters),
                                                             ((bx - x) * eastMeters, (by - y) * northMeters)))
            }
        }
        return nearest
    }

    /// How far `point` is from the shapes of `owner`: 0 inside one of them, else the meters to
    /// the nearest edge of any (infinity when the owner has none). For a region: how far a
    /// point lies outside it.
    public func meters(from point: GeoPoint, toShapesOf owner: Int) -> Double {
        var nearest = Double.infinity
        for shape in shapes(ownedBy: owner) {
            if kinds[shape] == Shape.Kind.polygon.rawValue, contains(shape, point) { return 0 }
            nearest = Swift.min(nearest, nearestEdgeMeters(shape, point, within: .infinity))
        }
        return nearest
    }

    /// The distance from the origin to the segment from `a` to `b`, in the plane.
    @inline(__always)
    static func distance(fromOriginTo a: (Double, Double), _ b: (Double, Double)) -> Double {
        let (ex, ey) = (b.0 - a.0, b.1 - a.1)
        let lengthSquared = ex * ex + ey * ey
        let t = lengthSquared > 0 ? Swift.min(Swift.max(-(a.0 * ex + a.1 * ey) / lengthSquared, 0), 1) : 0
        let (px, py) = (a.0 + t * ex, a.1 + t * ey)
        return (px * px + py * py).squareRoot()
    }

    /// Shape `shape`'s rings or paths, for drawing it.
    public func rings(of shape: Int) -> [[ShapeVertex]] {
        (Int(shapeRings[shape])..<Int(shapeRings[shape + 1])).map { ring in
            Array(vertices[Int(ringStarts[ring])..<Int(ringStarts[ring + 1])])
        }
    }

    /// The shape owned by `owner`, found by a search of the owners (in ascending order when
    /// built from a table's zones).
    public func shape(ownedBy owner: Int) -> Int? {
        let found = shapes(ownedBy: owner)
        return found.isEmpty ? nil : found.lowerBound
    }

    /// The shapes owned by `owner` (owners in ascending order, a region's parts side by side).
    public func shapes(ownedBy owner: Int) -> Range<Int> {
        func firstAtLeast(_ wanted: Int) -> Int {
            var (low, high) = (0, owners.count)
            while low < high {
                let middle = (low + high) / 2
                if Int(owners[middle]) < wanted { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return firstAtLeast(owner)..<firstAtLeast(owner + 1)
    }
}
