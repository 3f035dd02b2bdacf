/// One immutable data set ready to answer queries: the areas sorted by id and a packed
/// R-tree over their positions.
///
/// Built once per refresh and then only read, so any number of threads may query it while a
/// newer one is being built; the server swaps the reference when the new one is ready.
public struct AreaIndex: Sendable {
    /// Every area, sorted by id; tree payloads are positions in this array.
    public let areas: [Area]
    public let tree: PackedRTree
    /// How long building the tree took, in milliseconds.
    public let buildMilliseconds: Double

    /// A query answer: the area's position in `areas`, and its distance when the query had a point.
    public struct Match: Sendable, Hashable {
        public var position: Int
        public var distanceMeters: Double?
    }

    /// Sorts `areas` by id (keeping the first of any repeated id) and builds the tree.
    public init(areas: [Area], nodeSize: Int = 16) {
        // Catalogs hand over areas already in id order: checking is linear, sorting is not.
        var sorted = areas
        let strictlyIncreasing = areas.withUnsafeBufferPointer { buffer in
            buffer.indices.dropFirst().allSatisfy { buffer[$0 - 1].id < buffer[$0].id }
        }
        if !strictlyIncreasing {
            sorted.sort { $0.id < $1.id }
            var write = 0
            for read in sorted.indices where write == 0 || sorted[read].id != sorted[write - 1].id {
                sorted[write] = sorted[read]
                write += 1
            }
            sorted.removeSubrange(write...)
        }
        let clock = ContinuousClock()
        var tree: PackedRTree?
        let elapsed = clock.measure {
            tree = PackedRTree(
                entries: sorted.map { GeoBox($0.coordinate) },
                classes: sorted.map { Self.classMask(of: $0.kind) },
                nodeSize: nodeSize)
        }
        self.areas = sorted
        self.tree = tree ?? PackedRTree(entries: [])
        self.buildMilliseconds = elapsed.milliseconds
    }

    public static let empty = AreaIndex(areas: [])

    public var count: Int { areas.count }

    /// The area with this id, by binary search.
    public func area(id: String) -> Area? {
        var low = 0
        var high = areas.count
        while low < high {
            let mid = (low + high) / 2
            if areas[mid].id < id { low = mid + 1 } else { high = mid }
        }
        return low < areas.count && areas[low].id == id ? areas[low] : nil
    }

    /// Areas inside `box`, edges inclusive, in id order; at most `limit`.
    public func areas(in box: GeoBox, kind: KindFilter = .all, limit: Int = .max) throws(GeoError) -> [Match] {
        guard limit >= 0 else { throw .invalidCount(limit) }
        let payloads = tree.search(intersecting: box, classMask: Self.classMask(of: kind), limit: limit)
        return payloads.sorted().map { Match(position: Int($0), distanceMeters: nil) }
    }

    /// Areas within `meters` of `point`, nearest first, ties by id; at most `limit`.
    public func areas(within meters: Double, of point: GeoPoint, kind: KindFilter = .all, limit: Int = .max) throws(GeoError) -> [Match] {
        guard meters.isFinite, meters >= 0 else { throw .invalidDistance(meters) }
        guard limit >= 0 else { throw .invalidCount(limit) }
        return tree.search(within: meters, of: point, classMask: Self.classMask(of: kind), limit: limit)
            .map { Match(position: Int($0.payload), distanceMeters: $0.distanceMeters) }
    }

    /// The `k` areas nearest to `point`, within `maxMeters` if given, nearest first, ties by id.
    public func nearest(to point: GeoPoint, k: Int, maxMeters: Double? = nil, kind: KindFilter = .all) throws(GeoError) -> [Match] {
        guard k >= 0 else { throw .invalidCount(k) }
        if let maxMeters, !(maxMeters.isFinite && maxMeters >= 0) { throw .invalidDistance(maxMeters) }
        return tree.nearest(to: point, k: k, maxMeters: maxMeters, classMask: Self.classMask(of: kind))
            .map { Match(position: Int($0.payload), distanceMeters: $0.distanceMeters) }
    }

    static func classMask(of kind: AreaKind) -> UInt8 {
        switch kind {
        case .smoking: return 1
        case .nonsmoking: return 2
        }
    }

    static func classMask(of filter: KindFilter) -> UInt8 {
        switch filter {
        case .all: return 0xFF
        case .smoking: return classMask(of: AreaKind.smoking)
        case .nonsmoking: return classMask(of: AreaKind.nonsmoking)
        }
    }
}

extension Duration {
    /// The duration in milliseconds, as a floating-point number.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e3 + Double(attoseconds) * 1e-15
    }
}
