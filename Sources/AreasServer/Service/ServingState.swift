import AreasCore
import AreasIngest
import AreasProtocol
import AreasSystem

/// Everything a query needs, built once per refresh and then only read.
///
/// The service holds one reference and replaces it whole when a refresh finishes, so a query
/// sees one data set from start to end, never a mix. The areas live once: the catalog's table
/// is the table the index serves (the index keeps it as it is, already in id order).
package final class ServingState: Sendable {
    package let catalog: Catalog
    package let index: AreaIndex
    /// False until a snapshot or a refresh has given any data.
    package let hasData: Bool
    package let lastReport: RefreshReport?
    package let snapshotPath: String
    /// Seconds since 1970 when this state was built.
    package let builtAt: Double
    /// Each configured source's refreshes since start.
    package let history: [String: SourceHistory]
    /// The data's version (`health`, `stats`, `Areas-Version`, the ETag's first part): new
    /// with every data set a refresh serves, kept by a refresh that changed nothing. It is the
    /// snapshot file's, so a restart and every follower that takes the file name it the same.
    package let version: String
    /// What changed between the versions of this data, and when each record was first seen.
    package let changes: ChangeLog
    /// What `stats`, `sources` and the metrics count of the served areas, counted once.
    package let counts: ServedCounts
    /// When the data was made (the snapshot file's time), nil for data no store made.
    let writtenAt: Double?
    /// The vector tiles made from these areas so far (a refresh that changed nothing keeps them).
    package let tiles: TileCache
    /// The zones' outlines traced so far (OGC's `zones`), kept alike.
    package let outlines: OutlineCache
    /// The areas counted per region of the administrative map, once per map served.
    package let regionCounts: RegionCountsCache
    /// The box of each OGC collection's features, worked out once when first asked (its extent).
    private let extents: LockedValue<[OGCCollection: GeoBox]>
    /// When the first version was served (`firstServed`), worked out once it is asked for.
    private let firstServedAt: LockedValue<Double??>
    /// The areas removed in the last 30 days (`RecentlyVanished`), made when first asked for.
    private let vanishedLately: LockedValue<RecentlyVanished?>
    /// Whether the snapshot file in place holds these areas: false before anything was written,
    /// and while areas a refresh could not write are served from memory.
    package let inFile: Bool

    /// Serves `dataSet` as it is: its index was built, or read from the snapshot, by the
    /// snapshot store as configured.
    package init(_ dataSet: DataSet, hasData: Bool, lastReport: RefreshReport?, snapshotPath: String, builtAt: Double,
                history: [String: SourceHistory] = [:], inFile: Bool = false) {
        self.catalog = dataSet.catalog
        self.index = dataSet.index
        self.hasData = hasData
        self.lastReport = lastReport
        self.snapshotPath = snapshotPath
        self.builtAt = builtAt
        self.history = history
        self.inFile = inFile
        self.tiles = TileCache()
        self.outlines = OutlineCache()
        self.regionCounts = RegionCountsCache()
        self.version = dataSet.version ?? DataSet.version(writtenAt: builtAt, records: dataSet.catalog.table.records.count)
        self.changes = dataSet.changes
        self.counts = dataSet.counts
        self.writtenAt = dataSet.writtenAt
        extents = LockedValue([:])
        firstServedAt = LockedValue(nil)
        vanishedLately = LockedValue(nil)
    }

    /// The data set served, as the snapshot store hands the next refresh what it replaces.
    var dataSet: DataSet {
        var dataSet = DataSet(catalog: catalog, index: index, counts: counts)
        dataSet.writtenAt = writtenAt
        dataSet.changes = changes
        return dataSet
    }

    /// The fetch times a follower takes with the snapshot file in place: this state's, later
    /// than the file's own where refreshes that changed nothing confirmed its sources since.
    package var fileFetchTimes: [String: Double] { inFile ? catalog.sources.mapValues(\.fetchedAt) : [:] }

    /// Each source's run of `index.areas` and when it was fetched.
    package var sources: [String: Catalog.SourceSpan] { catalog.sources }

    /// A source's served areas and reference dates (none for a source with no data).
    package func counts(of source: String) -> ServedCounts.Source {
        counts.bySource[source] ?? ServedCounts.Source()
    }

    /// How many areas of `kind` are served (for `stats` and the metrics).
    package func count(of kind: AreaKind) -> Int {
        index.count(of: kind)
    }

    /// The age of the oldest source's data, in seconds, or nil with no data.
    package func dataAge(now: Double) -> Double? {
        catalog.sources.values.map(\.fetchedAt).min().map { Swift.max(0, now - $0) }
    }

    /// The same areas and index with a newer report, and the catalog's newer fetch times (a
    /// refresh that changed nothing).
    func with(catalog: Catalog, report: RefreshReport, history: [String: SourceHistory]) -> ServingState {
        assert(catalog.table.records.count == self.catalog.table.records.count, "the same areas, newer fetch times only")
        return ServingState(reusing: self, catalog: catalog, report: report, history: history)
    }

    private init(reusing other: ServingState, catalog: Catalog, report: RefreshReport, history: [String: SourceHistory]) {
        self.catalog = catalog
        index = other.index
        hasData = other.hasData
        lastReport = report
        snapshotPath = other.snapshotPath
        builtAt = other.builtAt
        version = other.version
        changes = other.changes
        counts = other.counts
        writtenAt = other.writtenAt
        // What was worked out from the same areas holds for them still.
        extents = other.extents
        firstServedAt = other.firstServedAt
        vanishedLately = other.vanishedLately
        inFile = other.inFile
        tiles = other.tiles
        outlines = other.outlines
        regionCounts = other.regionCounts
        self.history = history
    }
}

extension ServingState {
    /// When the first data version whose areas are still served was written: the earliest
    /// `firstSeen` of a served area. An area first seen then was there when the daemon began
    /// (all of a fresh install's are), so it is not new, however recent that was. Nil when no
    /// change log describes the data.
    package var firstServed: Double? {
        if let known = firstServedAt.withLock({ $0 }) { return known }
        var earliest = Double.infinity
        let times = changes.times
        for position in 0..<index.areas.count where index.isServed(position) {
            if let seen = times.of(position)?.firstSeen, seen > 0 { earliest = min(earliest, seen) }
        }
        let found: Double? = earliest.isFinite ? earliest : nil
        firstServedAt.withLock { $0 = found }
        return found
    }
}

extension ServingState {
    /// The areas the versions of the last 30 days removed, as of `now`.
    package func recentlyVanished(now: Double) -> RecentlyVanished {
        if let kept = vanishedLately.withLock({ $0 }), kept.hour == Int(now / 3_600) { return kept }
        let made = RecentlyVanished(changes: changes, index: index, now: now)
        vanishedLately.withLock { $0 = made }
        return made
    }
}

extension ServingState {
    /// The box around every served area of `kind`; nil when there is none.
    package func extent(of collection: OGCCollection) -> GeoBox? {
        if let known = extents.withLock({ $0[collection] }) { return known }
        var box = GeoBox.empty
        index.areas.withBuffers { areas in
            for position in 0..<areas.records.count where areas.records[position].kind == collection.kind && index.isServed(position) {
                box.extend(areas.records[position].coordinate)
                // A zone's footprint reaches its radius around its position.
                if collection == .zones, let reach = try? Geodesy.boundingBox(around: areas.records[position].coordinate, meters: index.footprintRadius(of: position)) {
                    box.extend(reach)
                }
            }
        }
        guard box.south <= box.north else { return nil }
        extents.withLock { $0[collection] = box }
        return box
    }
}
