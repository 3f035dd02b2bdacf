/// Why a coordinate, distance or box given to a query was refused, or the query itself as more
/// work than one request may cost.
public enum GeoError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidLatitude(Double)
    case invalidLongitude(Double)
    case invalidDistance(Double)
    case invalidCount(Int)
    case invertedBox(south: Double, north: Double)
    case wrappedBox(west: Double, east: Double)
    /// The query would do more work than a request may; the text says what to narrow.
    case tooExpensive(String)

    public var description: String {
        switch self {
        case .invalidLatitude(let value):
            return "latitude must be a finite number between -90 and 90 degrees, got \(value)"
        case .invalidLongitude(let value):
            return "longitude must be a finite number between -180 and 180 degrees, got \(value)"
        case .invalidDistance(let value):
            return "distance must be a finite number of meters, 0 or more, got \(value)"
        case .invalidCount(let value):
            return "count must be 0 or more, got \(value)"
        case .invertedBox(let south, let north):
            return "south (\(south)) must not be above north (\(north))"
        case .wrappedBox(let west, let east):
            return "west (\(west)) must not be east of east (\(east)); boxes across the antimeridian are not supported"
        case .tooExpensive(let reason):
            return reason
        }
    }
}
