/// Finds the pairs of segments whose boxes overlap, with work bounded by the pairs found,
/// however the segments lie.
///
/// Segments are swept in order of their western ends. The ones still open (their eastern end
/// not yet passed) sit in a tree ordered by their southern ends that keeps, in each node, the
/// northernmost end below it: a new segment finds the open ones whose latitudes overlap its own
/// by walking only into nodes that hold one, so each step costs about log n for every segment
/// it finds, plus log n. A comb of 25,000 teeth, whose teeth all stay open across the sweep,
/// costs what a circle of as many vertices costs. Every node visited counts against a budget.
struct SegmentSweep {
    /// A segment's ends in fixed point.
    struct Segment {
        var a: ShapeVertex
        var b: ShapeVertex
    }

    private let segments: [Segment]

    init(_ segments: [Segment]) { self.segments = segments }

    /// Calls `visit(i, j)` once for every pair of segments whose boxes overlap (i swept after
    /// j), until it returns false. Returns false when the nodes visited would pass `budget`
    /// (which is spent by them), true when every pair was visited or `visit` stopped it.
    func forEachOverlappingPair(budget: inout Int, _ visit: (Int, Int) -> Bool) -> Bool {
        let n = segments.count
        guard n > 1 else { return true }
        var west = [Int64](repeating: 0, count: n), east = west, south = west, north = west
        for (i, s) in segments.enumerated() {
            west[i] = Int64(Swift.min(s.a.longitude, s.b.longitude))
            east[i] = Int64(Swift.max(s.a.longitude, s.b.longitude))
            south[i] = Int64(Swift.min(s.a.latitude, s.b.latitude))
            north[i] = Int64(Swift.max(s.a.latitude, s.b.latitude))
        }
        let byWest = (0..<n).sorted { west[$0] < west[$1] }
        let byEast = (0..<n).sorted { east[$0] < east[$1] }
        let bySouth = (0..<n).sorted { south[$0] < south[$1] }
        let sortedSouths = bySouth.map { south[$0] }
        var rankOf = [Int](repeating: 0, count: n)
        for (rank, i) in bySouth.enumerated() { rankOf[i] = rank }
        var size = 1
        while size < n { size <<= 1 }
        // Per node, the northernmost end among the open segments below it.
        var northernmost = [Int64](repeating: .min, count: 2 * size)
        func set(_ rank: Int, _ value: Int64) {
            var node = size + rank
            northernmost[node] = value
            while node > 1 {
                node >>= 1
                northernmost[node] = Swift.max(northernmost[2 * node], northernmost[2 * node + 1])
            }
        }
        var stack: [(node: Int, low: Int, high: Int)] = []
        var closing = 0
        for i in byWest {
            while closing < n && east[byEast[closing]] < west[i] {
                set(rankOf[byEast[closing]], .min)
                closing += 1
            }
            // The open segments that begin south of this one's north (ranks below `limit`)
            // and end north of its south.
            var low = 0, high = n
            while low < high {
                let middle = (low + high) / 2
                if sortedSouths[middle] <= north[i] { low = middle + 1 } else { high = middle }
            }
            let limit = low
            if limit > 0 {
                stack.removeAll(keepingCapacity: true)
                stack.append((1, 0, size))
                while let (node, from, to) = stack.popLast() {
                    budget -= 1
                    if budget < 0 { return false }
                    guard from < limit, northernmost[node] >= south[i] else { continue }
                    if to - from == 1 {
                        if !visit(i, bySouth[from]) { return true }
                        continue
                    }
                    let middle = (from + to) / 2
                    stack.append((2 * node + 1, middle, to))
                    stack.append((2 * node, from, middle))
                }
            }
            set(rankOf[i], north[i])
        }
        return true
    }
}

/// How two segments meet, in exact integer arithmetic on fixed-point vertices.
enum SegmentContact: Equatable {
    case none
    /// They cross at a point inside both (rounded to the nearest fixed-point vertex).
    case crossing(ShapeVertex)
    /// One's end lies on the other (or they share an end).
    case touching(ShapeVertex)
    /// They lie along one line and share a stretch of it, between these two points.
    case overlapping(ShapeVertex, ShapeVertex)

    static func orientation(_ p: ShapeVertex, _ q: ShapeVertex, _ r: ShapeVertex) -> Int {
        let value = Int128(Int64(q.longitude) - Int64(p.longitude)) * Int128(Int64(r.latitude) - Int64(p.latitude))
            - Int128(Int64(q.latitude) - Int64(p.latitude)) * Int128(Int64(r.longitude) - Int64(p.longitude))
        return value > 0 ? 1 : value < 0 ? -1 : 0
    }

    /// Whether `r`, on the line through `p` and `q`, lies within their box.
    static func within(_ p: ShapeVertex, _ q: ShapeVertex, _ r: ShapeVertex) -> Bool {
        Swift.min(p.longitude, q.longitude) <= r.longitude && r.longitude <= Swift.max(p.longitude, q.longitude)
            && Swift.min(p.latitude, q.latitude) <= r.latitude && r.latitude <= Swift.max(p.latitude, q.latitude)
    }

    init(_ p1: ShapeVertex, _ p2: ShapeVertex, _ q1: ShapeVertex, _ q2: ShapeVertex) {
        let o1 = Self.orientation(p1, p2, q1), o2 = Self.orientation(p1, p2, q2)
        let o3 = Self.orientation(q1, q2, p1), o4 = Self.orientation(q1, q2, p2)
        if o1 == 0 && o2 == 0 {
            // One line: the stretch both cover, if any.
            let onBoth = [p1, p2, q1, q2].filter { Self.within(p1, p2, $0) && Self.within(q1, q2, $0) }
            var distinct: [ShapeVertex] = []
            for v in onBoth where !distinct.contains(v) { distinct.append(v) }
            switch distinct.count {
            case 0: self = .none
            case 1: self = .touching(distinct[0])
            default: self = .overlapping(distinct[0], distinct[1])
            }
            return
        }
        if o1 * o2 < 0 && o3 * o4 < 0 {
            self = .crossing(Self.crossingPoint(p1, p2, q1, q2))
            return
        }
        if o1 == 0 && Self.within(p1, p2, q1) { self = .touching(q1); return }
        if o2 == 0 && Self.within(p1, p2, q2) { self = .touching(q2); return }
        if o3 == 0 && Self.within(q1, q2, p1) { self = .touching(p1); return }
        if o4 == 0 && Self.within(q1, q2, p2) { self = .touching(p2); return }
        self = .none
    }

    /// Where two crossing segments cross, to the nearest fixed-point vertex.
    static func crossingPoint(_ p1: ShapeVertex, _ p2: ShapeVertex, _ q1: ShapeVertex, _ q2: ShapeVertex) -> ShapeVertex {
        let (dx1, dy1) = (Int128(p2.longitude) - Int128(p1.longitude), Int128(p2.latitude) - Int128(p1.latitude))
        let (dx2, dy2) = (Int128(q2.longitude) - Int128(q1.longitude), Int128(q2.latitude) - Int128(q1.latitude))
        let (ex, ey) = (Int128(q1.longitude) - Int128(p1.longitude), Int128(q1.latitude) - Int128(p1.latitude))
        var denominator = dx1 * dy2 - dy1 * dx2
        var numerator = ex * dy2 - ey * dx2
        if denominator < 0 { denominator = -denominator; numerator = -numerator }
        func rounded(_ value: Int128) -> Int128 {
            // value / denominator to the nearest whole number, halves away from zero.
            let twice = 2 * value
            return twice >= 0 ? (twice + denominator) / (2 * denominator) : -((-twice + denominator) / (2 * denominator))
        }
        return ShapeVertex(latitude: Int32(Int128(p1.latitude) + rounded(numerator * dy1)),
                           longitude: Int32(Int128(p1.longitude) + rounded(numerator * dx1)))
    }
}
