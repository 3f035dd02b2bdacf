import AreasCore

/// Typed access to a request's members, each error naming the field.
struct Fields {
    /// A member a request may have: `op` or one of the fields. Any other is ignored.
    enum Key {
        case op
        case field(RequestField)

        /// The member's slot: `op` first, then the fields in their order.
        var slot: Int {
            switch self {
            case .op: return 0
            case .field(let field): return field.rawValue + 1
            }
        }

        var name: String {
            switch self {
            case .op: return "op"
            case .field(let field): return field.name
            }
        }

        static let count = RequestField.count + 1
        static let opName = Array("op".utf8)

        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            if Key.opName.withUnsafeBufferPointer({ $0.sameBytes(as: bytes) }) {
                self = .op
            } else if let field = Fields.position(of: bytes, in: RequestField.utf8Names).flatMap(RequestField.init(rawValue:)) {
                self = .field(field)
            } else {
                return nil
            }
        }
    }

    /// Where `bytes` stands in `names`, compared in place: member names and `op` make no `String`.
    static func position(of bytes: UnsafeBufferPointer<UInt8>, in names: [[UInt8]]) -> Int? {
        names.firstIndex { name in name.count == bytes.count && name.withUnsafeBufferPointer { $0.sameBytes(as: bytes) } }
    }

    /// A member's value as read: plain text and numbers in place, anything else parsed
    /// into `others`. Plain data, so the slots need no clean-up.
    enum Slot {
        case absent
        case text(UnsafeBufferPointer<UInt8>)
        case number(Double)
        case other(Int)
    }

    /// One slot per key, in `Key` order, in memory the caller lends: a fixed-size array held
    /// inline would be copied whole on every read of one element.
    private let values: UnsafeMutableBufferPointer<Slot>
    /// Values other than plain text and numbers: true, false, null, arrays, objects, escaped text.
    private var others: [JSONValue] = []

    init(slots: UnsafeMutableBufferPointer<Slot>) {
        precondition(slots.count == Key.count, "one slot per key")
        values = slots
    }

    /// Keeps the member if it is one a request may have; a repeated one replaces the earlier.
    mutating func set(_ name: UnsafeBufferPointer<UInt8>, _ member: JSONParser.Member) {
        guard let key = Key(name) else { return }
        switch member {
        case .text(let bytes):
            values[key.slot] = .text(bytes)
        case .value(.number(let number)):
            values[key.slot] = .number(number)
        case .value(let value):
            values[key.slot] = .other(others.count)
            others.append(value)
        }
    }

    /// Sets a field to a value made elsewhere (an HTTP parameter's).
    mutating func set(_ field: RequestField, _ value: JSONValue) {
        if case .number(let number) = value {
            values[Key.field(field).slot] = .number(number)
        } else {
            values[Key.field(field).slot] = .other(others.count)
            others.append(value)
        }
    }

    /// The operation `op` names, `nil` when there is no `op`.
    func operation() throws(RequestError) -> RequestOperation? {
        if case .text(let bytes) = values[Key.op.slot] {
            if let operation = Fields.position(of: bytes, in: RequestOperation.utf8Names).flatMap({ RequestOperation(rawValue: $0) }) { return operation }
            throw RequestOperation.unknown(String(decoding: bytes, as: UTF8.self))
        }
        switch find(slot: Key.op.slot) {
        case nil, .null?: return nil
        case .string(let name)?: return try RequestOperation.named(name)
        case let other?: throw RequestError(.badRequest, "op must be a string, got \(other.typeName)")
        }
    }

    func find(_ key: RequestField) -> JSONValue? { find(slot: Key.field(key).slot) }

    private func find(slot: Int) -> JSONValue? {
        switch values[slot] {
        case .absent: return nil
        case .text(let bytes): return .string(String(decoding: bytes, as: UTF8.self))
        case .number(let number): return .number(number)
        case .other(let index): return others[index]
        }
    }

    func string(_ key: RequestField) throws(RequestError) -> String? {
        var name: String { key.name }
        switch find(key) {
        case nil, .null?: return nil
        case .string(let s)?: return s
        case let other?: throw RequestError(.badRequest, "\(name) must be a string, got \(other.typeName)")
        }
    }

    /// A string member that must be one of `T`'s raw values, matched in place: the common
    /// words of a request (op, output, kind) make no `String`.
    func word<T: CaseIterable & RawRepresentable<String>>(_ key: RequestField, _ type: T.Type, otherwise: (String) -> RequestError) throws(RequestError) -> T? {
        if case .text(let bytes) = values[Key.field(key).slot] {
            if let match = T.allCases.first(where: { word in
                var raw = word.rawValue
                return raw.withUTF8 { $0.sameBytes(as: bytes) }
            }) {
                return match
            }
            throw otherwise(String(decoding: bytes, as: UTF8.self))
        }
        guard let text = try string(key) else { return nil }
        guard let match = T(rawValue: text) else { throw otherwise(text) }
        return match
    }

    func number(_ key: RequestField) throws(RequestError) -> Double? {
        var name: String { key.name }
        switch find(key) {
        case nil, .null?: return nil
        case .number(let n)?:
            guard n.isFinite else { throw RequestError(.badRequest, "\(name) must be a finite number") }
            return n
        case let other?: throw RequestError(.badRequest, "\(name) must be a number, got \(other.typeName)")
        }
    }

    func bool(_ key: RequestField) throws(RequestError) -> Bool? {
        var name: String { key.name }
        switch find(key) {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        case let other?: throw RequestError(.badRequest, "\(name) must be true or false, got \(other.typeName)")
        }
    }

    func coordinate(_ key: RequestField, range: ClosedRange<Double>) throws(RequestError) -> Double {
        var name: String { key.name }
        // Spelled out only for an error: formatting it costs more than parsing the request.
        var bounds: String { "a number between \(Int(range.lowerBound)) and \(Int(range.upperBound))" }
        let value: Double?
        do throws(RequestError) {
            value = try number(key)
        } catch {
            throw RequestError(.badRequest, "\(name) must be \(bounds)")
        }
        guard let value else { throw RequestError(.badRequest, "\(name) is missing: it must be \(bounds)") }
        guard range.contains(value) else { throw RequestError(.badRequest, "\(name) must be \(bounds), got \(value)") }
        return value
    }

    func point() throws(RequestError) -> GeoPoint {
        let lat = try coordinate(.lat, range: -90...90)
        let lon = try coordinate(.lon, range: -180...180)
        return GeoPoint(uncheckedLatitude: lat, longitude: lon)
    }

    /// Where the question is asked from: `lat` and `lon`, or `q`, a name to find (not both).
    func position() throws(RequestError) -> QueryPosition {
        guard find(.q) != nil else { return .point(try point()) }
        guard !hasPoint() else { throw RequestError(.badRequest, "give lat and lon, or q (a name to find), not both") }
        return .named(try searchText())
    }

    /// Whether the request gives a position (`lat` or `lon`), which then must be whole.
    func hasPoint() -> Bool { find(.lat) != nil || find(.lon) != nil }
    func hasBox() -> Bool { find(.south) != nil || find(.west) != nil || find(.north) != nil || find(.east) != nil }

    /// `q`: a search's text, with a letter or digit, short, and without control characters.
    func searchText() throws(RequestError) -> String {
        guard let text = try string(.q), !text.allSatisfy(\.isWhitespace) else {
            throw RequestError(.badRequest, "q is missing: give the words to search for, as in q=서울역 흡연")
        }
        guard text.utf8.count <= Request.maximumSearchBytes else {
            throw RequestError(.badRequest, "q is \(text.utf8.count) bytes; a search is at most \(Request.maximumSearchBytes)")
        }
        if let control = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }) {
            throw RequestError(.badRequest, "q has a control character (U+\(String(control.value, radix: 16, uppercase: true))): give words only")
        }
        guard !SearchText.words(of: text).isEmpty else {
            throw RequestError(.badRequest, "q has no letter or digit: search needs a word of a name or address")
        }
        return text
    }

    /// `south`, `west`, `north`, `east`: a box of at least a point.
    func box() throws(RequestError) -> GeoBox {
        let south = try coordinate(.south, range: -90...90)
        let west = try coordinate(.west, range: -180...180)
        let north = try coordinate(.north, range: -90...90)
        let east = try coordinate(.east, range: -180...180)
        guard south <= north else { throw RequestError(.badRequest, "south (\(south)) must not be above north (\(north))") }
        guard west <= east else { throw RequestError(.badRequest, "west (\(west)) must not be east of east (\(east))") }
        return GeoBox(uncheckedSouth: south, west: west, north: north, east: east)
    }

    /// `previous`: `{"lat": .., "lon": ..}` (the socket) or `[lat, lon]`; nil when absent.
    func previous() throws(RequestError) -> GeoPoint? {
        let shape = "previous must be {\"lat\": LAT, \"lon\": LON} or LAT,LON, with lat between -90 and 90 and lon between -180 and 180"
        switch find(.previous) {
        case nil, .null?:
            return nil
        case .object(let members)?:
            guard case .number(let lat)? = members.last(where: { $0.0 == "lat" })?.1,
                  case .number(let lon)? = members.last(where: { $0.0 == "lon" })?.1,
                  let point = try? GeoPoint(latitude: lat, longitude: lon) else { throw RequestError(.badRequest, shape) }
            return point
        case .array(let pair)? where pair.count == 2:
            guard case .number(let lat) = pair[0], case .number(let lon) = pair[1],
                  let point = try? GeoPoint(latitude: lat, longitude: lon) else { throw RequestError(.badRequest, shape) }
            return point
        case let other?:
            throw RequestError(.badRequest, shape + ", got \(other.typeName)")
        }
    }

    func distance(_ key: RequestField) throws(RequestError) -> Double? {
        guard let value = try number(key) else { return nil }
        var name: String { key.name }
        guard value >= 0, value <= Request.maximumMeters else {
            throw RequestError(.badRequest, "\(name) must be a number of meters from 0 to \(Int(Request.maximumMeters)), got \(value)")
        }
        return value
    }

    func integer(_ key: RequestField, in range: ClosedRange<Int>) throws(RequestError) -> Int? {
        guard let value = try number(key) else { return nil }
        var name: String { key.name }
        guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw RequestError(.badRequest, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(value)")
        }
        return Int(value)
    }

    /// `limit`: how many areas at most, any count a request can hold.
    func limit() throws(RequestError) -> Int? { try integer(.limit, in: 0...Int(Int32.max)) }

    func region() throws(RequestError) -> Region {
        let province = try string(.province)
        let district = try string(.district)
        if province?.isEmpty == true { throw RequestError(.badRequest, "province must not be empty") }
        if district?.isEmpty == true { throw RequestError(.badRequest, "district must not be empty") }
        return Region(province: province, district: district)
    }

    func path() throws(RequestError) -> [GeoPoint] {
        guard let value = find(.path) else { throw RequestError(.badRequest, "path is missing: give [[lat, lon], ...]") }
        guard case .array(let items) = value else { throw RequestError(.badRequest, "path must be an array of [lat, lon] pairs, got \(value.typeName)") }
        guard !items.isEmpty, items.count <= Request.maximumPathPoints else {
            throw RequestError(.badRequest, "path must have 1 to \(Request.maximumPathPoints) points, got \(items.count)")
        }
        var points: [GeoPoint] = []
        points.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard case .array(let pair) = item, pair.count == 2, case .number(let lat) = pair[0], case .number(let lon) = pair[1] else {
                throw RequestError(.badRequest, "path[\(i)] must be [lat, lon], two numbers")
            }
            guard let point = try? GeoPoint(latitude: lat, longitude: lon) else {
                throw RequestError(.badRequest, "path[\(i)] must have lat between -90 and 90 and lon between -180 and 180, got [\(lat), \(lon)]")
            }
            points.append(point)
        }
        return points
    }

    func kind() throws(RequestError) -> KindFilter {
        try word(.kind, KindFilter.self) { RequestError(.badRequest, "kind must be smoking, nonsmoking or all, got '\($0)'") } ?? .all
    }

    func output() throws(RequestError) -> OutputMode {
        try word(.output, OutputMode.self) { RequestError(.badRequest, "output must be full, ids or count, got '\($0)'") } ?? .full
    }
}
