import AreasCore

/// Turns one upstream record into an area, or says why it cannot.
///
/// Coordinates are trimmed and parsed; empty, non-numeric, zero or out-of-bounds ones reject
/// the record, or leave it to the geocoder when the source has one. A record whose latitude and longitude were swapped upstream, and
/// that lands inside the bounds once swapped back, is repaired.
package struct RecordValidator: Sendable {
    package let source: SourceConfig
    package let bounds: GeoBox
    /// `fields.name` when it joins columns (`{설치위치} {설치위치 상세}`).
    private let nameTemplate: GeocodeTemplate?

    package init(source: SourceConfig, bounds: GeoBox) {
        self.source = source
        self.bounds = bounds
        self.nameTemplate = source.fields.nameTemplate
    }

    package enum Rejection: String, Error, Sendable, Hashable, CaseIterable {
        case missingName = "missing name"
        case missingCoordinates = "missing coordinates"
        case nonNumericCoordinates = "non-numeric coordinates"
        case zeroCoordinates = "zero coordinates"
        case outOfBounds = "out of bounds"
        /// Neither the geocoder nor the positions file knows the row's address or place.
        case notFound = "not found by the geocoder"
        /// The geocoder could not be asked (down, refusing the key, or this refresh's budget
        /// spent) and has never placed the row before.
        case geocoderUnavailable = "geocoder unavailable"
        /// No geocoder is configured, and the operator's positions file does not place the row.
        case notInPositionsFile = "not in the positions file"
        // A GeoJSON feature's geometry (`GeoJSONDecoder`).
        case noGeometry = "no usable geometry"
        case notFinite = "a coordinate that is not a finite number"
        case outsideTheGlobe = "a coordinate off the globe"
        case ringNotClosed = "a ring that is not closed"
        case tooFewPositions = "a ring or line of too few positions"
        case tooManyVertices = "more than 100000 vertices"
        /// Repaired, its rings still crossed (rare: positions rounded to the centimetre).
        case crossesItself = "a ring that crosses itself beyond repair"
        case tooComplexToCheck = "a ring too complex to check"
        case holeOutsideShell = "a hole outside its shell"
        case noArea = "a polygon that encloses no area"
        case tooWide = "a zone's shape wider than 20 km"
    }

    /// A row with a name but no usable position, for a source that geocodes such rows.
    package struct Unplaced: Sendable {
        package var name: String
        package var fields: [Field]
        /// The address-search question, from the source's `geocode.query`.
        package var query: String
        /// The place-search question, asked when address search finds nothing.
        package var keyword: String?
        /// Why the published position could not be used.
        package var reason: Rejection
    }

    package enum Outcome: Sendable {
        case accepted(Area, repaired: Bool)
        case rejected(Rejection)
        case unplaced(Unplaced)
    }

    /// Whether a row's polygon touched or crossed itself and was repaired (`PolygonRepair`).
    package static func hasRepairedShape(_ fields: [Field]) -> Bool {
        fields.contains { $0.key == GeoJSONDecoder.repairedKey }
    }

    /// The trimmed value of column `key` of a row; empty when the row has no such column.
    static func cell(_ key: String?, of fields: [Field]) -> String {
        guard let key else { return "" }
        return fields.first(where: { $0.key == key })?.value.trimmed ?? ""
    }

    package func validate(_ fields: [Field]) -> Outcome {
        let mapping = source.fields
        func value(_ key: String?) -> String { Self.cell(key, of: fields) }
        if let reason = fields.last(where: { $0.key == GeoJSONDecoder.rejectionKey }).flatMap({ Rejection(rawValue: $0.value) }) {
            return .rejected(reason)
        }
        let name = nameTemplate.map { $0.render(value) } ?? value(mapping.name)
        guard !name.isEmpty else { return .rejected(.missingName) }
        if let shape = fields.last(where: { $0.key == ShapeText.fieldKey }).flatMap({ ShapeText.decode($0.value) }),
           source.kind == .nonsmoking, Self.isTooWide(shape) {
            return .rejected(.tooWide)
        }
        switch Self.position(of: fields, mapping, in: bounds) {
        case .success(let (coordinate, repaired)):
            return .accepted(area(name: name, coordinate: coordinate, fields: fields, geocoded: false),
                             repaired: repaired || (source.format == .geojson && Self.hasRepairedShape(fields)))
        case .failure(let rejection):
            guard let geocode = source.geocode else { return .rejected(rejection) }
            // The province and district alone would find the district's centre: a question
            // with nothing else in it is an empty one.
            let region = [mapping.province, mapping.district].compactMap { $0 }
            func question(_ template: GeocodeTemplate) -> String {
                template.columns.allSatisfy { region.contains($0) || value($0).isEmpty } ? "" : template.render(value)
            }
            return .unplaced(Unplaced(
                name: name, fields: fields, query: question(geocode.query),
                keyword: geocode.keyword.map(question), reason: rejection))
        }
    }

    /// The row's published position, when usable. A source whose `latitude` and `longitude`
    /// name one column has both numbers in each cell (`37.5012, 127.0396`).
    static func position(of fields: [Field], _ mapping: FieldMapping, in bounds: GeoBox) -> Result<(GeoPoint, repaired: Bool), Rejection> {
        let latitude = cell(mapping.latitude, of: fields)
        guard mapping.latitude != nil, mapping.latitude == mapping.longitude else {
            return position(latitude: latitude, longitude: cell(mapping.longitude, of: fields), in: bounds)
        }
        guard !latitude.isEmpty else { return .failure(.missingCoordinates) }
        guard let (first, second) = CoordinatePair.split(latitude) else { return .failure(.nonNumericCoordinates) }
        return position(latitude: first, longitude: second, in: bounds)
    }

    /// A published position, when it is usable: both texts whole decimal numbers (no exponent,
    /// no stray characters such as the `?` some files end a latitude with), neither zero, and
    /// inside the bounds, or inside them once swapped back (then `repaired`).
    static func position(latitude latText: String, longitude lonText: String, in bounds: GeoBox) -> Result<(GeoPoint, repaired: Bool), Rejection> {
        guard !latText.isEmpty, !lonText.isEmpty else { return .failure(.missingCoordinates) }
        guard let lat = Self.decimal(latText), let lon = Self.decimal(lonText) else {
            return .failure(.nonNumericCoordinates)
        }
        guard lat != 0, lon != 0 else { return .failure(.zeroCoordinates) }
        if let point = try? GeoPoint(latitude: lat, longitude: lon), bounds.contains(point) {
            return .success((point, false))
        }
        if let swapped = try? GeoPoint(latitude: lon, longitude: lat), bounds.contains(swapped) {
            return .success((swapped, true))
        }
        return .failure(.outOfBounds)
    }

    /// The most a record keeps of what its row published: no data set of places needs more,
    /// and a file that sends more (a 30 MB cell, a million columns) would otherwise be stored,
    /// kept in every snapshot and sent whole in every `get`.
    package static let maximumFieldBytes = 4_096
    package static let maximumFields = 256

    /// `fields` as a record keeps them: at most `maximumFields`, each value cut to
    /// `maximumFieldBytes` (at a character's end, with "…"); its shape whole (bounded by
    /// `ShapeLimits`), and not the position a decoder read from it.
    static func kept(_ fields: [Field]) -> [Field] {
        var fields = fields
        var shape: Field?
        if fields.contains(where: { $0.key.utf8.first == 1 }) {
            shape = fields.last { $0.key == ShapeText.fieldKey }
            fields.removeAll { $0.key.utf8.first == 1 }
        }
        var few = fields.count > maximumFields ? Array(fields.prefix(maximumFields)) : fields
        if few.contains(where: { $0.value.utf8.count > maximumFieldBytes || $0.key.utf8.count > maximumFieldBytes }) {
            few = few.map { Field(cut($0.key), cut($0.value)) }
        }
        return few + (shape.map { [$0] } ?? [])
    }

    /// A zone's shape wider than any facility: a polygon around a district or the whole country
    /// is no zone a person can be told they are in.
    static let widestZoneMeters = 20_000.0

    static func isTooWide(_ shape: Shape) -> Bool {
        let box = shape.box
        let south = GeoPoint(uncheckedLatitude: box.south, longitude: box.west)
        return Geodesy.distance(south, GeoPoint(uncheckedLatitude: box.north, longitude: box.west)) > widestZoneMeters
            || Geodesy.distance(south, GeoPoint(uncheckedLatitude: box.south, longitude: box.east)) > widestZoneMeters
    }

    static func cut(_ text: String) -> String {
        guard text.utf8.count > maximumFieldBytes else { return text }
        let utf8 = text.utf8
        var end = utf8.index(utf8.startIndex, offsetBy: maximumFieldBytes - 3)
        // Back to the start of a character's bytes (continuation bytes are 10xxxxxx).
        while end > utf8.startIndex && utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return String(decoding: utf8[..<end], as: UTF8.self) + "…"
    }

    /// The area for a row named `name` at `coordinate`.
    package func area(name: String, coordinate: GeoPoint, fields published: [Field], geocoded: Bool) -> Area {
        let mapping = source.fields
        let fields = Self.kept(published)
        func value(_ key: String?) -> String { Self.cut(Self.cell(key, of: published)) }
        let province = value(mapping.province)
        let district = value(mapping.district)
        return Area(
            id: Self.id(source: source.name, name: name, coordinate: coordinate),
            kind: source.kind,
            name: name,
            coordinate: coordinate,
            roadAddress: value(mapping.address),
            lotAddress: value(mapping.lotAddress),
            province: province.isEmpty ? (source.province ?? "") : province,
            district: district.isEmpty ? (source.district ?? "") : Self.districtName(district),
            source: source.name,
            fields: fields,
            geocoded: geocoded,
            referenceDate: ReferenceDate(parsing: value(mapping.referenceDateColumn)))
    }

    /// Whether a row states a reference date that is not a date (counted, and left out).
    package func hasUnreadableReferenceDate(_ area: Area) -> Bool {
        area.referenceDate == nil && !Self.cell(source.fields.referenceDateColumn, of: area.fields).isEmpty
    }

    /// A district as people name it: some files give the district office (`서초구청`) for the
    /// district (`서초구`).
    static func districtName(_ text: String) -> String {
        guard text.hasSuffix("청"), text.count > 2 else { return text }
        let office = text.dropLast()
        guard let last = office.last, "구시군".contains(last) else { return text }
        return String(office)
    }

    /// A decimal number as the data sets write one: an optional sign, digits and an optional
    /// fraction; no exponent, no `inf`, no hex, nothing after it.
    static func decimal(_ text: String) -> Double? {
        var digits = 0
        var sawPoint = false
        for (i, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): if sawPoint { return nil } else { sawPoint = true }
            case UInt8(ascii: "-"), UInt8(ascii: "+"): if i != 0 { return nil }
            default: return nil
            }
        }
        guard digits > 0 else { return nil }
        return Double(text)
    }

    /// The identity of a record: its name and its position to 1e-6 degrees (about 10 cm).
    static func identity(name: String, coordinate: GeoPoint) -> String {
        let lat = Int64((coordinate.latitude * 1e6).rounded())
        let lon = Int64((coordinate.longitude * 1e6).rounded())
        return "\(name)\u{1F}\(lat)\u{1F}\(lon)"
    }

    /// A stable id: the source name and a 64-bit FNV-1a hash of the record's identity, so it
    /// survives refreshes and does not depend on page order. `place`: for a place that shares
    /// its name and position with an earlier one of its source and is another place (another
    /// footprint, another booth's address: `SourceRows.placeKey`), that key, so it has an id
    /// of its own on every refresh.
    package static func id(source: String, name: String, coordinate: GeoPoint, place: UInt64? = nil) -> String {
        var hash = FNV1a()
        hash.add(identity(name: name, coordinate: coordinate).utf8)
        if let place { withUnsafeBytes(of: place.littleEndian) { hash.add($0) } }
        let hex = String(hash.value, radix: 16)
        return "\(source):" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// What keeps a source's rows apart (`SourceRows`): rows with one name at one position
    /// are one area when they state one place (footprint, a smoking area's address), each of
    /// them a record of it; another place there is another area, with an id of its own; the
    /// same row again, equal in every column, is dropped.
    ///
    /// Most ids are met once: a row is only looked at closely when a later row shares its id,
    /// and then the earlier row's keys are asked for (`firstRow`: the caller reads the row back,
    /// or keeps its keys), so the common row costs one lookup.
    ///
    /// An id comes numbered by the caller's arena (`StringArena.Builder.number(of:)`): a
    /// refresh numbers it in the arena its table's text goes into anyway, so the ids are not
    /// kept a second time while the source comes in.
    package struct Rows: Sendable {
        private let footprint: FootprintPolicy
        /// Which admitted row first had the id numbered `n` (`noRow`: none yet; the arena
        /// numbers other text too).
        private var firstRows: [UInt32] = []
        private static let noRow = UInt32.max
        private var emptyIDRow: UInt32?
        /// Rows admitted so far: the next one's number.
        private var admitted: UInt32 = 0
        /// Ids shared by more than one row: their places in the order met, and the rows seen.
        private var shared: [Int: Bucket] = [:]

        private struct Bucket {
            var places: [UInt64: Int]
            var rows: Set<UInt64>
        }

        package init(footprint: FootprintPolicy) {
            self.footprint = footprint
        }

        /// What tells a row's place and the row itself apart (`SourceRows`).
        package static func keys(of area: Area, footprint: FootprintPolicy) -> (place: UInt64, row: UInt64) {
            (SourceRows.placeKey(of: area, footprint: footprint), SourceRows.rowKey(of: area))
        }

        /// `area` to keep, its id made its place's (another place at its name and position) or
        /// its row's (another row of a place met before); nil for the same row again.
        /// `idNumber` is the number of `area.id` in an arena that numbers every id this is given
        /// (0 for the empty id). `firstRow(n)` gives the keys (`keys(of:)`) of the `n`th row
        /// this admitted (counting from 0, in order).
        package mutating func admit(_ area: Area, idNumber number: Int, firstRow: (Int) -> (place: UInt64, row: UInt64)) -> Area? {
            let first: UInt32
            if number == 0 {
                guard let earlier = emptyIDRow else {
                    emptyIDRow = admitted
                    admitted += 1
                    return area
                }
                first = earlier
            } else {
                if number >= firstRows.count { firstRows.append(contentsOf: repeatElement(Self.noRow, count: number + 1 - firstRows.count)) }
                guard firstRows[number] != Self.noRow else {
                    firstRows[number] = admitted
                    admitted += 1
                    return area
                }
                first = firstRows[number]
            }
            let (place, row) = Self.keys(of: area, footprint: footprint)
            var bucket = shared[number] ?? {
                let earlier = firstRow(Int(first))
                return Bucket(places: [earlier.place: 0], rows: [earlier.row])
            }()
            guard bucket.rows.insert(row).inserted else {
                shared[number] = bucket
                return nil
            }
            var area = area
            let index: Int
            let firstOfPlace: Bool
            if let met = bucket.places[place] {
                (index, firstOfPlace) = (met, false)
            } else {
                (index, firstOfPlace) = (bucket.places.count, true)
                bucket.places[place] = index
            }
            shared[number] = bucket
            let placeID = index == 0 ? area.id : RecordValidator.id(source: area.source, name: area.name, coordinate: area.coordinate, place: place)
            area.id = firstOfPlace ? placeID : SourceRows.recordID(area: placeID, row: row)
            admitted += 1
            return area
        }
    }
}
