import AreasCore

/// Turns one upstream record into an area, or says why it cannot.
///
/// Coordinates are trimmed and parsed; empty, non-numeric, zero, non-finite or out-of-bounds
/// ones reject the record. A record whose latitude and longitude were swapped upstream, and
/// that lands inside the bounds once swapped back, is repaired.
public struct RecordValidator: Sendable {
    public let source: SourceConfig
    public let bounds: GeoBox

    public init(source: SourceConfig, bounds: GeoBox) {
        self.source = source
        self.bounds = bounds
    }

    public enum Rejection: String, Sendable, Hashable, CaseIterable {
        case missingName = "missing name"
        case missingCoordinates = "missing coordinates"
        case nonNumericCoordinates = "non-numeric coordinates"
        case zeroCoordinates = "zero coordinates"
        case outOfBounds = "out of bounds"
    }

    public enum Outcome: Sendable {
        case accepted(Area, repaired: Bool)
        case rejected(Rejection)
    }

    public func validate(_ fields: [Field]) -> Outcome {
        let mapping = source.fields
        func value(_ key: String?) -> String {
            guard let key else { return "" }
            return fields.first(where: { $0.key == key })?.value.trimmed ?? ""
        }
        let name = value(mapping.name)
        guard !name.isEmpty else { return .rejected(.missingName) }
        let latText = value(mapping.latitude)
        let lonText = value(mapping.longitude)
        guard !latText.isEmpty, !lonText.isEmpty else { return .rejected(.missingCoordinates) }
        guard let lat = Double(latText), let lon = Double(lonText), lat.isFinite, lon.isFinite else {
            return .rejected(.nonNumericCoordinates)
        }
        guard lat != 0, lon != 0 else { return .rejected(.zeroCoordinates) }
        var coordinate: GeoPoint
        var repaired = false
        if let point = try? GeoPoint(latitude: lat, longitude: lon), bounds.contains(point) {
            coordinate = point
        } else if let swapped = try? GeoPoint(latitude: lon, longitude: lat), bounds.contains(swapped) {
            coordinate = swapped
            repaired = true
        } else {
            return .rejected(.outOfBounds)
        }
        let province = value(mapping.province)
        let area = Area(
            id: Self.id(source: source.name, name: name, coordinate: coordinate),
            kind: source.kind,
            name: name,
            coordinate: coordinate,
            roadAddress: value(mapping.address),
            lotAddress: value(mapping.lotAddress),
            province: province.isEmpty ? (source.province ?? "") : province,
            district: value(mapping.district),
            source: source.name,
            fields: fields)
        return .accepted(area, repaired: repaired)
    }

    /// The identity of a record: its name and its position to 1e-6 degrees (about 10 cm).
    /// Two records equal in both are duplicates.
    static func identity(name: String, coordinate: GeoPoint) -> String {
        let lat = Int64((coordinate.latitude * 1e6).rounded())
        let lon = Int64((coordinate.longitude * 1e6).rounded())
        return "\(name)\u{1F}\(lat)\u{1F}\(lon)"
    }

    /// A stable id: the source name and a 64-bit FNV-1a hash of the record's identity, so it
    /// survives refreshes and does not depend on page order.
    public static func id(source: String, name: String, coordinate: GeoPoint) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in identity(name: name, coordinate: coordinate).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return "\(source):" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
