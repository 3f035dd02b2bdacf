/// A query's answer as a GeoJSON FeatureCollection (RFC 7946): one Point feature an area, at its
/// real position, with the answer's fields as properties. areasctl `--geojson` and the HTTP
/// front door's `format=geojson` both write it from the same answer, so they agree byte for byte.
public enum GeoJSONCollection {
    /// The properties kept for each feature: everything, or with `idsOnly` the id and distances.
    static let fullProperties: [AnswerKey] = [.id, .kind, .name, .address, .district, .source, .geocoded, .referenceDate, .sources, .overridden, .distanceMeters, .alongMeters, .sideMeters, .footprintMeters]
    static let idProperties: [AnswerKey] = [.id, .distanceMeters, .alongMeters]

    /// `answer` is a parsed success answer with `areas` (full areas: each has `lat` and `lon`).
    /// A truncated answer says so in a foreign member, `"truncated": true`, which GeoJSON
    /// readers ignore and scripts can test.
    public static func write(_ answer: JSONValue, idsOnly: Bool, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type"); writer.string("FeatureCollection")
        if answer[.truncated]?.bool == true { writer.key(.truncated); writer.bool(true) }
        writer.key("features")
        writer.beginArray()
        for area in answer[.areas]?.array ?? [] {
            writer.beginObject()
            writer.key("type"); writer.string("Feature")
            writer.key("geometry")
            writer.beginObject()
            writer.key("type"); writer.string("Point")
            writer.key("coordinates")
            writer.beginArray()
            writer.number(area[.lon]?.double ?? 0)
            writer.number(area[.lat]?.double ?? 0)
            writer.endArray()
            writer.endObject()
            writer.key("properties")
            writer.beginObject()
            for key in idsOnly ? idProperties : fullProperties {
                guard let value = area[key] else { continue }
                writer.key(key)
                // JSON escapes what it must; the text goes through exactly as the daemon sent it.
                switch value {
                case .number(let n): writer.number(n)
                case .string(let text): writer.string(text)
                case .bool(let flag): writer.bool(flag)
                case .array(let items):
                    // An area's `sources`: names only.
                    writer.beginArray()
                    for item in items { if let text = item.string { writer.string(text) } else { writer.null() } }
                    writer.endArray()
                default: writer.null()
                }
            }
            writer.endObject()
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }
}
