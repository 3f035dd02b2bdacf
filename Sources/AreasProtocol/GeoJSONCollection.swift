import AreasCore

/// A query's answer as a GeoJSON FeatureCollection (RFC 7946): one Point feature an area, at its
/// real position, with the area's other members as properties, in the answer's order, as
/// `AreaSchema` keeps them. The daemon's HTTP front door writes the collection straight from
/// its matches (`format=geojson`); areasctl `--geojson` writes it here from the socket's
/// answer; the two agree byte for byte.
public enum GeoJSONCollection {
    static let fullProperties = Set(AreaSchema.properties(idsOnly: false).map(\.name))
    static let idProperties = Set(AreaSchema.properties(idsOnly: true).map(\.name))

    /// Opens the collection; a truncated answer says so in a foreign member,
    /// `"truncated": true`, which GeoJSON readers ignore and scripts can test.
    public static func begin(truncated: Bool, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type"); writer.string("FeatureCollection")
        if truncated { writer.key(.truncated); writer.bool(true) }
        writer.key("features")
        writer.beginArray()
    }

    public static func end(into writer: inout JSONWriter) {
        writer.endArray()
        writer.endObject()
    }

    /// Opens a feature at `latitude`, `longitude` up to its `properties` key: the caller writes
    /// the properties object, then `endFeature`.
    public static func beginFeature(latitude: Double, longitude: Double, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type"); writer.string("Feature")
        writer.key("geometry")
        writer.beginObject()
        writer.key("type"); writer.string("Point")
        writer.key("coordinates")
        writer.beginArray()
        writer.number(longitude)
        writer.number(latitude)
        writer.endArray()
        writer.endObject()
        writer.key("properties")
    }

    /// A shape as a GeoJSON geometry: a Polygon or MultiPolygon (rings closed, as GeoJSON
    /// writes them), a LineString or MultiLineString.
    public static func geometry(_ shape: Shape, into writer: inout JSONWriter) {
        func positions(_ vertices: [ShapeVertex]) {
            for vertex in vertices {
                writer.beginArray()
                writer.number(Double(vertex.longitude) / ShapeVertex.perDegree)
                writer.number(Double(vertex.latitude) / ShapeVertex.perDegree)
                writer.endArray()
            }
        }
        func ring(_ vertices: [ShapeVertex], closed: Bool) {
            writer.beginArray()
            positions(closed ? vertices + vertices.prefix(1) : vertices)
            writer.endArray()
        }
        let polygon = shape.kind == .polygon
        let single = shape.parts.count == 1
        writer.beginObject()
        writer.key("type"); writer.string(polygon ? (single ? "Polygon" : "MultiPolygon") : (single ? "LineString" : "MultiLineString"))
        writer.key("coordinates")
        writer.beginArray()
        for part in shape.parts {
            if polygon {
                if !single { writer.beginArray() }
                for vertices in part { ring(vertices, closed: true) }
                if !single { writer.endArray() }
            } else if single {
                for vertices in part { positions(vertices) }
            } else {
                for vertices in part { ring(vertices, closed: false) }
            }
        }
        writer.endArray()
        writer.endObject()
    }

    public static func endFeature(into writer: inout JSONWriter) {
        writer.endObject()
    }

    /// `answer` is a parsed success answer with `areas` (full areas: each has `lat` and `lon`).
    public static func write(_ answer: JSONValue, idsOnly: Bool, into writer: inout JSONWriter) {
        let kept = idsOnly ? idProperties : fullProperties
        begin(truncated: answer[.truncated]?.bool == true, into: &writer)
        for area in answer[.areas]?.array ?? [] {
            beginFeature(latitude: area[.lat]?.double ?? 0, longitude: area[.lon]?.double ?? 0, into: &writer)
            writer.beginObject()
            if case .object(let members) = area {
                for (name, value) in members where kept.contains(name) {
                    writer.key(escaping: name)
                    // JSON escapes what it must; the text goes through exactly as the daemon sent it.
                    writer.value(value)
                }
            }
            writer.endObject()
            endFeature(into: &writer)
        }
        end(into: &writer)
    }
}

extension JSONWriter {
    /// A parsed value written back as it was read.
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .bool(let flag): bool(flag)
        case .array(let items):
            beginArray()
            for item in items { self.value(item) }
            endArray()
        case .object(let members):
            beginObject()
            for (name, item) in members {
                key(escaping: name)
                self.value(item)
            }
            endObject()
        }
    }
}
