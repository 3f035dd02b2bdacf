import AreasCore
import Foundation

/// The merged data set: every source's last good areas, kept apart so that one source's
/// failure never touches another's data.
public struct Catalog: Sendable, Equatable {
    public struct SourceData: Sendable, Equatable {
        public var areas: [Area]
        /// When these areas were fetched (seconds since 1970).
        public var fetchedAt: Double

        public init(areas: [Area], fetchedAt: Double) {
            self.areas = areas
            self.fetchedAt = fetchedAt
        }
    }

    public var sources: [String: SourceData]

    public init(sources: [String: SourceData] = [:]) {
        self.sources = sources
    }

    public var areaCount: Int { sources.values.reduce(0) { $0 + $1.areas.count } }

    /// The oldest fetch time among sources, or nil when empty.
    public var oldestFetch: Double? { sources.values.map(\.fetchedAt).min() }

    /// Every area of every source, ready to index.
    ///
    /// Ids are `source:hash` and each source keeps its areas in id order, so ordering the
    /// sources by `name:` yields every id in order and the index need not sort.
    public func index(nodeSize: Int = PackedRTree.defaultNodeSize, footprint: FootprintPolicy = .standard) -> AreaIndex {
        // One source (a snapshot of one city, say) hands its array over without copying it.
        if sources.count == 1, let only = sources.values.first {
            return AreaIndex(areas: only.areas, nodeSize: nodeSize, footprint: footprint)
        }
        let names = sources.keys.sorted { $0 + ":" < $1 + ":" }
        var areas: [Area] = []
        areas.reserveCapacity(areaCount)
        for name in names { areas.append(contentsOf: sources[name]?.areas ?? []) }
        return AreaIndex(areas: areas, nodeSize: nodeSize, footprint: footprint)
    }
}
