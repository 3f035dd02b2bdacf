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
    static func region(of point: GeoPoint, served: AreaService.View, into writer: inout JSONWriter) {
        writer.key(.region)
        guard let map = served.regions.map else {
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

    /// A pixel's width in degrees of longitude at a Web Mercator zoom (tiles of 256 pixels):
    /// what a boundary drawn at that zoom may be simplified by.
    static func pixelDegrees(zoom: Int) -> Double { 360 / Double(256 << zoom) }

    /// The most boundary vertices one `/v1/regions` answer draws (all of Korea's districts at
    /// zoom 10 take about 60,000).
    static let maximumRegionVertices = 250_000

    /// `/v1/regions`: a FeatureCollection of the regions drawn, each with its names, its code
    /// and the areas counted in it; `too_expensive` past `maximumRegionVertices`.
    static func regions(_ drawn: [RegionMap.Drawn], level: RegionMap.Level, map: RegionMap, counts: RegionMap.Counts, into writer: inout JSONWriter) throws(RequestError) {
        let vertices = drawn.reduce(0) { $0 + $1.polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } } }
        guard vertices <= maximumRegionVertices else {
            throw RequestError(.tooExpensive, "the view's \(level.name) boundaries hold \(vertices) vertices at this zoom, more than \(maximumRegionVertices): narrow the box, lower the zoom or ask a coarser level")
        }
        writer.beginObject()
        writer.key("type"); writer.string("FeatureCollection")
        writer.key("features")
        writer.beginArray()
        for region in drawn {
            writer.beginObject()
            writer.key("type"); writer.string("Feature")
            writer.key(.geometry)
            GeoJSONCollection.geometry(Shape(kind: .polygon, parts: region.polygons), into: &writer)
            writer.key("properties")
            writer.beginObject()
            let code = map[level].codes[region.row]
            let levels: [(RegionMap.Level, AnswerKey)] = [(.province, .province), (.district, .district), (.town, .town)]
            for (other, key) in levels {
                writer.key(key)
                let digits = RegionName.powerOfTen(level.codeDigits - Swift.min(other.codeDigits, level.codeDigits))
                if other.rawValue <= level.rawValue, let row = map[other].row(ofCode: code / digits) { writer.string(map[other].names[row]) } else { writer.null() }
            }
            writer.key(.code); writer.string(map.code(level, region.row))
            writer.key(.smoking); writer.number(counts.smoking[level.rawValue][region.row])
            writer.key(.nonsmoking); writer.number(counts.nonsmoking[level.rawValue][region.row])
            // Where its name goes: inside its largest part, as drawn.
            if let label = RegionMap.point(insideLargestOf: region.polygons) {
                writer.key(.labelLat); writer.number((label.latitude * 1e5).rounded() / 1e5)
                writer.key(.labelLon); writer.number((label.longitude * 1e5).rounded() / 1e5)
            }
            writer.endObject()
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.newline()
    }
}
