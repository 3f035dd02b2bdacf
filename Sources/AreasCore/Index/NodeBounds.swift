/// The rectangles of a tree's nodes once more, in single precision and one array per edge, so a
/// nearest search bounds the distance to four children in one vector step.
///
/// A nearest search computes a lower bound for every child of every node it opens, over a
/// hundred per query on a million points, so the bound is a large part of its time. Here the
/// edges are stored relative to the centre of the data (so a `Float` resolves them to a few
/// centimetres in Korea), rounded outwards, and every step of the vector arithmetic is padded
/// so the result stays below the true haversine term: a looser bound costs a little pruning,
/// never an answer.
struct NodeBounds: Sendable {
    let south: Column<Float>
    let north: Column<Float>
    let west: Column<Float>
    let east: Column<Float>
    let referenceLatitude: Double
    let referenceLongitude: Double
    /// The largest magnitude of any stored coordinate, which sets their rounding error.
    let magnitude: Float

    /// Node `i` has rectangle `boxes[i]`; coordinates are kept relative to `reference`.
    init(_ boxes: ArraySlice<GeoBox>, reference: GeoPoint) {
        referenceLatitude = reference.latitude
        referenceLongitude = reference.longitude
        var south = [Float](), north = [Float](), west = [Float](), east = [Float]()
        let padded = boxes.count + Self.lanes - 1
        south.reserveCapacity(padded)
        north.reserveCapacity(padded)
        west.reserveCapacity(padded)
        east.reserveCapacity(padded)
        var magnitude: Float = 0
        for box in boxes {
            south.append(Self.below(box.south - reference.latitude))
            north.append(Self.above(box.north - reference.latitude))
            west.append(Self.below(box.west - reference.longitude))
            east.append(Self.above(box.east - reference.longitude))
            magnitude = Swift.max(magnitude, -south[south.count - 1], north[north.count - 1], -west[west.count - 1], east[east.count - 1])
        }
        // Vector loads may run past the last node of a level; give them something to read.
        for _ in boxes.count..<padded {
            south.append(0)
            north.append(0)
            west.append(0)
            east.append(0)
        }
        self.south = Column(south)
        self.north = Column(north)
        self.west = Column(west)
        self.east = Column(east)
        self.magnitude = magnitude
    }

    static let lanes = 4

    /// Bounds from their columns, checked by the caller (`init(reading:count:)`).
    init(south: Column<Float>, north: Column<Float>, west: Column<Float>, east: Column<Float>, reference: GeoPoint, magnitude: Float) {
        self.south = south
        self.north = north
        self.west = west
        self.east = east
        referenceLatitude = reference.latitude
        referenceLongitude = reference.longitude
        self.magnitude = magnitude
    }

    var byteCount: Int { 4 * (south.count + north.count + west.count + east.count) }

    /// A query point in the bounds' own terms.
    struct Origin {
        var latitude: Float
        var longitude: Float
        /// How far any computed gap, in degrees, may fall short of or exceed the true one.
        var slack: Float
        /// cos φ of the query, rounded down and up.
        var cosLatitude: Float
        var cosLatitudeAbove: Float
    }

    func origin(_ origin: DistanceOrigin) -> Origin {
        let latitude = Float(origin.latitude - referenceLatitude)
        let longitude = Float(origin.longitude - referenceLongitude)
        // Each gap is a difference of two rounded values: a few units in the last place of the
        // largest operand cover the stored edges, the query and the subtraction.
        let largest = Swift.max(magnitude, abs(latitude), abs(longitude), 1)
        let cosLatitude = Float(origin.cosLatitude)
        return Origin(latitude: latitude, longitude: longitude, slack: 4 * largest.ulp,
                      cosLatitude: cosLatitude.nextDown, cosLatitudeAbove: cosLatitude.nextUp)
    }

    /// Writes a lower bound of the haversine term from `origin` to each of the `count` nodes
    /// from `first` into `lower[0..<count]`, and when `upper` is given an upper bound of the
    /// term to every point of each node into it (each with up to three padding values after).
    ///
    /// The same arithmetic as `DistanceOrigin.quickHaversineLowerBound` (and, for the upper
    /// bound, sin²x ≤ x² and cos φ ≤ cos φ₀ + |φ − φ₀|), four nodes at a time, each operand
    /// padded by `slack` in the safe direction and the results moved by a relative 1e-5, far
    /// more than single-precision rounding over these dozen operations.
    @inline(__always)
    func bounds(first: Int, count: Int, from origin: Origin, lower: UnsafeMutablePointer<Float>, upper: UnsafeMutablePointer<Float>?) {
        typealias Lanes = SIMD4<Float>
        let zero = Lanes(repeating: 0)
        let latitude = Lanes(repeating: origin.latitude)
        let longitude = Lanes(repeating: origin.longitude)
        let slack = Lanes(repeating: origin.slack)
        let cosLatitude = Lanes(repeating: origin.cosLatitude)
        let cosLatitudeAbove = Lanes(repeating: origin.cosLatitudeAbove)
        // Across the antimeridian the gap is the other way round; 360 is rounded down too.
        let turn = Lanes(repeating: 360 - 1e-3)
        let halfDegree = Lanes(repeating: Float.pi / 360)
        // x²/3 by a multiplication; 1/3 rounds up in single precision, so the bound only falls.
        let third = Lanes(repeating: 1 / 3)
        south.withUnsafeBufferPointer { south in
            north.withUnsafeBufferPointer { north in
                west.withUnsafeBufferPointer { west in
                    east.withUnsafeBufferPointer { east in
                        var i = 0
                        while i < count {
                            let s = Self.load(south, first + i)
                            let n = Self.load(north, first + i)
                            let w = Self.load(west, first + i)
                            let e = Self.load(east, first + i)
                            let latGap = Self.max(Self.max(s - latitude, latitude - n) - slack, zero)
                            let eastward = w - longitude
                            let westward = longitude - e
                            let lonGap = Self.max(Self.max(Self.min(eastward, westward + turn), Self.min(westward, eastward + turn)) - slack, zero)
                            let halfLat = latGap * halfDegree
                            let latTerm = halfLat * halfLat * Self.max(1 - halfLat * halfLat * third, zero)
                            let halfLon = Self.min(lonGap, Lanes(repeating: 180)) * halfDegree
                            let lonTerm = halfLon * halfLon * Self.max(1 - halfLon * halfLon * third, zero)
                            let latSpan = Self.max(n - latitude, latitude - s) + slack
                            let farthest = latSpan * (2 * halfDegree)
                            let cosBound = Self.max(cosLatitude - farthest - 1e-6, zero)
                            let h = (latTerm + cosLatitude * cosBound * lonTerm) * (1 - 1e-5)
                            UnsafeMutableRawPointer(lower + i).storeBytes(of: h, as: Lanes.self)
                            if let upper {
                                // sin²x ≤ x² and cos φ ≤ cos φ₀ + |φ − φ₀|, at the farthest edges.
                                let lonSpan = Self.min(Self.max(e - longitude, longitude - w) + slack, Lanes(repeating: 180))
                                let halfLatSpan = latSpan * halfDegree
                                let halfLonSpan = lonSpan * halfDegree
                                let cosCeiling = Self.min(cosLatitudeAbove + farthest + 1e-6, Lanes(repeating: 1))
                                let ceiling = (halfLatSpan * halfLatSpan + cosLatitudeAbove * cosCeiling * halfLonSpan * halfLonSpan) * (1 + 1e-5)
                                UnsafeMutableRawPointer(upper + i).storeBytes(of: ceiling, as: Lanes.self)
                            }
                            i += Self.lanes
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func load(_ buffer: UnsafeBufferPointer<Float>, _ index: Int) -> SIMD4<Float> {
        UnsafeRawPointer(buffer.baseAddress.unsafelyUnwrapped + index).loadUnaligned(as: SIMD4<Float>.self)
    }

    // The standard library's pointwiseMin/Max are not inlined here; a select is one instruction.
    @inline(__always)
    private static func max(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a.replacing(with: b, where: a .< b) }

    @inline(__always)
    private static func min(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a.replacing(with: b, where: b .< a) }

    /// The largest `Float` at or below `x`.
    private static func below(_ x: Double) -> Float {
        let f = Float(x)
        return Double(f) > x ? f.nextDown : f
    }

    /// The smallest `Float` at or above `x`.
    private static func above(_ x: Double) -> Float {
        let f = Float(x)
        return Double(f) < x ? f.nextUp : f
    }
}
