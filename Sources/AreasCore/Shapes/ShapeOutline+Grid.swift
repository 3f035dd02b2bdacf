extension ShapeOutline {
    /// Marching squares over one shape's distance field: which grid nodes lie within `level`
    /// meters of the footprint's shape (inside a polygon counting as within), and the loops
    /// that part them from the rest, each with the inside on its left.
    struct Grid {
        let index: ShapeIndex
        let isPolygon: Bool
        let plane: LocalPlane
        let level: Double
        let cell: Double
        let origin: (x: Double, y: Double)
        let columns: Int
        let rows: Int
        /// How far beyond the level a node's distance is measured; past it, only the side counts.
        let reach: Double
        /// The runs of edges a measurement reads (each one's box first): every run of the shape.
        let runsPerMeasurement: Int
        let meter: WorkMeter

        init(index: ShapeIndex, isPolygon: Bool, plane: LocalPlane, level: Double, cell: Double, origin: (Double, Double), spanX: Double, spanY: Double,
             workLimit: Int) {
            self.index = index
            self.isPolygon = isPolygon
            self.plane = plane
            self.level = level
            self.cell = cell
            self.origin = origin
            columns = Swift.max(Int((spanX / cell).rounded(.up)), 2)
            rows = Swift.max(Int((spanY / cell).rounded(.up)), 2)
            reach = 16 * cell
            runsPerMeasurement = Swift.max(Int(index.ringChunks[index.ringChunks.count - 1]), 1)
            meter = WorkMeter(limit: workLimit)
        }

        /// The shape's distance at (`x`, `y`) less the level: negative inside the outline. Past
        /// `reach` on either side the value is a bound, not the distance (it keeps its sign).
        func excess(_ x: Double, _ y: Double) -> Double {
            meter.used += runsPerMeasurement
            let point = plane.point(x: x, y: y)
            let cutoff = level + reach
            let nearest = Swift.min(index.nearestEdgeMeters(0, point, within: cutoff), cutoff)
            if isPolygon && index.contains(0, point) { return -nearest - level }
            return nearest - level
        }

        func x(_ column: Int) -> Double { origin.x + Double(column) * cell }
        func y(_ row: Int) -> Double { origin.y + Double(row) * cell }

        /// Which nodes lie inside, row by row, and the excess of those measured (NaN for the
        /// rest). The distance changes by at most a cell's side from node to node, so a node far
        /// from the level decides the nodes beside it unmeasured.
        func insideNodes() -> (inside: [Bool], measured: [Double])? {
            var inside = [Bool](repeating: false, count: (columns + 1) * (rows + 1))
            var measured = [Double](repeating: .nan, count: inside.count)
            for row in 0...rows {
                guard meter.used <= meter.limit else { return nil }
                var column = 0
                while column <= columns {
                    let excess = excess(x(column), y(row))
                    measured[row * (columns + 1) + column] = excess
                    let alike = Swift.max(Int((abs(excess) / cell).rounded(.down)) - 1, 0)
                    for k in column...Swift.min(column + alike, columns) { inside[row * (columns + 1) + k] = excess <= 0 }
                    column += alike + 1
                }
            }
            return (inside, measured)
        }

        /// Where the level crosses the segment from `a` (inside, excess `fa`) to `b` (outside,
        /// `fb`): regula falsi with the Illinois step (the distance is close to linear there,
        /// so a few steps close the bracket), answering the bracket's outside end.
        func crossing(from a: (Double, Double), _ fa: Double, to b: (Double, Double), _ fb: Double) -> (Double, Double) {
            var (a, fa, b, fb) = (a, fa, b, fb)
            var lastInside: Bool?
            for _ in 0..<12 {
                let (dx, dy) = (b.0 - a.0, b.1 - a.1)
                if dx * dx + dy * dy < 1e-6 { break }
                let t = Swift.min(Swift.max(fa / (fa - fb), 0.01), 0.99)
                let middle = (a.0 + t * dx, a.1 + t * dy)
                let value = excess(middle.0, middle.1)
                if value <= 0 {
                    (a, fa) = (middle, value)
                    if lastInside == true { fb /= 2 }
                    lastInside = true
                } else {
                    (b, fb) = (middle, value)
                    if lastInside == false { fa /= 2 }
                    lastInside = false
                }
            }
            return b
        }

        /// The closed loops of the outline, in meters on the plane; nil when drawing them would
        /// read more runs of edges than the limit.
        func loops() -> [[(Double, Double)]]? {
            guard let (inside, measured) = insideNodes() else { return nil }
            let stride = columns + 1
            // A grid edge by number: twice a node's, plus one for the edge north of it.
            func node(_ column: Int, _ row: Int) -> Int { row * stride + column }
            var next: [Int: Int] = [:]
            for row in 0..<rows {
                for column in 0..<columns {
                    let southwest = inside[node(column, row)]
                    if inside[node(column + 1, row)] == southwest && inside[node(column + 1, row + 1)] == southwest
                        && inside[node(column, row + 1)] == southwest { continue }
                    let corners = [node(column, row), node(column + 1, row), node(column + 1, row + 1), node(column, row + 1)]
                    let sides = corners.map { inside[$0] }
                    // The cell's edges counter-clockwise: south, east, north, west.
                    let edges = [2 * corners[0], 2 * corners[1] + 1, 2 * corners[3], 2 * corners[0] + 1]
                    let leaving = (0..<4).filter { sides[$0] && !sides[($0 + 1) % 4] }
                    if leaving.count == 1 {
                        let entering = (0..<4).first { !sides[$0] && sides[($0 + 1) % 4] } ?? 0
                        next[edges[leaving[0]]] = edges[entering]
                    } else {
                        // A saddle: the centre says whether the inside corners meet through it.
                        let joined = excess(x(column) + cell / 2, y(row) + cell / 2) <= 0
                        for k in leaving { next[edges[k]] = edges[joined ? (k + 1) % 4 : (k + 3) % 4] }
                    }
                }
            }
            var crossings: [Int: (Double, Double)] = [:]
            func crossing(_ edge: Int) -> (Double, Double) {
                if let known = crossings[edge] { return known }
                let first = edge / 2
                let (column, row) = (first % stride, first / stride)
                let second = edge % 2 == 0 ? node(column + 1, row) : node(column, row + 1)
                let ends = [(first, (x(column), y(row))), (second, edge % 2 == 0 ? (x(column + 1), y(row)) : (x(column), y(row + 1)))]
                let values = ends.map { number, at in measured[number].isNaN ? excess(at.0, at.1) : measured[number] }
                let (i, o) = inside[first] ? (0, 1) : (1, 0)
                let b = self.crossing(from: ends[i].1, values[i], to: ends[o].1, values[o])
                crossings[edge] = b
                return b
            }
            var loops: [[(Double, Double)]] = []
            var unvisited = next
            while let start = unvisited.keys.first {
                var loop: [(Double, Double)] = []
                var edge = start
                while let following = unvisited.removeValue(forKey: edge) {
                    loop.append(crossing(edge))
                    edge = following
                }
                if edge == start && loop.count >= 3 { loops.append(loop) }
                if meter.used > meter.limit { return nil }
            }
            return loops
        }
    }
}

/// The work an outline has done and may do, counted in runs of edges read.
final class WorkMeter {
    var used = 0
    let limit: Int

    init(limit: Int) { self.limit = limit }
}
