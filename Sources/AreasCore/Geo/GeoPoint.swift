/// A WGS84 position in degrees. Always valid once constructed through `init(latitude:longitude:)`.
public struct GeoPoint: Sendable, Hashable, BitwiseCopyable {
    public let latitude: Double
    public let longitude: Double

    /// Validates both coordinates: finite, latitude in [-90, 90], longitude in [-180, 180].
    public init(latitude: Double, longitude: Double) throws(GeoError) {
        guard latitude.isFinite, (-90.0...90.0).contains(latitude) else {
            throw .invalidLatitude(latitude)
        }
        guard longitude.isFinite, (-180.0...180.0).contains(longitude) else {
            throw .invalidLongitude(longitude)
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// For coordinates already known to be valid (generated, or read back from our own snapshot).
    @usableFromInline package init(uncheckedLatitude latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    private enum CodingKeys: String, CodingKey { case latitude, longitude }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            latitude: container.decode(Double.self, forKey: .latitude),
            longitude: container.decode(Double.self, forKey: .longitude)
        )
    }
}
