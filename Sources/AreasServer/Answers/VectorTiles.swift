import AreasCore
import AreasProtocol

/// `GET /v1/tiles/{z}/{x}/{y}.mvt`: the tile's areas as `clusters` groups them at that zoom,
/// a layer per kind. The grid's 64-pixel cells are fixed to the world and four fit a tile
/// across, so no cluster straddles two tiles and a tile holds what a `clusters` view of it
/// with that kind holds.
package enum VectorTiles {
    /// The tile, or nil when nothing lies in it.
    package static func tile(z: Int, x: Int, y: Int, index: AreaIndex) -> [UInt8]? {
        let exact = WebMercator.tileBox(zoom: z, x: x, y: y)
        // A hair wider, so a point on an edge is found; it is then kept by its pixel only in
        // the tile whose half-open square holds it.
        let margin = 1e-9
        let box = GeoBox(uncheckedSouth: max(-90, exact.south - margin), west: max(-180, exact.west - margin),
                         north: min(90, exact.north + margin), east: min(180, exact.east + margin))
        let extent = Double(VectorTileEncoder.extent)
        let side = Double(WebMercator.tilePixels)
        let originX = Double(x) * side, originY = Double(y) * side
        /// A position in the tile's grid; nil outside its half-open square, unless `clamped`
        /// (a cluster's mean, inside its cell but for rounding) puts it on the nearest edge.
        func tileCoordinates(_ point: GeoPoint, clamped: Bool = false) -> (Int, Int)? {
            let pixel = WebMercator.pixel(point, zoom: z)
            let inside = pixel.x >= originX && pixel.x < originX + side && pixel.y >= originY && pixel.y < originY + side
            guard inside || clamped else { return nil }
            func grid(_ offset: Double) -> Int { min(Int(extent) - 1, max(0, Int((offset / side * extent).rounded(.down)))) }
            return (grid(pixel.x - originX), grid(pixel.y - originY))
        }
        let cellsPerTile = Int64(WebMercator.tilePixels / AreaIndex.clusterCellPixels)
        var encoder = VectorTileEncoder()
        for kind in AreaKind.allCases {
            guard let clustering = try? index.clusters(in: box, zoom: z, kind: kind == .smoking ? .smoking : .nonsmoking, maximumEntries: .max) else { continue }
            var features: [VectorTileEncoder.Feature] = []
            for cluster in clustering.clusters {
                guard cluster.cell.x / cellsPerTile == Int64(x), cluster.cell.y / cellsPerTile == Int64(y) else { continue }
                // The mean of a cell's points is inside the cell, so inside the tile.
                guard let (tx, ty) = tileCoordinates(cluster.center, clamped: true) else { continue }
                features.append(.init(x: tx, y: ty, properties: [("count", .count(UInt64(cluster.count)))]))
            }
            index.areas.withBuffers { areas in
                for position in clustering.areas {
                    let record = areas.records[position]
                    guard let (tx, ty) = tileCoordinates(record.coordinate) else { continue }
                    features.append(.init(x: tx, y: ty, properties: [
                        ("id", .string(String(decoding: areas.utf8(record.id), as: UTF8.self))),
                        ("name", .string(String(decoding: areas.utf8(record.name), as: UTF8.self))),
                        ("kind", .string(record.kind.rawValue)),
                    ]))
                }
            }
            encoder.layer(kind.rawValue, features)
        }
        return encoder.isEmpty ? nil : encoder.bytes
    }
}
