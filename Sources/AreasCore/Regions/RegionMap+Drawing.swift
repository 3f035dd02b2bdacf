/// The map's regions drawn for a view: each region whose polygons meet the view, its rings
/// simplified to what a screen at the zoom can show, and the areas counted in each region.
extension RegionMap {
    /// One region to draw: its row, and its polygons (each an outer ring and its holes).
    public struct Drawn: Sendable {
        public var row: Int
        public var polygons: [[[ShapeVertex]]]
    }

    /// The regions of `level` whose polygons meet `box`, simplified so no vertex strays more
    /// than `tolerance` degrees from the outline (a pixel's width at the zoom drawn); a ring
    /// within two of those each way (an islet at a country's zoom) is left out, and a region with
    /// nothing left is not drawn. Regions in order of code.
    public func drawn(_ level: Level, in box: GeoBox, tolerance: Double) -> [Drawn] {
        let shapes = self[level].shapes
        var byRow: [Int: [[[ShapeVertex]]]] = [:]
        let units = tolerance * ShapeVertex.perDegree
        shapes.tree.forEach(intersecting: box, filter: AdmitAll()) { entry in
            let shape = Int(entry)
            let rings = shapes.rings(of: shape).map { Self.simplified($0, tolerance: units) }
            // Without its outer ring a polygon is not drawn (its holes would be islands).
            guard let outer = rings.first, outer.count >= 3 else { return true }
            byRow[Int(shapes.owners[shape]), default: []].append([outer] + rings.dropFirst().filter { $0.count >= 3 })
            return true
        }
        return byRow.keys.sorted().map { Drawn(row: $0, polygons: byRow[$0] ?? []) }
    }

    /// `ring` (not closed) with the vertices Douglas and Peucker's rule drops at `tolerance`
    /// (fixed-point units) left out, measured in the plane of the coordinates.
    static func simplified(_ ring: [ShapeVertex], tolerance: Double) -> [ShapeVertex] {
        guard tolerance > 0 else { return ring }
        // A ring within two pixels each way is a speck at this zoom: none of it is drawn.
        var (south, west, north, east) = (Int32.max, Int32.max, Int32.min, Int32.min)
        for vertex in ring {
            south = Swift.min(south, vertex.latitude); north = Swift.max(north, vertex.latitude)
            west = Swift.min(west, vertex.longitude); east = Swift.max(east, vertex.longitude)
        }
        if Double(north) - Double(south) < 2 * tolerance && Double(east) - Double(west) < 2 * tolerance { return [] }
        guard ring.count > 3 else { return ring }
        var keep = [Bool](repeating: false, count: ring.count + 1)
        keep[0] = true
        keep[ring.count] = true
        // The ring closed: its first vertex again at the end. Spans to split, on a stack.
        func vertex(_ i: Int) -> ShapeVertex { ring[i == ring.count ? 0 : i] }
        var spans = [(0, ring.count)]
        let squaredTolerance = tolerance * tolerance
        while let (first, last) = spans.popLast() {
            guard last - first > 1 else { continue }
            let a = vertex(first), b = vertex(last)
            let (ax, ay) = (Double(a.longitude), Double(a.latitude))
            let (ex, ey) = (Double(b.longitude) - ax, Double(b.latitude) - ay)
            let length = ex * ex + ey * ey
            var farthest = -1.0, at = first
            for i in (first + 1)..<last {
                let p = vertex(i)
                let (px, py) = (Double(p.longitude) - ax, Double(p.latitude) - ay)
                let t = length > 0 ? Swift.min(Swift.max((px * ex + py * ey) / length, 0), 1) : 0
                let (dx, dy) = (px - t * ex, py - t * ey)
                let squared = dx * dx + dy * dy
                if squared > farthest { farthest = squared; at = i }
            }
            if farthest > squaredTolerance {
                keep[at] = true
                spans.append((first, at))
                spans.append((at, last))
            }
        }
        return ring.indices.filter { keep[$0] }.map { ring[$0] }
    }

    /// The served areas of `index` counted in each region of each level, by kind.
    public struct Counts: Sendable {
        /// Per level, per row.
        public var smoking: [[Int]]
        public var nonsmoking: [[Int]]
    }

    /// Counts every served area in the regions its position lies in.
    public func counts(of index: AreaIndex) -> Counts {
        var counts = Counts(smoking: layers.map { [Int](repeating: 0, count: $0.count) }, nonsmoking: layers.map { [Int](repeating: 0, count: $0.count) })
        let records = index.areas.records
        for position in 0..<records.count where index.isServed(position) {
            let place = place(of: records[position].coordinate)
            for level in Level.allCases {
                guard let row = place.row(level) else { continue }
                if records[position].kind == .smoking { counts.smoking[level.rawValue][row] += 1 } else { counts.nonsmoking[level.rawValue][row] += 1 }
            }
        }
        return counts
    }
}
