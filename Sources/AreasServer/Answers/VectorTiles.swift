import AreasCore
import AreasProtocol
import AreasSystem

/// `GET /v1/tiles/{z}/{x}/{y}.mvt`: the tile's areas as `clusters` groups them at that zoom,
/// a layer per kind. The grid's 64-pixel cells are fixed to the world and four fit a tile
/// across, so no cluster straddles two tiles and a tile holds what a `clusters` view of it
/// with that kind holds. From zoom 18, where areas stand alone, areas on one pixel are one
/// feature with their count, and a tile that would still pass `maximumBytes` groups them in
/// the 64-pixel cells: a tile is bounded whatever lies in it.
package enum VectorTiles {
    /// What one tile may weigh before its areas are grouped in cells.
    package static let maximumBytes = 512 << 10

    /// The tile, or nil when nothing lies in it.
    package static func tile(z: Int, x: Int, y: Int, index: AreaIndex) -> [UInt8]? {
        let fine = tile(z: z, x: x, y: y, index: index, coarse: false)
        if let fine, fine.count > maximumBytes, z >= AreaIndex.unclusteredZoom {
            return tile(z: z, x: x, y: y, index: index, coarse: true)
        }
        return fine
    }

    private static func tile(z: Int, x: Int, y: Int, index: AreaIndex, coarse: Bool) -> [UInt8]? {
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
        var encoder = VectorTileEncoder()
        for kind in AreaKind.allCases {
            guard let clustering = try? index.tileClustering(in: box, zoom: z, kind: kind == .smoking ? .smoking : .nonsmoking, coarse: coarse) else { continue }
            let cellsPerTile = Int64(WebMercator.tilePixels / clustering.cellPixels)
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
                    var properties: [(String, VectorTileEncoder.Value)] = [
                        ("id", .string(String(decoding: areas.utf8(record.id), as: UTF8.self))),
                        ("name", .string(String(decoding: areas.utf8(record.name), as: UTF8.self))),
                        ("kind", .string(record.kind.rawValue)),
                    ]
                    // A zone's footprint: its basis, and its radius (a shape's reach) in whole meters.
                    if let (footprint, _) = index.footprint(of: position) {
                        properties.append(("footprint", .string(footprint.basis.name.description)))
                        properties.append(("footprintMeters", .count(UInt64(footprint.radiusMeters.rounded(.up)))))
                    }
                    features.append(.init(x: tx, y: ty, properties: properties))
                }
            }
            encoder.layer(kind.rawValue, features)
        }
        return encoder.isEmpty ? nil : encoder.bytes
    }
}

/// The tiles made from one data set, kept until it is replaced (it lives in its
/// `ServingState`): a map asks for the same tiles again and again, and each costs a search of
/// its areas. At most `maximumBytes` are kept; past that, the oldest go first.
package final class TileCache: Sendable {
    package struct Key: Hashable, Sendable { var z: Int, x: Int, y: Int }
    private struct Contents {
        var tiles: [Key: [UInt8]?] = [:]
        var order: [Key] = []
        var bytes = 0
        var builds = 0
    }
    private let contents = LockedValue(Contents())
    package static let maximumBytes = 16 << 20

    package init() {}

    /// The tile at `z/x/y` (nil: nothing lies in it), made with `make` unless kept.
    package func tile(z: Int, x: Int, y: Int, make: () -> [UInt8]?) -> [UInt8]? {
        let key = Key(z: z, x: x, y: y)
        if let kept = contents.withLock({ $0.tiles[key] }) { return kept }
        let made = make()
        let size = (made?.count ?? 0) + 64
        contents.withLock { contents in
            guard contents.tiles[key] == nil, size <= Self.maximumBytes else { return }
            contents.builds += 1
            while contents.bytes + size > Self.maximumBytes, !contents.order.isEmpty {
                let oldest = contents.order.removeFirst()
                contents.bytes -= ((contents.tiles.removeValue(forKey: oldest) ?? nil)?.count ?? 0) + 64
            }
            contents.tiles[key] = .some(made)
            contents.order.append(key)
            contents.bytes += size
        }
        return made
    }

    /// How many tiles were made and kept so far.
    package var builds: Int { contents.withLock { $0.builds } }
}
