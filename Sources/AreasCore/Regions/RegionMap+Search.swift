/// The regions' names as search reads them: each region's own name and its whole name (its
/// province's, its district's and its own), folded once when the map is made.
final class RegionSearchNames: Sendable {
    /// Per level, per row.
    let own: [[[SearchText.Letter]]]
    let whole: [[[SearchText.Letter]]]

    init(_ layers: [RegionMap.Layer]) {
        own = layers.map { layer in layer.names.map(SearchText.fold) }
        var whole: [[[SearchText.Letter]]] = []
        for level in RegionMap.Level.allCases {
            let layer = layers[level.rawValue]
            whole.append((0..<layer.count).map { row in
                var letters: [SearchText.Letter] = []
                for coarser in RegionMap.Level.allCases where coarser.rawValue < level.rawValue {
                    let holding = layers[coarser.rawValue]
                    if let at = holding.row(ofCode: level.code(layer.codes[row], at: coarser)) { letters += SearchText.fold(holding.names[at]) }
                }
                return letters + SearchText.fold(layer.names[row])
            })
        }
        self.whole = whole
        latin = layers.enumerated().map { level, layer in
            var keys: [String: [Int]] = [:]
            for (row, name) in layer.names.enumerated() {
                for key in Romanisation.placeKeys(name, level: RegionMap.Level(rawValue: level) ?? .town) { keys[key, default: []].append(row) }
            }
            return keys
        }
    }

    /// Per level, the ways a region's name is typed in Latin letters (`seoul`, `yongsangu`,
    /// `yongsan`, `itaewondong`) to its rows.
    let latin: [[String: [Int]]]
}

extension RegionMap {
    /// A region a search found, best first: its own name is the query, begins with the
    /// query's last word, or holds one of its words.
    public struct SearchMatch: Sendable, Equatable {
        public var level: Level
        public var row: Int
        public var rank: Int
    }

    /// Regions whose whole name (`용산구 이태원동`, as `서울특별시 용산구 이태원1동`) holds every
    /// word of `query` and whose own name holds one of them, so that `서울` finds the city, not
    /// each of its towns; best first, then provinces before districts before towns, then by code.
    public func places(matching query: String, limit: Int) -> [SearchMatch] {
        // A name typed in Latin letters (`Yongsan-gu`, `Seoul`): the regions so written.
        if !query.unicodeScalars.contains(where: { (0xAC00...0xD7A3).contains($0.value) }) {
            let key = Romanisation.letters(query)
            if !key.isEmpty {
                let found = Level.allCases.flatMap { level in (searchNames.latin[level.rawValue][key] ?? []).map { SearchMatch(level: level, row: $0, rank: 0) } }
                if !found.isEmpty { return Array(found.prefix(limit)) }
            }
        }
        let words = SearchText.words(of: query)
        guard !words.isEmpty, limit > 0 else { return [] }
        let query = words.flatMap { $0 }
        let last = words[words.count - 1]
        var found: [SearchMatch] = []
        for level in Level.allCases {
            let own = searchNames.own[level.rawValue], whole = searchNames.whole[level.rawValue]
            for row in own.indices where words.contains(where: { SearchText.contains(own[row], $0) }) && words.allSatisfy({ SearchText.contains(whole[row], $0) }) {
                let rank = own[row] == query || own[row] == last ? 0 : own[row].starts(with: last) ? 1 : 2
                found.append(SearchMatch(level: level, row: row, rank: rank))
            }
        }
        found.sort { a, b in
            a.rank != b.rank ? a.rank < b.rank : a.level != b.level ? a.level.rawValue < b.level.rawValue : self[a.level].codes[a.row] < self[b.level].codes[b.row]
        }
        return Array(found.prefix(limit))
    }

    /// Whether `other` holds the same regions (codes and names at every level): a map read again
    /// from the same files is the same map.
    public func isSameMap(as other: RegionMap) -> Bool {
        Level.allCases.allSatisfy { level in
            self[level].count == other[level].count && self[level].names == other[level].names
                && (0..<self[level].count).allSatisfy { self[level].codes[$0] == other[level].codes[$0] }
        }
    }

    /// A point inside the region (of its largest part): the middle of the widest stretch of a
    /// parallel through the middle of that part's box that lies inside it. A box's centre may
    /// fall outside a region curled around a bay; this never does.
    public func point(inside level: Level, row: Int) -> GeoPoint? {
        let shapes = self[level].shapes
        return Self.point(insideLargestOf: shapes.shapes(ownedBy: row).map { shapes.rings(of: $0) })
    }

    /// A point inside the largest of `polygons` (each its outer ring, then its holes): the
    /// middle of the widest stretch of the parallel through the middle of its box that lies
    /// inside it. A label put there sits on the mainland, not in the sea between it and an
    /// island (경상북도 and 울릉도), nor outside a region curled around a bay.
    public static func point(insideLargestOf polygons: [[[ShapeVertex]]]) -> GeoPoint? {
        var best: (rings: [[ShapeVertex]], span: Int64)?
        for rings in polygons {
            guard let outer = rings.first, !outer.isEmpty else { continue }
            let (south, north) = (outer.map(\.latitude).min() ?? 0, outer.map(\.latitude).max() ?? 0)
            let (west, east) = (outer.map(\.longitude).min() ?? 0, outer.map(\.longitude).max() ?? 0)
            let span = Int64(north - south) * Int64(east - west)
            if best.map({ span > $0.span }) ?? true { best = (rings, span) }
        }
        guard let rings = best?.rings, let outer = rings.first else { return nil }
        // Half a unit off the vertices' grid, so the parallel never passes through a vertex.
        let y = (Double(outer.map(\.latitude).min() ?? 0) + Double(outer.map(\.latitude).max() ?? 0)) / 2 + 0.5
        var crossings: [Double] = []
        for ring in rings where ring.count >= 3 {
            for i in ring.indices {
                let a = ring[i], b = ring[(i + 1) % ring.count]
                let (ay, by) = (Double(a.latitude), Double(b.latitude))
                guard (ay < y) != (by < y) else { continue }
                crossings.append(Double(a.longitude) + (y - ay) / (by - ay) * Double(b.longitude - a.longitude))
            }
        }
        crossings.sort()
        var widest: (Double, Double)?
        for pair in stride(from: 0, to: crossings.count - 1, by: 2) where widest.map({ crossings[pair + 1] - crossings[pair] > $0.1 - $0.0 }) ?? true {
            widest = (crossings[pair], crossings[pair + 1])
        }
        guard let (west, east) = widest else { return nil }
        return try? GeoPoint(latitude: y / ShapeVertex.perDegree, longitude: (west + east) / 2 / ShapeVertex.perDegree)
    }
}
