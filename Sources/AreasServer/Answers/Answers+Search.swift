import AreasCore
import AreasIngest
import AreasProtocol

/// A place `search` names besides areas: a region of the administrative map, or what the
/// geocoder answered for the text.
struct FoundPlace: Sendable, Equatable {
    enum Origin: String, Sendable { case area, region, hotspot, geocoder }

    var name: String
    var point: GeoPoint
    var origin: Origin
    var province: String?
    var district: String?
    /// A region's level.
    var level: RegionMap.Level?
    /// How well a region's name matched (0: its own name is the text).
    var rank = 0

    init(name: String, point: GeoPoint, origin: Origin, province: String? = nil, district: String? = nil, level: RegionMap.Level? = nil, rank: Int = 0) {
        (self.name, self.point, self.origin, self.province, self.district, self.level, self.rank) = (name, point, origin, province, district, level, rank)
    }

    /// The area at `position`, as a question's origin.
    init(area position: Int, of table: AreaTable.Buffers) {
        let record = table.records[position]
        func text(_ ref: StringArena.Ref) -> String? { ref == StringArena.empty ? nil : String(decoding: table.utf8(ref), as: UTF8.self) }
        self.init(name: text(record.name) ?? "", point: record.coordinate, origin: .area, province: text(record.province), district: text(record.district))
    }

    /// The regions `map` has for `text`, each at a point inside it: best matched first, or,
    /// given `near`, nearest first among those named so or beginning so (`명동1가` 500 m away
    /// before the `명동` of another province 89 km away), then the names that only hold it.
    static func regions(_ text: String, on map: RegionMap, limit: Int, near point: GeoPoint? = nil) -> [FoundPlace] {
        let found = regions(text, on: map, limit: point == nil ? limit : Swift.max(limit, nearestPlaceCandidates))
        guard let point else { return found }
        func tier(_ place: FoundPlace) -> Int { place.rank <= 1 ? 0 : 1 }
        return Array(found.sorted { a, b in
            tier(a) != tier(b) ? tier(a) < tier(b) : Geodesy.distance(point, a.point) < Geodesy.distance(point, b.point)
        }.prefix(limit))
    }

    /// The city's crowd hotspots whose name holds every word of `text` (`남산공원`, `강남역`),
    /// each at a point inside it: its own name first, then by the places file's order.
    static func hotspots(_ text: String, in hotspots: CrowdHotspots, limit: Int, map: RegionMap?) -> [FoundPlace] {
        let words = SearchText.words(of: text)
        guard !words.isEmpty else { return [] }
        let whole = words.flatMap { $0 }
        var found: [FoundPlace] = []
        for hotspot in 0..<hotspots.count {
            let folded = SearchText.fold(hotspots.names[hotspot])
            guard words.allSatisfy({ SearchText.contains(folded, $0) }) else { continue }
            let point = RingCheck.pointInside(hotspots.polygons[hotspot])
            // Its province and district, where the map has them: a note names them.
            let place = map?.place(of: point)
            func name(_ level: RegionMap.Level) -> String? { place?.row(level).map { map?[level].names[$0] ?? "" } }
            found.append(FoundPlace(name: hotspots.names[hotspot], point: point, origin: .hotspot, province: name(.province), district: name(.district),
                                    rank: folded == whole ? 0 : 2))
        }
        return Array(found.sorted { $0.rank < $1.rank }.prefix(limit))
    }

    /// Regions a search given a position ranks by distance.
    static let nearestPlaceCandidates = 200

    private static func regions(_ text: String, on map: RegionMap, limit: Int) -> [FoundPlace] {
        map.places(matching: text, limit: limit).compactMap { match in
            guard let point = map.point(inside: match.level, row: match.row) else { return nil }
            // The region's own name at its level, and the names of the regions its code lies in.
            func name(_ level: RegionMap.Level) -> String? {
                guard level.rawValue <= match.level.rawValue else { return nil }
                let code = match.level.code(map[match.level].codes[match.row], at: level)
                return map[level].row(ofCode: code).map { map[level].names[$0] }
            }
            return FoundPlace(name: map[match.level].names[match.row], point: point, origin: .region,
                              province: name(.province), district: name(.district), level: match.level, rank: match.rank)
        }
    }
}

extension Answers {
    /// `search`'s answer: the areas found, each with `matched`, then `places`.
    static func search(_ found: [AreaIndex.SearchMatch], truncated: Bool, places: [FoundPlace], note: String? = nil, served: AreaService.View,
                       into writer: inout JSONWriter) {
        // A search's areas carry no crowd levels: its ETag does not follow them.
        var served = served
        served.crowd = nil
        list(found, truncated: truncated, served: served, output: .full, form: .json, note: note.map { AnswerNote(text: $0) }, into: &writer) { match in
            (match.position, match.distanceMeters)
        } extra: { match, writer in
            writer.key(.matched); writer.string(match.matchedField)
        } after: { writer in
            writer.key(.places)
            writer.beginArray()
            for place in places {
                writer.beginObject()
                foundPlaceMembers(place, into: &writer)
                writer.endObject()
            }
            writer.endArray()
        }
    }

    /// A place's `name`, `lat`, `lon`, `from`, `province` and `district` (those it has).
    static func foundPlaceMembers(_ place: FoundPlace, into writer: inout JSONWriter) {
        writer.key(.name); writer.string(place.name)
        writer.key(.lat); writer.number((place.point.latitude * 1e6).rounded() / 1e6)
        writer.key(.lon); writer.number((place.point.longitude * 1e6).rounded() / 1e6)
        writer.key(.from); writer.string(place.origin.rawValue)
        if let province = place.province { writer.key(.province); writer.string(province) }
        if let district = place.district { writer.key(.district); writer.string(district) }
    }
}
