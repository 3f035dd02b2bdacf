import AreasCore
import AreasProtocol

/// `GET /v1/tiles.json`: the vector tiles described as TileJSON 3.0, for a client that takes
/// a tile source by one URL (MapLibre, QGIS's vector tiles): where the tiles are, their zooms
/// and bounds, and each layer with the fields its features carry (`VectorTiles` writes them).
enum TileJSON {
    /// The layers and their fields, as `VectorTiles` writes them: a cluster has `count`, an
    /// area `id`, `name` and `kind`, and a zone its `footprint` basis and `footprintMeters`.
    static let layers: [(id: String, description: String, fields: [(String, String)])] = [
        ("smoking", "smoking areas: clusters (count) and single areas (id, name, kind)",
         [("count", "Number"), ("id", "String"), ("name", "String"), ("kind", "String")]),
        ("nonsmoking", "non-smoking zones: clusters (count) and single zones (id, name, kind, footprint, footprintMeters)",
         [("count", "Number"), ("id", "String"), ("name", "String"), ("kind", "String"), ("footprint", "String"), ("footprintMeters", "Number")]),
    ]

    static func write(origin: String?, bounds: GeoBox, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("tilejson"); writer.string("3.0.0")
        writer.key("name"); writer.string("areas")
        writer.key("description"); writer.string("Where people may and may not smoke in South Korea: smoking areas and non-smoking zones")
        writer.key("version"); writer.string(AreasVersion.current)
        writer.key("scheme"); writer.string("xyz")
        writer.key("tiles")
        writer.beginArray()
        writer.string((origin ?? "") + "/v1/tiles/{z}/{x}/{y}.mvt")
        writer.endArray()
        writer.key("minzoom"); writer.number(0)
        writer.key("maxzoom"); writer.number(Request.maximumZoom)
        writer.key("bounds")
        writer.beginArray()
        for edge in [bounds.west, bounds.south, bounds.east, bounds.north] { writer.number(edge) }
        writer.endArray()
        writer.key("center")
        writer.beginArray()
        writer.number((bounds.west + bounds.east) / 2)
        writer.number((bounds.south + bounds.north) / 2)
        writer.number(7)
        writer.endArray()
        writer.key("vector_layers")
        writer.beginArray()
        for layer in layers {
            writer.beginObject()
            writer.key("id"); writer.string(layer.id)
            writer.key("description"); writer.string(layer.description)
            writer.key("minzoom"); writer.number(0)
            writer.key("maxzoom"); writer.number(Request.maximumZoom)
            writer.key("fields")
            writer.beginObject()
            for (name, type) in layer.fields { writer.key(escaping: name); writer.string(type) }
            writer.endObject()
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }
}
