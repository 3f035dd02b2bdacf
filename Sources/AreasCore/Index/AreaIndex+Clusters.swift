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
    /// The grid's cell size in pixels at `zoom` (`AreaIndex.clusterCellPixels`, doubled until
    /// the entries fit).
    public var cellPixels: Int
}

extension AreaIndex {
    /// From zoom 18 (a few streets across) areas are shown one by one.
    public static let unclusteredZoom = 18

    /// The grid's cell across and down, in Web Mercator pixels: what a map groups as one
    /// cluster. Every clustering starts from it; a vector tile holds
    /// `WebMercator.tilePixels / clusterCellPixels` cells a side.
    public static let clusterCellPixels = 64

    /// The areas in `box` grouped as a map at `zoom` shows them: in a grid of 64-pixel cells
    /// fixed to the world (so a view and the tiles under it group alike, and one view always
    /// gives the same answer), a cell of several areas a cluster, an area alone in its cell
    /// itself. Every area of the view is in exactly one cluster or among `areas`. When the
    /// entries would pass `maximumEntries`, the cells double until they fit; from zoom 18,
    /// every area stands alone unless that would pass it.
    ///
    /// Throws `tooExpensive` when grouping the view would look at more than
    /// `clusterWorkLimit` areas and tree nodes (a whole country at a street's zoom).
    public func clusters(in box: GeoBox, zoom: Int, kind: KindFilter = .all, region: Region = .anywhere,
                         maximumEntries: Int = 2_000) throws(GeoError) -> Clustering {
        try clusters(in: box, zoom: zoom, kind: kind, region: region, maximumEntries: maximumEntries, workLimit: Self.clusterWorkLimit)
    }

    /// The same with a work limit of its own (a tile, whose box is small, takes none: a tile
    /// is never refused).
    func clusters(in box: GeoBox, zoom: Int, kind: KindFilter, region: Region, maximumEntries: Int, workLimit: Int) throws(GeoError) -> Clustering {
        let resolved = regionNames.resolve(region)
        if zoom >= Self.unclusteredZoom || !resolved.isAnywhere {
            return try clustersByScanning(in: box, zoom: zoom, kind: kind, region: region, maximumEntries: maximumEntries, workLimit: workLimit)
        }
        var cellPixels = Self.clusterCellPixels
        var work = 0
        while true {
            let cells = try cellsFromTree(in: box, zoom: zoom, kind: kind, cellPixels: cellPixels, work: &work, limit: workLimit)
            if cells.count > maximumEntries && cellPixels < 1 << 30 {
                cellPixels *= 2
                continue
            }
            return Self.clustering(cells, zoom: zoom, cellPixels: cellPixels)
        }
    }

    /// How many areas and tree nodes one grouping may look at, over every cell size it tries:
    /// a view of a city at any zoom, or of the country at the zooms that show it, stays well
    /// within it; the country at a street's zoom (a million cells) does not, and is refused
    /// with what to narrow instead of costing a second of CPU.
    public static let clusterWorkLimit = 500_000

    static func tooMuchClusteringWork(zoom: Int) -> GeoError {
        .tooExpensive("grouping this box's areas at zoom \(zoom) looks at more areas than one request may; ask for a smaller box (the map's view) or a lower zoom")
    }

    /// What a vector tile of `box` shows of `kind` at `zoom`: below zoom 18 its clusters, as
    /// `clusters` makes them (a tile holds at most 16 of their cells). From zoom 18 each area
    /// stands alone, but areas on one pixel of the tile's 256 are one cluster (forty thousand
    /// rows at one position are one feature with their count); `coarse` groups them in the
    /// 64-pixel cells instead, for a tile that would be too large that way.
    public func tileClustering(in box: GeoBox, zoom: Int, kind: KindFilter, coarse: Bool) throws(GeoError) -> Clustering {
        guard zoom >= Self.unclusteredZoom else {
            return try clusters(in: box, zoom: zoom, kind: kind, region: .anywhere, maximumEntries: .max, workLimit: .max)
        }
        let cellPixels = coarse ? Self.clusterCellPixels : 1
        var grid = CellGrid(zoom: zoom, cellPixels: cellPixels)
        let records = areas.records
        for match in try areas(in: box, kind: kind) {
            grid.add(records[match.position].coordinate, smoking: records[match.position].kind == .smoking, position: match.position)
        }
        return Self.clustering(grid.cells, zoom: zoom, cellPixels: cellPixels)
    }

    /// One cell of the grid as its areas add up.
    struct CellTally {
        var x: Int64, y: Int64
        var count = 0, smoking = 0
        var latitude = 0.0, longitude = 0.0
        var south = 90.0, west = 180.0, north = -90.0, east = -180.0
        /// The cell's one area, while it has one that was added alone.
        var single = -1

        mutating func add(_ point: GeoPoint, smoking isSmoking: Bool, position: Int) {
            single = count == 0 ? position : -1
            count += 1
            if isSmoking { smoking += 1 }
            latitude += point.latitude
            longitude += point.longitude
            widen(GeoBox(point))
        }

        mutating func widen(_ box: GeoBox) {
            south = min(south, box.south)
            north = max(north, box.north)
            west = min(west, box.west)
            east = max(east, box.east)
        }
    }

    /// The cells of the view's areas, walking the area tree: a node inside the view whose box
    /// falls in one cell is added whole from the tree's summary, other nodes are opened, and
    /// areas are added one by one only where a cell's edge runs through their node.
    func cellsFromTree(in box: GeoBox, zoom: Int, kind: KindFilter, cellPixels: Int, work: inout Int,
                       limit: Int) throws(GeoError) -> [CellTally] {
        guard let root = tree.root else { return [] }
        var tooMuch = false
        let summary = summaryCache.summary(of: tree)
        let mask = Self.classMask(of: kind)
        var grid = CellGrid(zoom: zoom, cellPixels: cellPixels)
        let records = areas.records
        let treeCount = tree.count
        tree.withEntries { entries in
            tree.nodeBoxes.withUnsafeBufferPointer { nodeBoxes in
                var stack: [(level: Int, position: Int)] = [(tree.levelEnds.count - 1, root)]
                while let (level, position) = stack.popLast() {
                    work += 1
                    if work > limit { tooMuch = true; return }
                    for child in tree.children(of: position, level: level) where entries.classes[child] & mask != 0 {
                        if level == 1 {
                            work += 1
                            let point = records[Int(entries.payloads[child])].coordinate
                            guard box.contains(point) else { continue }
                            grid.add(point, smoking: entries.classes[child] == Self.classMask(of: AreaKind.smoking), position: Int(entries.payloads[child]))
                            continue
                        }
                        let node = child - treeCount
                        let bounds = nodeBoxes[node]
                        guard bounds.intersects(box) else { continue }
                        let smoking = kind == .nonsmoking ? 0 : Int(summary.counts[2 * node])
                        let zones = kind == .smoking ? 0 : Int(summary.counts[2 * node + 1])
                        let inCell = box.contains(bounds) && grid.cell(bounds.north, bounds.west) == grid.cell(bounds.south, bounds.east)
                        guard inCell && smoking + zones >= 2 else {
                            if smoking + zones > 0 { stack.append((level - 1, child)) }
                            continue
                        }
                        grid.add(node: bounds, smoking: smoking, zones: zones, sums: summary.sums[(4 * node)..<(4 * node + 4)])
                    }
                }
            }
        }
        if tooMuch { throw Self.tooMuchClusteringWork(zoom: zoom) }
        return grid.cells
    }

    /// Clusters and single areas from the cells, in cell and id order.
    static func clustering(_ cells: [CellTally], zoom: Int, cellPixels: Int) -> Clustering {
        var clusters: [Clustering.Cluster] = []
        var singles: [Int] = []
        var count = 0
        for cell in cells.sorted(by: { ($0.y, $0.x) < ($1.y, $1.x) }) {
            count += cell.count
            if cell.count == 1 && cell.single >= 0 {
                singles.append(cell.single)
                continue
            }
            let n = Double(cell.count)
            clusters.append(Clustering.Cluster(
                center: GeoPoint(uncheckedLatitude: cell.latitude / n, longitude: cell.longitude / n), count: cell.count,
                smoking: cell.smoking, nonsmoking: cell.count - cell.smoking,
                bounds: GeoBox(uncheckedSouth: cell.south, west: cell.west, north: cell.north, east: cell.east), cell: (cell.x, cell.y)))
        }
        singles.sort()
        return Clustering(zoom: zoom, count: count, clusters: clusters, areas: singles, cellPixels: cellPixels)
    }

    /// The same grouping from the view's areas one by one: for a region filter (which the
    /// tree's summary does not know) and deep zooms.
    func clustersByScanning(in box: GeoBox, zoom: Int, kind: KindFilter, region: Region,
                            maximumEntries: Int, workLimit: Int) throws(GeoError) -> Clustering {
        let positions = try areas(in: box, kind: kind, region: region).map(\.position)
        let records = areas.records
        if zoom >= Self.unclusteredZoom && positions.count <= maximumEntries {
            return Clustering(zoom: zoom, count: positions.count, clusters: [], areas: positions, cellPixels: 0)
        }
        var cellPixels = Self.clusterCellPixels
        var work = 0
        while true {
            work += positions.count
            if work > workLimit { throw Self.tooMuchClusteringWork(zoom: zoom) }
            var grid = CellGrid(zoom: zoom, cellPixels: cellPixels)
            for position in positions {
                grid.add(records[position].coordinate, smoking: records[position].kind == .smoking, position: position)
            }
            if grid.cells.count > maximumEntries && cellPixels < 1 << 30 {
                cellPixels *= 2
                continue
            }
            return Self.clustering(grid.cells, zoom: zoom, cellPixels: cellPixels)
        }
    }
}

/// The cells of a grid of `cellPixels`-pixel squares at `zoom`, in the order first seen.
struct CellGrid {
    let zoom: Int
    let size: Double
    private var index: [Int64: Int] = [:]
    private(set) var cells: [AreaIndex.CellTally] = []

    init(zoom: Int, cellPixels: Int) {
        self.zoom = zoom
        size = Double(cellPixels)
    }

    /// The cell holding a position, across and down from the north-west corner.
    func cell(_ latitude: Double, _ longitude: Double) -> (x: Int64, y: Int64) {
        let pixel = WebMercator.pixel(GeoPoint(uncheckedLatitude: latitude, longitude: longitude), zoom: zoom)
        return (Int64((pixel.x / size).rounded(.down)), Int64((pixel.y / size).rounded(.down)))
    }

    /// The tally of cell `at`, made when first asked for.
    mutating func tally(_ at: (x: Int64, y: Int64)) -> Int {
        let key = at.y << 32 | (at.x & 0xFFFF_FFFF)
        if let i = index[key] { return i }
        index[key] = cells.count
        cells.append(AreaIndex.CellTally(x: at.x, y: at.y))
        return cells.count - 1
    }

    /// Adds one area to its cell.
    mutating func add(_ point: GeoPoint, smoking: Bool, position: Int) {
        cells[tally(cell(point.latitude, point.longitude))].add(point, smoking: smoking, position: position)
    }

    /// Adds a summarised subtree, wholly inside the cell of its north-west corner.
    mutating func add(node bounds: GeoBox, smoking: Int, zones: Int, sums: ArraySlice<Double>) {
        let i = tally(cell(bounds.north, bounds.west))
        cells[i].single = -1
        cells[i].count += smoking + zones
        cells[i].smoking += smoking
        let first = sums.startIndex
        if smoking > 0 {
            cells[i].latitude += sums[first]
            cells[i].longitude += sums[first + 1]
        }
        if zones > 0 {
            cells[i].latitude += sums[first + 2]
            cells[i].longitude += sums[first + 3]
        }
        cells[i].widen(bounds)
    }
}

