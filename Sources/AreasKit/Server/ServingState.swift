/// Everything a query needs, built once per refresh and then only read.
///
/// The service holds one reference and replaces it whole when a refresh finishes, so a query
/// sees one data set from start to end, never a mix.
public final class ServingState: Sendable {
    public let index: AreaIndex
    public let catalog: Catalog
    /// False until a snapshot or a refresh has given any data.
    public let hasData: Bool
    public let lastReport: RefreshReport?
    public let snapshotPath: String
    /// Seconds since 1970 when this state was built.
    public let builtAt: Double

    public init(catalog: Catalog, hasData: Bool, lastReport: RefreshReport?, snapshotPath: String, builtAt: Double, nodeSize: Int = 16) {
        self.catalog = catalog
        self.index = catalog.index(nodeSize: nodeSize)
        self.hasData = hasData
        self.lastReport = lastReport
        self.snapshotPath = snapshotPath
        self.builtAt = builtAt
    }

    /// The age of the oldest source's data, in seconds, or nil with no data.
    public func dataAge(now: Double) -> Double? {
        catalog.oldestFetch.map { Swift.max(0, now - $0) }
    }

    /// The same data with a newer report (a refresh that changed nothing).
    func with(report: RefreshReport) -> ServingState {
        ServingState(reusing: self, report: report)
    }

    private init(reusing other: ServingState, report: RefreshReport) {
        index = other.index
        catalog = other.catalog
        hasData = other.hasData
        lastReport = report
        snapshotPath = other.snapshotPath
        builtAt = other.builtAt
    }
}
