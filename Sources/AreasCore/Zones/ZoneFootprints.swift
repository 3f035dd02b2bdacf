/// The non-smoking zones' footprints, for "which zones hold this point": circles of differing
/// radii around the zones' centres.
///
/// A zone holds a point when the point lies within its radius of the centre, so a search for
/// centres within the widest radius, followed by each zone's own test, finds them all. A few
/// wide zones (parks, squares) would make that search wide for every point, so zones much
/// wider than is typical go in a second, smaller band searched with its own widest radius.
/// The centres are points in the trees (16 bytes each), with each zone's radius beside it.
///
/// Beside the bands, every record's footprint as the rule drew it (`FootprintPolicy`), packed
/// in one word, so that answers say what a zone's footprint rests on without reading the
/// record's fields again.
struct ZoneFootprints: Sendable {
    /// One band of zones: a tree over their centres, whose payloads index `radii` and `positions`.
    struct Band: Sendable {
        var tree: PackedRTree
        /// Each zone's footprint radius in meters.
        var radii: Column<Double>
        /// Each zone's position in the area table.
        var positions: Column<UInt32>
        var widestMeters: Double
    }

    struct Zone: Sendable {
        var radiusMeters: Double
        /// The zone's position in the area table.
        var position: UInt32
    }

    let bands: [Band]
    /// The zones whose source gave a shape: polygons and corridors, owned by table positions
    /// (in ascending order).
    let shapes: ShapeIndex
    /// Each record's footprint by its position in the table; `.none` for a smoking area.
    let packed: Column<ZoneFootprint.Packed>

    init(bands: [Band], shapes: ShapeIndex, packed: Column<ZoneFootprint.Packed>) {
        self.bands = bands
        self.shapes = shapes
        self.packed = packed
    }

    /// The footprints of `table`'s zones drawn by `policy`; the bands hold the `served` ones
    /// (not a record merged into another's area or hidden by the operator).
    init(_ table: AreaTable, policy: FootprintPolicy, served: (Int) -> Bool, nodeSize: Int) {
        let records = table.records
        var zones: [(center: GeoPoint, zone: Zone)] = []
        var shaped: [(owner: UInt32, shape: Shape, widthMeters: Double)] = []
        // A source's records are one run: its columns are looked up once a run.
        var keys: (source: StringArena.Ref, keys: FootprintPolicy.ColumnKeys)?
        let packed = Column<ZoneFootprint.Packed>(unsafeUninitializedCount: records.count) { packed in table.withBuffers { areas in
            for i in records.indices {
                guard records[i].kind == .nonsmoking else {
                    packed[i] = .none
                    continue
                }
                if keys?.source != records[i].source {
                    keys = (records[i].source, policy.keys(of: table.strings.string(records[i].source)))
                }
                let (footprint, words, shape) = policy.footprint(of: areas, at: i, keys: keys?.keys ?? policy.keys(of: ""))
                packed[i] = ZoneFootprint.Packed(footprint, words: words)
                guard served(i) else { continue }
                if let shape {
                    shaped.append((UInt32(i), shape, footprint.widthMeters))
                } else {
                    // The bands test the radius the answers state, to the centimeter.
                    zones.append((records[i].coordinate, Zone(radiusMeters: packed[i].radiusMeters, position: UInt32(i))))
                }
            }
        } }
        self.init(zones, shapes: ShapeIndex(shaped, nodeSize: nodeSize), packed: packed, nodeSize: nodeSize)
    }

    /// `zones` pairs each zone's centre with its radius and position.
    init(_ zones: [(center: GeoPoint, zone: Zone)], shapes: ShapeIndex, packed: Column<ZoneFootprint.Packed>, nodeSize: Int) {
        self.packed = packed
        self.shapes = shapes
        guard !zones.isEmpty else {
            bands = []
            return
        }
        // "Much wider than typical": more than twice the median radius.
        var radii = zones.map(\.zone.radiusMeters)
        radii.sort()
        let split = 2 * radii[radii.count / 2]
        let narrow = zones.filter { $0.zone.radiusMeters <= split }
        let wide = zones.filter { $0.zone.radiusMeters > split }
        bands = [narrow, wide].filter { !$0.isEmpty }.map { members in
            Band(tree: PackedRTree(entries: members.map { GeoBox($0.center) }, nodeSize: nodeSize),
                 radii: Column(members.map(\.zone.radiusMeters)),
                 positions: Column(members.map(\.zone.position)),
                 widestMeters: members.reduce(0) { Swift.max($0, $1.zone.radiusMeters) })
        }
    }

    /// Calls `visit` with the position of every zone whose footprint holds `origin`, the
    /// distance to its centre and the distance to its footprint's edge, in no particular order.
    /// Throws `tooExpensive` when the circles measured there and the runs of the shapes' edges
    /// read would pass `workLimit` (30,000 circles of 300 m around one point are 30,000).
    @inline(__always)
    func forEach(holding origin: DistanceOrigin, workLimit: Int, coordinate: (Int) -> GeoPoint,
                 _ visit: (_ position: Int, _ distanceMeters: Double, _ edgeMeters: Double) -> Void) throws(GeoError) {
        var work = 0
        for band in bands {
            band.radii.withUnsafeBufferPointer { radii in
                band.positions.withUnsafeBufferPointer { positions in
                    band.tree.forEach(within: band.widestMeters, of: origin, filter: AdmitAll()) { entry, distance in
                        work += 1
                        let radius = radii[Int(entry)]
                        if distance <= radius { visit(Int(positions[Int(entry)]), distance, radius - distance) }
                        return work <= workLimit
                    }
                }
            }
        }
        guard work <= workLimit else {
            throw .tooExpensive("more zones' footprints hold this point than one request may measure; ask elsewhere, or ask the operator to look at the data there")
        }
        guard shapes.count > 0 else { return }
        let point = origin.point
        let finished = shapes.forEach(holding: point, workLimit: workLimit - work) { hit in
            visit(hit.owner, Geodesy.distance(from: origin, to: coordinate(hit.owner)), hit.edgeMeters)
        }
        guard finished else {
            throw .tooExpensive("the zones' shapes at this point have more edges than one request may read; ask elsewhere, or ask the operator to simplify the shapes")
        }
    }

    /// Bytes held by the trees, the zone lists, the shapes and the packed footprints.
    var byteCount: Int {
        bands.reduce(packed.byteCount + shapes.byteCount) { $0 + $1.tree.byteCount + $1.radii.byteCount + $1.positions.byteCount }
    }
}

/// How a run of records' footprints were drawn: how many rest on each basis, and how many
/// the rule clamped or could not read.
public struct FootprintCounts: Sendable, Equatable {
    public var byBasis: [FootprintBasis: Int] = [:]
    public var clamped = 0
    public var wordsNotUnderstood = 0
    public var sizeNotUnderstood = 0

    public var zones: Int { byBasis.values.reduce(0, +) }

    public init() {}

    mutating func add(_ footprint: ZoneFootprint) {
        byBasis[footprint.basis, default: 0] += 1
        if footprint.clamped { clamped += 1 }
        if footprint.wordsNotUnderstood { wordsNotUnderstood += 1 }
        if footprint.sizeNotUnderstood { sizeNotUnderstood += 1 }
    }
}

extension AreaIndex {
    /// The footprints of the zones among the records at `positions` (one source's run).
    public func footprintCounts(in positions: Range<Int>) -> FootprintCounts {
        var counts = FootprintCounts()
        for position in positions.clamped(to: 0..<footprints.packed.count) {
            if let footprint = footprints.packed[position].footprint { counts.add(footprint) }
        }
        return counts
    }
}
