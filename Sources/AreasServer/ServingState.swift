import AreasCore
import AreasIngest
import AreasProtocol

/// Everything a query needs, built once per refresh and then only read.
///
/// The service holds one reference and replaces it whole when a refresh finishes, so a query
/// sees one data set from start to end, never a mix.
///
/// The areas live once, in the index (sorted by id). Ids start with their source's name, so
/// each source's areas are one contiguous run of it; the per-source catalog a refresh or a
/// snapshot needs is rebuilt from those runs on demand instead of being kept twice.
public final class ServingState: Sendable {
    public let index: AreaIndex
    /// Each source's run of `index.areas` and when it was fetched.
    public let sources: [String: SourceSpan]
    /// False until a snapshot or a refresh has given any data.
    public let hasData: Bool
    public let lastReport: RefreshReport?
    public let snapshotPath: String
    /// Seconds since 1970 when this state was built.
    public let builtAt: Double

    public struct SourceSpan: Sendable, Equatable {
        public var range: Range<Int>
        public var fetchedAt: Double
    }

    public convenience init(catalog: Catalog, hasData: Bool, lastReport: RefreshReport?, snapshotPath: String, builtAt: Double,
                            nodeSize: Int = PackedRTree.defaultNodeSize, footprint: FootprintPolicy = .standard) {
        self.init(index: catalog.index(nodeSize: nodeSize, footprint: footprint), fetchedAt: catalog.sources.mapValues(\.fetchedAt),
                  hasData: hasData, lastReport: lastReport, snapshotPath: snapshotPath, builtAt: builtAt)
    }

    /// The data set in `snapshot` (bytes made by `SnapshotFile.encode`), indexed.
    public convenience init(snapshot bytes: [UInt8], lastReport: RefreshReport?, snapshotPath: String, builtAt: Double,
                            footprint: FootprintPolicy = .standard) throws(SnapshotFile.Failure) {
        let contents = try SnapshotFile.decode(bytes)
        self.init(index: AreaIndex(table: contents.areas, footprint: footprint), fetchedAt: contents.fetchedAt,
                  hasData: true, lastReport: lastReport, snapshotPath: snapshotPath, builtAt: builtAt)
    }

    /// `fetchedAt` names every source, including any that has no areas.
    public init(index: AreaIndex, fetchedAt: [String: Double], hasData: Bool, lastReport: RefreshReport?, snapshotPath: String, builtAt: Double) {
        var sources: [String: SourceSpan] = [:]
        var start = 0
        let records = index.areas.records
        let strings = index.areas.strings
        while start < records.count {
            var end = start + 1
            while end < records.count && strings.equals(records[end].source, records[start].source) { end += 1 }
            let name = strings.string(records[start].source)
            sources[name] = SourceSpan(range: start..<end, fetchedAt: fetchedAt[name] ?? 0)
            start = end
        }
        for (name, fetched) in fetchedAt where sources[name] == nil {
            sources[name] = SourceSpan(range: 0..<0, fetchedAt: fetched)
        }
        self.index = index
        self.sources = sources
        self.hasData = hasData
        self.lastReport = lastReport
        self.snapshotPath = snapshotPath
        self.builtAt = builtAt
    }

    /// The per-source data, rebuilt from the index (for a refresh or a snapshot).
    public var catalog: Catalog {
        Catalog(sources: sources.mapValues { span in
            Catalog.SourceData(areas: Array(index.areas[span.range]), fetchedAt: span.fetchedAt)
        })
    }

    /// The age of the oldest source's data, in seconds, or nil with no data.
    public func dataAge(now: Double) -> Double? {
        sources.values.map(\.fetchedAt).min().map { Swift.max(0, now - $0) }
    }

    /// The same data with a newer report (a refresh that changed nothing).
    func with(report: RefreshReport) -> ServingState {
        ServingState(reusing: self, report: report)
    }

    private init(reusing other: ServingState, report: RefreshReport) {
        index = other.index
        sources = other.sources
        hasData = other.hasData
        lastReport = report
        snapshotPath = other.snapshotPath
        builtAt = other.builtAt
    }
}
