/// The members a request may have besides `op`. The request parser reads them by this key,
/// `RequestOperation.fields` lists each operation's, and the HTTP router and areasctl write them by it.
public enum RequestField: Int, CaseIterable, Sendable {
    case lat, lon, k, maxMeters, kind, province, district, output, meters, limit
    case south, west, north, east, path, id, wait, force, zoom, previous, q, since, cursor

    /// The member's name on the wire (and the HTTP parameter's).
    public var name: String { Self.names[rawValue] }

    /// The field a member or parameter name stands for.
    public init?(name: String) {
        guard let index = Self.names.firstIndex(of: name) else { return nil }
        self.init(rawValue: index)
    }

    static let count = allCases.count
    static let names = allCases.map { String(describing: $0) }
    /// Names as bytes, to match member names without making strings.
    static let utf8Names: [[UInt8]] = names.map { Array($0.utf8) }
}
