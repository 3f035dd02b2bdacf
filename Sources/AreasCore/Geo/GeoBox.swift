/// A latitude/longitude rectangle in degrees, edges inclusive. It never crosses the antimeridian.
public struct GeoBox: Sendable, Hashable, BitwiseCopyable {
    public var south: Double
    public var west: Double
    public var north: Double
    public var east: Double

    /// Validates the corners: each a valid coordinate, south <= north and west <= east.
    public init(south: Double, west: Double, north: Double, east: Double) throws(GeoError) {
        _ = try GeoPoint(latitude: south, longitude: west)
        _ = try GeoPoint(latitude: north, longitude: east)
        guard south <= north else { throw .invertedBox(south: south, north: north) }
        guard west <= east else { throw .wrappedBox(west: west, east: east) }
        self.init(uncheckedSouth: south, west: west, north: north, east: east)
    }

    @usableFromInline package init(uncheckedSouth south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// Latitude 33 to 39, longitude 124 to 132: South Korea with its islands, the default
    /// `bounds` a record's position must lie in.
    public static let korea = GeoBox(uncheckedSouth: 33, west: 124, north: 39, east: 132)

    /// The zero-size box at a point.
    @inlinable
    public init(_ point: GeoPoint) {
        self.init(uncheckedSouth: point.latitude, west: point.longitude, north: point.latitude, east: point.longitude)
    }

    /// A box that holds nothing; the identity for `union`.
    @usableFromInline
    package static let empty = GeoBox(uncheckedSouth: .infinity, west: .infinity, north: -.infinity, east: -.infinity)

    /// Edges inclusive. All four comparisons at once, without branches: the searches test every
    /// child of every node they open, and whether one overlaps is a coin toss for the predictor.
    @inlinable
    public func intersects(_ other: GeoBox) -> Bool {
        let low = SIMD4(south, west, other.south, other.west)
        let high = SIMD4(other.north, other.east, north, east)
        return all(low .<= high)
    }

    @inlinable
    /// Whether `other` lies wholly inside, edges inclusive.
    public func contains(_ other: GeoBox) -> Bool {
        other.south >= south && other.north <= north && other.west >= west && other.east <= east
    }

    public func contains(_ point: GeoPoint) -> Bool {
        point.latitude >= south && point.latitude <= north
            && point.longitude >= west && point.longitude <= east
    }

    @inlinable
    func union(_ other: GeoBox) -> GeoBox {
        GeoBox(
            uncheckedSouth: Swift.min(south, other.south), west: Swift.min(west, other.west),
            north: Swift.max(north, other.north), east: Swift.max(east, other.east))
    }

    /// Whether the box has no size: one point.
    @inlinable
    var isPoint: Bool { south == north && west == east }
}
