/// The columns in which a source states its zones' extent, type and size.
public struct ZoneColumns: Sendable, Hashable {
    /// 금연구역범위상세: the extent in words.
    public var extent: String?
    /// 금연구역구분: the zone's type (`통학로` for a school route).
    public var zoneType: String?
    /// 금연구역면적: the size in m².
    public var size: String?

    public init(extent: String? = nil, zoneType: String? = nil, size: String? = nil) {
        self.extent = extent
        self.zoneType = zoneType
        self.size = size
    }

    /// The nationwide standard data's columns as the paged XML API names them.
    public static let dataGoKrXML = ZoneColumns(extent: "prhsmkScopeDesc", zoneType: "prhsmkSe", size: "prhsmkAr")
    /// The same columns as the standard data's files (CSV, JSON) name them.
    public static let standardFile = ZoneColumns(extent: "금연구역범위상세", zoneType: "금연구역구분", size: "금연구역면적")
}

/// How a non-smoking zone's footprint is drawn from what its publisher states, first match wins:
///
/// 1. `shape`: a geometry the source gives: a polygon, widened by a distance its words state; a
///    line, a corridor of that distance (10 m when none) on both sides.
/// 2. `stated`: the extent words state a distance. Measured from a facility's boundary or
///    building line, the facility's radius (a circle of its size; 0 without one) plus that
///    distance; from anything else (a stop, a sign, a gate), that distance.
/// 3. `route`: a school or walking route (by its type or its words) whose size column holds its
///    length: a circle of that radius, approximate (the route's direction is not published).
/// 4. `size`: words naming the whole facility, or none, with a size: a circle of that area.
/// 5. `default`: a circle of `minimumMeters`.
///
/// Every radius is then clamped to 5 m ..< `maximumMeters`.
public struct FootprintPolicy: Sendable, Hashable {
    /// The default circle's radius (`footprint.minMeters`).
    public var minimumMeters: Double
    /// The widest radius any rule gives (`footprint.maxMeters`).
    public var maximumMeters: Double
    /// The size column of a source that maps none (`footprint.sizeField`).
    public var sizeField: String
    /// Each source's own columns, by source name; a source not listed reads the standard
    /// columns (`ZoneColumns.standardFile`) and `sizeField`.
    public var columns: [String: ZoneColumns]

    /// No radius is narrower, whatever the words say: a person's position is not known better.
    public static let narrowestMeters = 5.0

    public init(minimumMeters: Double = 10, maximumMeters: Double = 300, sizeField: String = "prhsmkAr", columns: [String: ZoneColumns] = [:]) {
        self.minimumMeters = minimumMeters
        self.maximumMeters = maximumMeters
        self.sizeField = sizeField
        self.columns = columns
    }

    public static let standard = FootprintPolicy()

    /// The rule itself: the footprint of a zone with these extent words, type and size text.
    public func footprint(words: String?, zoneType: String?, size sizeText: String?) -> ZoneFootprint {
        var zoneType = zoneType ?? ""
        let typeIsRoute = zoneType.withUTF8 { Self.isRoute($0) }
        return footprint(words: ExtentWords(words ?? ""), typeIsRoute: typeIsRoute, size: ZoneSize(sizeText))
    }

    /// Whether a zone type names a school or walking route.
    static func isRoute(_ zoneType: UnsafeBufferPointer<UInt8>) -> Bool {
        ExtentWords.routeWords.contains { ExtentWords.find($0, in: zoneType) }
    }

    /// The rule on words, type and size as read.
    func footprint(words: ExtentWords, typeIsRoute: Bool, size: ZoneSize) -> ZoneFootprint {
        var footprint: ZoneFootprint
        let isRoute = words.namesRoute || typeIsRoute
        var sizeUsed = false
        if let stated = words.statedMeters {
            var radius = stated
            if words.fromBoundary, case .squareMeters(let area) = size {
                radius += (area / Double.pi).squareRoot()
                sizeUsed = true
            }
            footprint = ZoneFootprint(basis: .stated, radiusMeters: radius)
        } else if isRoute, let length = size.asLength {
            footprint = ZoneFootprint(basis: .route, radiusMeters: length, approximate: true)
            sizeUsed = true
        } else if words.isBlank || words.namesWholeFacility, case .squareMeters(let area) = size {
            footprint = ZoneFootprint(basis: .size, radiusMeters: (area / Double.pi).squareRoot())
            sizeUsed = true
        } else {
            footprint = ZoneFootprint(basis: .default, radiusMeters: minimumMeters)
            footprint.wordsNotUnderstood = !words.isBlank && !words.namesWholeFacility && !isRoute
        }
        switch size {
        case .unreadable: footprint.sizeNotUnderstood = true
        case .meters: footprint.sizeNotUnderstood = !sizeUsed
        case .none, .squareMeters: break
        }
        let narrowest = Swift.min(Self.narrowestMeters, maximumMeters)
        let clampedRadius = Swift.min(Swift.max(footprint.radiusMeters, narrowest), maximumMeters)
        footprint.clamped = clampedRadius != footprint.radiusMeters && footprint.basis != .default
        footprint.radiusMeters = clampedRadius
        return footprint
    }

    /// The columns `source` states its zones in.
    public func columns(of source: String) -> ZoneColumns {
        columns[source] ?? ZoneColumns(extent: ZoneColumns.standardFile.extent, zoneType: ZoneColumns.standardFile.zoneType, size: nil)
    }

    /// The footprint of a zone with `shape` at `position`: the shape itself, widened (a polygon)
    /// or made a corridor (a line) by the distance its words state.
    public func footprint(shape: Shape, at position: GeoPoint, words: String?) -> ZoneFootprint {
        let width = width(of: shape.kind == .polygon ? .polygon : .corridor, words: words)
        var reach = 0.0
        for ring in shape.rings { for vertex in ring { reach = Swift.max(reach, Geodesy.distance(position, vertex.point)) } }
        var footprint = ZoneFootprint(basis: .shape, shape: shape.kind == .polygon ? .polygon : .corridor,
                                      radiusMeters: Swift.min(reach + width, ZoneFootprint.Packed.maximumMeters))
        footprint.widthMeters = width
        footprint.clamped = (ExtentWords(words ?? "").statedMeters ?? 0) > maximumMeters
        return footprint
    }

    /// How far a shape's footprint reaches past its outline: the distance its words state (a
    /// polygon's widening, a corridor's half-width), a corridor's default without one.
    public func width(of shape: FootprintShape, words: String?) -> Double {
        let stated = ExtentWords(words ?? "").statedMeters
        return Swift.min(stated ?? (shape == .corridor ? Self.corridorMeters : 0), maximumMeters)
    }

    /// A line's corridor when its words state no distance.
    public static let corridorMeters = 10.0

    /// A zone's footprint from its published fields.
    public func footprint(of area: borrowing Area) -> ZoneFootprint {
        let columns = columns(of: area.source)
        let words = columns.extent.flatMap(area.field)
        if let text = area.field(ShapeText.fieldKey), let shape = ShapeText.decode(text) {
            return footprint(shape: shape, at: area.coordinate, words: words)
        }
        return footprint(words: words, zoneType: columns.zoneType.flatMap(area.field), size: size(columns) { area.field($0) })
    }

    /// A source's columns as UTF-8, to find them among a record's fields without making
    /// strings: the rule runs for every zone of every refresh.
    struct ColumnKeys {
        var extent: [UInt8]?
        var zoneType: [UInt8]?
        /// The size columns in the order they are tried.
        var sizes: [[UInt8]]
        static let shape = Array(ShapeText.fieldKey.utf8)
    }

    func keys(of source: String) -> ColumnKeys {
        let columns = columns(of: source)
        let sizes = columns.size.map { [$0] } ?? [sizeField] + (ZoneColumns.standardFile.size.map { [$0] } ?? [])
        return ColumnKeys(extent: columns.extent.map { Array($0.utf8) }, zoneType: columns.zoneType.map { Array($0.utf8) },
                          sizes: sizes.map { Array($0.utf8) })
    }

    /// The footprint of the zone at `position` of `areas`, the reference of its words, and its
    /// shape when its source gave one; `keys` are its source's columns.
    func footprint(of areas: AreaTable.Buffers, at position: Int, keys: ColumnKeys) -> (footprint: ZoneFootprint, words: StringArena.Ref, shape: Shape?) {
        var words: StringArena.Ref = 0
        var zoneType: StringArena.Ref?
        var shapeText: StringArena.Ref?
        var sizes = [StringArena.Ref?](repeating: nil, count: keys.sizes.count)
        areas.forEachFieldRef(of: position) { keyRef, valueRef in
            let key = areas.utf8(keyRef)
            if let extent = keys.extent, key.elementsEqual(extent) { words = valueRef }
            else if let type = keys.zoneType, key.elementsEqual(type) { zoneType = valueRef }
            else if key.first == 1, key.elementsEqual(ColumnKeys.shape) { shapeText = valueRef }
            else { for (i, size) in keys.sizes.enumerated() where sizes[i] == nil && key.elementsEqual(size) { sizes[i] = valueRef } }
        }
        if let shapeText, let shape = ShapeText.decode(areas.utf8(shapeText)) {
            let text = String(decoding: areas.utf8(words), as: UTF8.self)
            return (footprint(shape: shape, at: areas.records[position].coordinate, words: text), words, shape)
        }
        let size = sizes.lazy.compactMap { $0 }.first.map { ZoneSize(utf8: areas.utf8($0)) } ?? ZoneSize.none
        let footprint = footprint(words: ExtentWords(utf8: areas.utf8(words)), typeIsRoute: zoneType.map { Self.isRoute(areas.utf8($0)) } ?? false, size: size)
        return (footprint, words, nil)
    }

    /// The radius the rule gives `area`, in meters.
    public func radius(of area: borrowing Area) -> Double { footprint(of: area).radiusMeters }

    /// The size text: the source's size column, else `sizeField`, else the standard files' one.
    func size(_ columns: ZoneColumns, _ field: (String) -> String?) -> String? {
        if let column = columns.size { return field(column) }
        return field(sizeField) ?? ZoneColumns.standardFile.size.flatMap(field)
    }
}
