/// Areas grouped for a map: what `clusters` answers and each vector tile holds.
public struct Clustering: Sendable {
    /// Several areas that lie in one cell of the map's grid.
    public struct Cluster: Sendable, Equatable {
        /// The mean position of its areas.
        public var center: GeoPoint
        public var count: Int
        public var smoking: Int
        public var nonsmoking: Int
        /// The box its areas span.
        public var bounds: GeoBox
        /// The cell, in cells of `cellPixels` across and down from the north-west corner.
        public var cell: (x: Int64, y: Int64)

        public static func == (a: Cluster, b: Cluster) -> Bool {
            a.center == b.center && a.count == b.count && a.smoking == b.smoking && a.nonsmoking == b.nonsmoking
                && a.bounds == b.bounds && a.cell == b.cell
        }
    }

    public var zoom: Int
    /// Every area of the view: those in clusters and the single ones.
    public var count: Int
    /// In cell order (rows from the north, then columns from the west).
    public var clusters: [Cluster]
    /// Areas alone in their cell, or every area at zoom 18 and deeper: positions in id order.
    public var areas: [Int]
    /// The grid's cell size in pixels at `zoom` (64, doubled until the entries fit).
    public var cellPixels: Int
}

extension AreaIndex {
    /// From zoom 18 (a few streets across) areas are shown one by one.
    public static let unclusteredZoom = 18

    /// The areas in `box` grouped as a map at `zoom` shows them: in a grid of 64-pixel cells
    /// fixed to the world (so a view and the tiles under it group alike, and one view always
    /// gives the same answer), a cell of several areas a cluster, an area alone in its cell
    /// itself. Every area of the view is in exactly one cluster or among `areas`. When the
    /// entries would pass `maximumEntries`, the cells double until they fit; from zoom 18,
    /// every area stands alone unless that would pass it.
    public func clusters(in box: GeoBox, zoom: Int, kind: KindFilter = .all, region: Region = .anywhere,
                         maximumEntries: Int = 2_000) throws(GeoError) -> Clustering {
        let positions = try areas(in: box, kind: kind, region: region).map(\.position)
        let records = areas.records
        if zoom >= Self.unclusteredZoom && positions.count <= maximumEntries {
            return Clustering(zoom: zoom, count: positions.count, clusters: [], areas: positions, cellPixels: 0)
        }
        let pixels = positions.map { WebMercator.pixel(records[$0].coordinate, zoom: zoom) }
        var cellPixels = 64
        while true {
            let size = Double(cellPixels)
            // Cells in first-seen order, each with its members' positions in `positions`.
            var cellIndex: [Int64: Int] = [:]
            var cells: [(x: Int64, y: Int64, members: [Int])] = []
            for (i, pixel) in pixels.enumerated() {
                let x = Int64((pixel.x / size).rounded(.down)), y = Int64((pixel.y / size).rounded(.down))
                let key = y << 32 | (x & 0xFFFF_FFFF)
                if let at = cellIndex[key] {
                    cells[at].members.append(i)
                } else {
                    cellIndex[key] = cells.count
                    cells.append((x, y, [i]))
                }
            }
            if cells.count > maximumEntries && cellPixels < 1 << 30 {
                cellPixels *= 2
                continue
            }
            var clusters: [Clustering.Cluster] = []
            var singles: [Int] = []
            for cell in cells.sorted(by: { ($0.y, $0.x) < ($1.y, $1.x) }) {
                if cell.members.count == 1 {
                    singles.append(positions[cell.members[0]])
                    continue
                }
                var latitude = 0.0, longitude = 0.0, smoking = 0
                var south = 90.0, west = 180.0, north = -90.0, east = -180.0
                for member in cell.members {
                    let record = records[positions[member]]
                    latitude += record.coordinate.latitude
                    longitude += record.coordinate.longitude
                    south = min(south, record.coordinate.latitude)
                    north = max(north, record.coordinate.latitude)
                    west = min(west, record.coordinate.longitude)
                    east = max(east, record.coordinate.longitude)
                    if record.kind == .smoking { smoking += 1 }
                }
                let n = Double(cell.members.count)
                clusters.append(Clustering.Cluster(
                    center: GeoPoint(uncheckedLatitude: latitude / n, longitude: longitude / n), count: cell.members.count,
                    smoking: smoking, nonsmoking: cell.members.count - smoking,
                    bounds: GeoBox(uncheckedSouth: south, west: west, north: north, east: east), cell: (cell.x, cell.y)))
            }
            singles.sort()
            return Clustering(zoom: zoom, count: positions.count, clusters: clusters, areas: singles, cellPixels: cellPixels)
        }
    }
}
