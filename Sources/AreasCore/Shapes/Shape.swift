/// A geometry a source gives for an area: polygons (each an outer ring and its holes) or lines,
/// in WGS84 degrees, kept to the 1e-7 degree (about a centimeter).
///
/// The same engine holds non-smoking zones' polygons and corridors, administrative regions and
/// crowd hotspots: each is a shape with an owner, tested by `ShapeIndex`.
public struct Shape: Sendable, Hashable {
    public enum Kind: UInt8, Sendable {
        /// Rings: each polygon's outer ring, then its holes. A point is inside when it is inside
        /// an odd number of rings (holes lie inside their outer ring, polygons do not overlap).
        case polygon = 0
        /// Paths: a corridor of `ShapeIndex`'s width on both sides of each.
        case line = 1
    }

    public var kind: Kind
    /// Each polygon's rings (not closed: the first vertex is not repeated) or each path alone
    /// (one-element arrays), as fixed-point vertices.
    public var parts: [[[ShapeVertex]]]

    public init(kind: Kind, parts: [[[ShapeVertex]]]) {
        self.kind = kind
        self.parts = parts
    }

    /// Every ring or path, polygons flattened.
    public var rings: [[ShapeVertex]] { parts.flatMap { $0 } }

    public var vertexCount: Int { parts.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } } }

    /// The box around every vertex.
    public var box: GeoBox {
        var box = GeoBox.empty
        for ring in rings { for vertex in ring { box.extend(vertex.point) } }
        return box
    }
}

/// A vertex in fixed point: 1e-7 degrees, exact in `Int32` over the whole globe.
public struct ShapeVertex: Sendable, Hashable, BitwiseCopyable {
    public var latitude: Int32
    public var longitude: Int32

    public static let perDegree = 10_000_000.0

    public init(latitude: Int32, longitude: Int32) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The vertex nearest `point` (the caller has checked the point is valid).
    public init(_ point: GeoPoint) {
        latitude = Int32((point.latitude * Self.perDegree).rounded())
        longitude = Int32((point.longitude * Self.perDegree).rounded())
    }

    public var point: GeoPoint {
        GeoPoint(uncheckedLatitude: Double(latitude) / Self.perDegree, longitude: Double(longitude) / Self.perDegree)
    }
}

extension GeoBox {
    package mutating func extend(_ box: GeoBox) {
        south = Swift.min(south, box.south)
        north = Swift.max(north, box.north)
        west = Swift.min(west, box.west)
        east = Swift.max(east, box.east)
    }

    package mutating func extend(_ point: GeoPoint) {
        south = Swift.min(south, point.latitude)
        north = Swift.max(north, point.latitude)
        west = Swift.min(west, point.longitude)
        east = Swift.max(east, point.longitude)
    }
}

extension Shape {
    /// The shape drawn with at most `budget` vertices, for a picture of it (an answer's map):
    /// each ring or path keeps its share of the budget, every n-th vertex of it, its first
    /// always (and a path its last). Nil when the budget cannot hold three vertices a ring and
    /// two a path.
    public func decimated(toAtMost budget: Int) -> Shape? {
        let total = vertexCount
        guard total > budget else { return self }
        let minimum = kind == .polygon ? 3 : 2
        let rings = parts.reduce(0) { $0 + $1.count }
        guard budget >= minimum * rings else { return nil }
        let decimatedParts = parts.map { part in
            part.map { ring -> [ShapeVertex] in
                let share = Swift.max(minimum, ring.count * budget / total)
                guard ring.count > share else { return ring }
                let step = (ring.count + share - 1) / share
                var kept = stride(from: 0, to: ring.count, by: step).map { ring[$0] }
                if kind == .line, kept.last != ring.last, let last = ring.last { kept[kept.count - 1] = last }
                return kept
            }
        }
        return Shape(kind: kind, parts: decimatedParts)
    }
}
