/// A grid over the administrative map in which a cell that no region's edge touches holds one
/// place throughout: most of Korea's seas, mountains and fields, where `where` then answers
/// from the cell, and only a point in a cell an edge crosses is tested polygon by polygon.
///
/// A cell is closed (its sides belong to it), and an edge marks every cell its run comes within
/// one fixed-point unit of, so two unmarked cells side by side share a side no edge touches:
/// each connected stretch of unmarked cells is one place, and is tested once, at one cell's
/// centre, when the grid is built.
public struct RegionGrid: Sendable {
    /// A cell's side, 1/128 of a degree (about 870 m north to south, 690 m east to west in
    /// Seoul), in `ShapeVertex` units.
    public static let cellUnits: Int32 = 78_125
    /// The value of a cell that an edge touches.
    static let crossed = UInt16.max
    /// The most places a grid can name, one fewer than `crossed`.
    static let placeLimit = Int(UInt16.max)
    /// The most cells a grid may have (about 40° by 40°, far more than Korea's 8° by 6°).
    static let cellLimit = 30_000_000

    /// The south-west corner of the grid, in `ShapeVertex` units.
    let south: Int32, west: Int32
    let rows: Int, columns: Int
    /// Per cell, row by row from the south: the place of its stretch, or `crossed`.
    let cells: Column<UInt16>
    /// Per place, three rows (province, district, town), -1 for none.
    let places: Column<Int32>

    public static let empty = RegionGrid(south: 0, west: 0, rows: 0, columns: 0, cells: Column(), places: Column())

    init(south: Int32, west: Int32, rows: Int, columns: Int, cells: Column<UInt16>, places: Column<Int32>) {
        self.south = south
        self.west = west
        self.rows = rows
        self.columns = columns
        self.cells = cells
        self.places = places
    }

    /// The place every point of `point`'s cell lies in; nil when an edge crosses the cell.
    /// Outside the grid no region reaches, and the place is empty.
    @inline(__always)
    func place(at point: GeoPoint) -> RegionMap.Place? {
        let row = ((point.latitude * ShapeVertex.perDegree - Double(south)) / Double(Self.cellUnits)).rounded(.down)
        let column = ((point.longitude * ShapeVertex.perDegree - Double(west)) / Double(Self.cellUnits)).rounded(.down)
        guard row >= 0, column >= 0, row < Double(rows), column < Double(columns) else { return RegionMap.Place() }
        let value = cells[Int(row) * columns + Int(column)]
        guard value != Self.crossed else { return nil }
        let first = Int(value) * 3
        return RegionMap.Place(province: places[first], district: places[first + 1], town: places[first + 2])
    }

    /// The grid over `layers`' polygons, each stretch's place found by `place`.
    init(over layers: [RegionMap.Layer], place: (GeoPoint) -> RegionMap.Place) {
        var extent: (south: Int32, west: Int32, north: Int32, east: Int32) = (.max, .max, .min, .min)
        for layer in layers {
            for vertex in layer.shapes.vertices {
                extent = (min(extent.south, vertex.latitude), min(extent.west, vertex.longitude), max(extent.north, vertex.latitude), max(extent.east, vertex.longitude))
            }
        }
        guard extent.south <= extent.north else {
            self = .empty
            return
        }
        // One cell of margin on every side, so a vertex's cell and its neighbours are inside.
        let cell = Int64(Self.cellUnits)
        let south = (Int64(extent.south) / cell - 2) * cell, west = (Int64(extent.west) / cell - 2) * cell
        let rows = Int((Int64(extent.north) - south) / cell + 3), columns = Int((Int64(extent.east) - west) / cell + 3)
        guard rows * columns <= Self.cellLimit else {
            self = .empty
            return
        }
        var marks = [Bool](repeating: false, count: rows * columns)
        func mark(south s: Double, west w: Double, north n: Double, east e: Double) {
            let low = (Int(((s - 1 - Double(south)) / Double(cell)).rounded(.down)), Int(((w - 1 - Double(west)) / Double(cell)).rounded(.down)))
            let high = (Int(((n + 1 - Double(south)) / Double(cell)).rounded(.down)), Int(((e + 1 - Double(west)) / Double(cell)).rounded(.down)))
            for row in max(low.0, 0)...min(high.0, rows - 1) {
                for column in max(low.1, 0)...min(high.1, columns - 1) { marks[row * columns + column] = true }
            }
        }
        for layer in layers {
            let shapes = layer.shapes
            for ring in 0..<(shapes.ringStarts.count - 1) {
                let first = Int(shapes.ringStarts[ring]), end = Int(shapes.ringStarts[ring + 1])
                for i in first..<end {
                    let a = shapes.vertices[i], b = shapes.vertices[i + 1 == end ? first : i + 1]
                    let (ay, ax, by, bx) = (Double(a.latitude), Double(a.longitude), Double(b.latitude), Double(b.longitude))
                    // A long edge in pieces shorter than a cell, each marking its own box.
                    let pieces = Int(max(abs(by - ay), abs(bx - ax)) / Double(cell)) + 1
                    for piece in 0..<pieces {
                        let (t0, t1) = (Double(piece) / Double(pieces), Double(piece + 1) / Double(pieces))
                        let (y0, x0, y1, x1) = (ay + (by - ay) * t0, ax + (bx - ax) * t0, ay + (by - ay) * t1, ax + (bx - ax) * t1)
                        mark(south: min(y0, y1), west: min(x0, x1), north: max(y0, y1), east: max(x0, x1))
                    }
                }
            }
        }
        var cells = [UInt16](repeating: Self.crossed, count: rows * columns)
        var places: [Int32] = []
        var known: [RegionMap.Place: UInt16] = [:]
        var stack: [Int] = []
        for start in 0..<cells.count where !marks[start] && cells[start] == Self.crossed {
            let centre = GeoPoint(uncheckedLatitude: (Double(south) + (Double(start / columns) + 0.5) * Double(cell)) / ShapeVertex.perDegree,
                                  longitude: (Double(west) + (Double(start % columns) + 0.5) * Double(cell)) / ShapeVertex.perDegree)
            let found = place(centre)
            let value: UInt16
            if let seen = known[found] {
                value = seen
            } else {
                guard known.count < Self.placeLimit else { break }
                value = UInt16(known.count)
                known[found] = value
                places.append(contentsOf: [found.province, found.district, found.town])
            }
            cells[start] = value
            stack.append(start)
            while let cellNumber = stack.popLast() {
                let (row, column) = (cellNumber / columns, cellNumber % columns)
                for (r, c) in [(row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)] where r >= 0 && c >= 0 && r < rows && c < columns {
                    let neighbour = r * columns + c
                    if !marks[neighbour] && cells[neighbour] == Self.crossed {
                        cells[neighbour] = value
                        stack.append(neighbour)
                    }
                }
            }
        }
        self.init(south: Int32(south), west: Int32(west), rows: rows, columns: columns, cells: Column(cells), places: Column(places))
    }

    /// The share of cells no edge touches.
    public var uniformShare: Double {
        cells.isEmpty ? 0 : Double(cells.reduce(0) { $0 + ($1 == Self.crossed ? 0 : 1) }) / Double(cells.count)
    }

    public var byteCount: Int { cells.byteCount + places.byteCount }
}

extension RegionGrid {
    /// Lays the grid out: its corner and size, its cells and its places.
    func write(to writer: inout some FlatLayoutWriter) {
        writer.column(Column([Int64(south), Int64(west), Int64(rows), Int64(columns)]))
        writer.column(cells)
        writer.column(places)
    }

    /// Reads a grid laid out by `write(to:)` over `layers`, checking its size, that every cell
    /// names a place it has (or none), and that every place's rows are rows of their levels.
    init(reading reader: inout some FlatLayoutReader, layers: [RegionMap.Layer]) throws(FlatLayoutError) {
        let corner = try reader.column("the region grid's corner and size", of: Int64.self, count: 4)
        let (south, west, rows, columns) = (corner[0], corner[1], corner[2], corner[3])
        guard (-900_000_000...900_000_000).contains(south), (-1_800_000_000...1_800_000_000).contains(west),
              rows >= 0, columns >= 0, rows <= Int64(Self.cellLimit), columns <= Int64(Self.cellLimit), rows * columns <= Int64(Self.cellLimit) else {
            throw FlatLayoutError("the region grid's corner (\(south), \(west)) or size \(rows) by \(columns) is not one this build makes")
        }
        let cells = try reader.column("the region grid's cells", of: UInt16.self, count: Int(rows * columns))
        let places = try reader.column(of: Int32.self)
        guard places.count % 3 == 0, places.count / 3 <= Self.placeLimit else { throw FlatLayoutError("the region grid's places are not rows in threes") }
        for (i, row) in places.enumerated() where !(-1..<Int32(layers[i % 3].count)).contains(row) {
            throw FlatLayoutError("region grid place \(i / 3) names \(RegionMap.Level.allCases[i % 3].name) row \(row) of \(layers[i % 3].count)")
        }
        let placeCount = places.count / 3
        if let bad = cells.firstIndex(where: { $0 != Self.crossed && Int($0) >= placeCount }) {
            throw FlatLayoutError("region grid cell \(bad) names place \(cells[bad]) of \(placeCount)")
        }
        self.init(south: Int32(south), west: Int32(west), rows: Int(rows), columns: Int(columns), cells: cells, places: places)
    }
}
