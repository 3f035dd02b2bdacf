import Dispatch

/// One immutable data set ready to answer queries: the areas sorted by id and a packed
/// R-tree over their positions.
///
/// Built once per refresh and then only read, so any number of threads may query it while a
/// newer one is being built; the server swaps the reference when the new one is ready.
public struct AreaIndex: Sendable {
    /// Every area, sorted by id; tree payloads are positions in this table.
    public let areas: AreaTable
    public let tree: PackedRTree
    /// The non-smoking zones' footprints, for `check`.
    let footprints: ZoneFootprints
    /// How zones' published words and sizes become footprints.
    public let footprintPolicy: FootprintPolicy
    /// Which records are served as one area, and the policy that made them so. Only the
    /// leading record of each area is in the trees; the others answer through it.
    public let groups: AreaGroups
    public let mergePolicy: MergePolicy
    /// The operator's corrections as applied: moved and renamed areas are so in `areas`;
    /// hidden ones are in no tree.
    public let overrides: AppliedOverrides
    /// Lines of the corrections that could not be applied (an id the data lacks, a repeat),
    /// for the refresh's report; empty for an index read from a snapshot.
    public let overrideProblems: [String]
    /// How long building this index took, in milliseconds: its tree here, the whole data set
    /// (merging, footprints, trees) as the store that built it measured; nil for an index
    /// read from a snapshot, which no one built in this process.
    public package(set) var buildMilliseconds: Double?
    /// The tree's per-node counts for `clusters`, made on first use.
    let summaryCache = TreeSummaryCache()

    /// A query answer: the area's position in `areas`, and its distance when the query had a point.
    public struct Match: Sendable, Hashable {
        public var position: Int
        public var distanceMeters: Double?
    }

    /// Sorts `areas` by id (keeping the first of any repeated id) and builds the tree.
    public init(areas: [Area], nodeSize: Int = PackedRTree.defaultNodeSize, footprint: FootprintPolicy = .standard, merge: MergePolicy = .off) {
        self.init(table: AreaTable(areas: areas), nodeSize: nodeSize, footprint: footprint, merge: merge)
    }

    /// Orders `table` by id (keeping the first of any repeated id) and builds the trees.
    public init(table: AreaTable, nodeSize: Int = PackedRTree.defaultNodeSize, footprint: FootprintPolicy = .standard, merge: MergePolicy = .off) {
        self.init(sortedTable: table.sortedByID(), nodeSize: nodeSize, footprint: footprint, merge: merge)
    }

    /// Merges `sorted`'s records as `merge` says and builds the trees over the areas; `sorted`
    /// is already in id order without repeats (a catalog's table is: it was put in order when
    /// the catalog was made).
    /// `searchable` false leaves the search index empty (for measuring what it costs).
    /// `keepingSearch` is given the search index as soon as it is built, before the trees, and
    /// hands back the one to serve: a refresh moves it to a file there, so that the build never
    /// holds the search index and the trees in memory together.
    package init(sortedTable original: AreaTable, nodeSize: Int = PackedRTree.defaultNodeSize, footprint: FootprintPolicy = .standard,
                 merge: MergePolicy = .off, overrides lines: [AreaOverride] = [], addedSource: String = AreaOverride.addedSource,
                 searchable: Bool = true, keepingSearch keep: (SearchIndex) -> SearchIndex = { $0 }) {
        let clock = ContinuousClock()
        let start = clock.now
        let groups = AreaGroups.merging(original, policy: merge)
        let (sorted, applied, problems) = AppliedOverrides.apply(lines, to: original, groups: groups, addedSource: addedSource)
        // A record merged into another's area, or of an area the operator hid, is in no tree.
        @Sendable func served(_ position: Int) -> Bool { !groups.isMerged(position) && (applied.isEmpty || !applied.hides(position)) }
        // The area tree, the smoking-area tree and the zone footprints are independent: build
        // them side by side.
        final class Built: @unchecked Sendable {
            var tree = PackedRTree(entries: [])
            var treeMilliseconds = 0.0
            var footprints = ZoneFootprints([], shapes: .empty, packed: Column(), nodeSize: 16)
            var smokingTree = PackedRTree(entries: [])
            var smokingPositions = Column<UInt32>()
            var regionNames: RegionNames?
        }
        let built = Built()
        let records = sorted.records
        // The search index first and alone (its parts side by side): the largest part of an
        // index, it is kept as `keep` says before the trees take their memory.
        self.search = keep(Self.searchIndex(of: sorted, served: served, searchable: searchable))
        DispatchQueue.concurrentPerform(iterations: 4) { part in
            if part == 3 {
                built.regionNames = RegionNames(sorted)
            } else if part == 2 {
                let positions = records.indices.filter { records[$0].kind == .smoking && served($0) }
                built.smokingTree = PackedRTree(entries: positions.map { GeoBox(records[$0].coordinate) }, nodeSize: nodeSize)
                built.smokingPositions = Column(positions.map { UInt32($0) })
            } else if part == 0 {
                // A merged record stays in the tree with no class, so no query finds it.
                built.tree = PackedRTree(
                    entries: records.map { GeoBox($0.coordinate) },
                    classes: records.indices.map { served($0) ? Self.classMask(of: records[$0].kind) : 0 },
                    nodeSize: nodeSize)
                built.treeMilliseconds = (clock.now - start).milliseconds
            } else {
                built.footprints = ZoneFootprints(sorted, policy: footprint, served: served, nodeSize: nodeSize)
            }
        }
        self.areas = sorted
        self.tree = built.tree
        self.buildMilliseconds = built.treeMilliseconds
        self.footprintPolicy = footprint
        self.footprints = built.footprints
        self.smokingTree = built.smokingTree
        self.smokingPositions = built.smokingPositions
        self.regionNames = built.regionNames ?? RegionNames(sorted)
        self.groups = groups
        self.mergePolicy = merge
        self.overrides = applied
        self.overrideProblems = problems
    }

    /// The search index over `table`'s served records (empty when not `searchable`): its parts
    /// count their keys side by side, then place their postings side by side. The builder and
    /// its counts are gone when this returns.
    private static func searchIndex(of table: AreaTable, served: @escaping @Sendable (Int) -> Bool, searchable: Bool) -> SearchIndex {
        let builder = SearchIndexBuilder(table, served: served, parts: searchable ? nil : 0)
        DispatchQueue.concurrentPerform(iterations: builder.partCount) { builder.count(part: $0) }
        builder.lay()
        DispatchQueue.concurrentPerform(iterations: builder.partCount) { builder.place(part: $0) }
        return builder.index()
    }

    /// An index from parts read back from a snapshot and checked there.
    init(areas: AreaTable, tree: PackedRTree, smokingTree: PackedRTree, smokingPositions: Column<UInt32>,
         footprints: ZoneFootprints, footprintPolicy: FootprintPolicy, groups: AreaGroups, mergePolicy: MergePolicy, overrides: AppliedOverrides,
         search: SearchIndex) {
        self.search = search
        self.groups = groups
        self.mergePolicy = mergePolicy
        self.overrides = overrides
        self.overrideProblems = []
        self.areas = areas
        self.tree = tree
        self.smokingTree = smokingTree
        self.smokingPositions = smokingPositions
        self.footprints = footprints
        self.footprintPolicy = footprintPolicy
        self.buildMilliseconds = nil
        self.regionNames = RegionNames(areas)
    }

    /// The data set's province and district names, for resolving a query's region once.
    let regionNames: RegionNames
    /// The served areas' names and addresses by pairs of letters, for `search`.
    public let search: SearchIndex

    /// The smoking areas alone, a small minority: "the nearest place to smoke" searches this
    /// instead of wading through the zones. Payloads index `smokingPositions`, which is in id
    /// order, so ties still break by id.
    let smokingTree: PackedRTree
    let smokingPositions: Column<UInt32>

    /// How many areas of `kind` the index serves.
    public func count(of kind: AreaKind) -> Int {
        kind == .smoking ? smokingPositions.count : count - smokingPositions.count
    }

    /// Bytes held by the spatial structures: the area tree, the smoking-area tree and the zone
    /// footprints (not the area records).
    public var indexByteCount: Int {
        tree.byteCount + smokingTree.byteCount + smokingPositions.count * 4 + footprints.byteCount
    }

    /// The footprint of the zone at `position` in `areas` as the index tests it, and the
    /// reference of its extent words; nil for a smoking area.
    public func footprint(of position: Int) -> (footprint: ZoneFootprint, words: StringArena.Ref)? {
        let packed = footprints.packed[position]
        guard var footprint = packed.footprint else { return nil }
        if footprint.basis == .shape { footprint.widthMeters = footprintPolicy.width(of: footprint.shape, words: areas.strings.string(packed.words)) }
        return (footprint, packed.words)
    }

    /// The footprint radius of the zone at `position` in `areas`, in meters.
    public func footprintRadius(of position: Int) -> Double {
        footprints.packed[position].radiusMeters
    }

    public static let empty = AreaIndex(areas: [])

    /// How many areas the index serves: its records less those merged into another's area
    /// and the areas the operator hid.
    public var count: Int { areas.count - groups.mergedCount - overrides.hiddenCount }

    /// Whether the record at `position` leads an area that is served.
    public func isServed(_ position: Int) -> Bool {
        !groups.isMerged(position) && (overrides.isEmpty || !overrides.hides(position))
    }

    /// The position of the area that the record with this id belongs to, by binary search:
    /// a merged record's id still finds its area.
    public func position(ofAreaWith id: String) -> Int? {
        areas.position(of: id).map(groups.leader(of:))
    }

    /// The area that the record with this id belongs to.
    public func area(id: String) -> Area? {
        position(ofAreaWith: id).map { areas[$0] }
    }

    /// Areas inside `box`, edges inclusive, in id order; at most `limit`.
    public func areas(in box: GeoBox, kind: KindFilter = .all, region: Region = .anywhere, limit: Int = .max) throws(GeoError) -> [Match] {
        guard limit >= 0 else { throw .invalidCount(limit) }
        let region = regionNames.resolve(region)
        if region.isEmpty { return [] }
        let mask = Self.classMask(of: kind)
        let payloads = region.isAnywhere
            ? tree.search(intersecting: box, classMask: mask, limit: limit)
            : tree.search(intersecting: box, classMask: mask, limit: limit, filter: filter(region))
        return payloads.sorted().map { Match(position: Int($0), distanceMeters: nil) }
    }

    /// How many areas of `kind` lie inside `box`, edges inclusive: the tree walked, nothing
    /// collected or sorted (a page's `numberMatched`).
    public func count(in box: GeoBox, kind: KindFilter = .all) -> Int {
        var count = 0
        tree.forEach(intersecting: box, classMask: Self.classMask(of: kind), filter: AdmitAll()) { _ in
            count += 1
            return true
        }
        return count
    }

    /// Areas within `meters` of `point`, nearest first, ties by id; at most `limit`.
    public func areas(within meters: Double, of point: GeoPoint, kind: KindFilter = .all, region: Region = .anywhere, limit: Int = .max) throws(GeoError) -> [Match] {
        guard meters.isFinite, meters >= 0 else { throw .invalidDistance(meters) }
        guard limit >= 0 else { throw .invalidCount(limit) }
        let region = regionNames.resolve(region)
        if region.isEmpty { return [] }
        let mask = Self.classMask(of: kind)
        let found = region.isAnywhere
            ? tree.search(within: meters, of: point, classMask: mask, limit: limit)
            : tree.search(within: meters, of: point, classMask: mask, limit: limit, filter: filter(region))
        return found.map { Match(position: Int($0.payload), distanceMeters: $0.distanceMeters) }
    }

    /// The `k` areas nearest to `point`, within `maxMeters` if given, nearest first, ties by id.
    public func nearest(to point: GeoPoint, k: Int, maxMeters: Double? = nil, kind: KindFilter = .all, region: Region = .anywhere) throws(GeoError) -> [Match] {
        guard k >= 0 else { throw .invalidCount(k) }
        if let maxMeters, !(maxMeters.isFinite && maxMeters >= 0) { throw .invalidDistance(maxMeters) }
        let region = regionNames.resolve(region)
        if region.isEmpty { return [] }
        if kind == .smoking {
            return nearestSmoking(from: DistanceOrigin(point), k: k, maxMeters: maxMeters, region: region)
        }
        let mask = Self.classMask(of: kind)
        let found = region.isAnywhere
            ? tree.nearest(to: point, k: k, maxMeters: maxMeters, classMask: mask)
            : tree.nearest(to: point, k: k, maxMeters: maxMeters, classMask: mask, filter: filter(region))
        return found.map { Match(position: Int($0.payload), distanceMeters: $0.distanceMeters) }
    }

    /// The `k` smoking areas nearest to `origin`, from the tree of smoking areas alone (a small
    /// minority: a search of the whole tree would wade through the zones).
    private func nearestSmoking(from origin: DistanceOrigin, k: Int, maxMeters: Double?, region: ResolvedRegion) -> [Match] {
        guard !region.isEmpty else { return [] }
        let positions = smokingPositions
        let records = areas.records
        let found = region.isAnywhere
            ? smokingTree.nearest(from: origin, k: k, maxMeters: maxMeters, filter: AdmitAll())
            : smokingTree.nearest(from: origin, k: k, maxMeters: maxMeters, filter: AdmitWhere { region.admits(records[Int(positions[Int($0)])]) })
        return found.map { Match(position: Int(positions[Int($0.payload)]), distanceMeters: $0.distanceMeters) }
    }

    private func filter(_ region: ResolvedRegion) -> AdmitWhere {
        let records = areas.records
        return AdmitWhere { region.admits(records[Int($0)]) }
    }

    /// What `check` answers: the zones a point lies in and the nearest place to smoke.
    public struct Check: Sendable {
        /// Zones whose footprint holds the point, nearest centre first, ties by id.
        public var zones: [Match]
        /// How far the point is from each zone's footprint's edge, in `zones`' order: the walk
        /// to leave it.
        public var edgeMeters: [Double]
        /// The nearest smoking area, if any.
        public var nearestSmoking: Match?
        public var inside: Bool { !zones.isEmpty }
    }

    /// The runs of shapes' edges one `check` may read (`ShapeIndex`): a thousand shapes of the
    /// largest size a source may give.
    public static let checkWorkLimit = 1_000 * ShapeLimits.maximumVertices / ShapeIndex.chunkLength

    /// Is `point` inside any non-smoking zone's footprint (within a circle's radius of its
    /// centre, or inside a shape's), and where is the nearest smoking area? Throws
    /// `tooExpensive` when the shapes there have more edges than `workLimit` runs.
    public func check(_ point: GeoPoint, region: Region = .anywhere, workLimit: Int = AreaIndex.checkWorkLimit) throws(GeoError) -> Check {
        var found: [(match: Match, edge: Double)] = []
        let origin = DistanceOrigin(point)
        let region = regionNames.resolve(region)
        // Closures below see locals only: one that named `self` made a copy of the whole index
        // (two dozen retains and releases) on every check.
        let records = areas.records
        try footprints.forEach(holding: origin, workLimit: workLimit, coordinate: { records[$0].coordinate }) { position, distance, edge in
            if region.isAnywhere || region.admits(records[position]) {
                found.append((Match(position: position, distanceMeters: distance), edge))
            }
        }
        found.sort { ($0.match.distanceMeters ?? 0, $0.match.position) < ($1.match.distanceMeters ?? 0, $1.match.position) }
        // The nearest smoking area, from the same origin.
        return Check(zones: found.map(\.match), edgeMeters: found.map(\.edge),
                     nearestSmoking: nearestSmoking(from: origin, k: 1, maxMeters: nil, region: region).first)
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
