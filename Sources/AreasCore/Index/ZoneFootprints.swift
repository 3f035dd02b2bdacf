/// The non-smoking zones' footprints, for "which zones hold this point": circles of differing
/// radii around the zones' centres.
///
/// A zone holds a point when the point lies within its radius of the centre, so a search for
/// centres within the widest radius, followed by each zone's own test, finds them all. A few
/// wide zones (parks, squares) would make that search wide for every point, so zones much
/// wider than is typical go in a second, smaller band searched with its own widest radius.
/// The centres are points in the trees (16 bytes each), with each zone's radius beside it.
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

    init(bands: [Band]) {
        self.bands = bands
    }

    /// `zones` pairs each zone's centre with its radius and position.
    init(_ zones: [(center: GeoPoint, zone: Zone)], nodeSize: Int) {
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

    /// Calls `visit` with the position of every zone whose footprint holds `origin`, and the
    /// distance to its centre, in no particular order.
    @inline(__always)
    func forEach(holding origin: DistanceOrigin, _ visit: (_ position: Int, _ distanceMeters: Double) -> Void) {
        for band in bands {
            band.radii.withUnsafeBufferPointer { radii in
                band.positions.withUnsafeBufferPointer { positions in
                    band.tree.forEach(within: band.widestMeters, of: origin, filter: AdmitAll()) { entry, distance in
                        if distance <= radii[Int(entry)] { visit(Int(positions[Int(entry)]), distance) }
                        return true
                    }
                }
            }
        }
    }

    /// Bytes held by the trees and the zone lists.
    var byteCount: Int {
        bands.reduce(0) { $0 + $1.tree.byteCount + $1.radii.byteCount + $1.positions.byteCount }
    }
}
