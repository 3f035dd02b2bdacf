import AreasCore
import AreasProtocol

/// Where a point lies on the administrative map: `where`'s answer and `check`'s `region`.
extension Answers {
    /// `{"ok": true, "province", "district", "town", "codes": {...}}`; members null at sea or
    /// abroad, with a `note`.
    static func place(of point: GeoPoint, on map: RegionMap, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(.ok); writer.bool(true)
        placeMembers(map.place(of: point), on: map, into: &writer)
        writer.endObject()
    }

    /// `"region"`: the place's members as an object, or `"unavailable"` without a map.
    static func region(of point: GeoPoint, regions: ServedRegions, into writer: inout JSONWriter) {
        writer.key(.region)
        guard let map = regions.map else {
            writer.string("unavailable")
            return
        }
        writer.beginObject()
        placeMembers(map.place(of: point), on: map, into: &writer)
        writer.endObject()
    }

    private static func placeMembers(_ place: RegionMap.Place, on map: RegionMap, into writer: inout JSONWriter) {
        let levels: [(RegionMap.Level, AnswerKey)] = [(.province, .province), (.district, .district), (.town, .town)]
        for (level, key) in levels {
            writer.key(key)
            if let row = place.row(level) { writer.string(map[level].names[row]) } else { writer.null() }
        }
        writer.key(.codes)
        if place.isEmpty {
            writer.null()
            writer.key(.note); writer.string("no province, district or town holds the point: at sea, or outside South Korea")
            return
        }
        writer.beginObject()
        for (level, key) in levels {
            writer.key(key)
            if let row = place.row(level) { writer.string(map.code(level, row)) } else { writer.null() }
        }
        writer.endObject()
    }

    /// A record's district check, for `get`: `regionMismatch` and `districtFrom`.
    static func regionFindings(_ position: Int, of areas: AreaTable.Buffers, into writer: inout JSONWriter) {
        let (mismatch, fromPosition) = RegionFields.findings(of: position, in: areas)
        if let mismatch {
            writer.key(.regionMismatch)
            writer.beginObject()
            writer.key(.stated); writer.string(mismatch.stated)
            writer.key(.found)
            if let found = mismatch.found { writer.string(found) } else { writer.null() }
            writer.key(.meters); writer.meters(mismatch.meters)
            writer.endObject()
        }
        if fromPosition { writer.key(.districtFrom); writer.string("position") }
    }
}
