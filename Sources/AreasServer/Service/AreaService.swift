import AreasCore
import AreasIngest
import AreasProtocol
import AreasSystem
import Foundation
import Synchronization

/// The daemon's served state: the current data set and configuration, the views connections
/// read them through, and the refreshes that replace them.
///
/// Queries copy the current `ServingState` reference (a pointer copy under a lock held for
/// nanoseconds, never during a refresh) and run on it without any lock. A refresh builds a
/// complete new state off to the side and swaps it in; queries in flight finish on the old one.
/// Answering requests is in `AreaService+Requests.swift`, refreshing in
/// `AreaService+Refresh.swift`, and the answers' JSON in `Answers`.
package final class AreaService: Sendable {
    package let logger: Logger
    let current: LockedValue<ServingState>
    /// The administrative map, replaced whole when it is read again.
    /// (None until a daemon reads one: a service made in-process for a test has none.)
    let servedRegions = ServedRegionsSlot(.unavailable(reason: "no regions folder was read"))
    private let configuration: LockedValue<AreasConfig>
    let refreshes = RefreshCoordinator()
    /// A follower's last view of its leader's snapshot.
    let follower = SnapshotFollower()
    /// Requests, errors and connections since start, for `stats` and `metrics`.
    package let counters = ServiceCounters()
    let startedAt = Date().timeIntervalSince1970
    let environment: [String: String]
    package let snapshotPath: String
    /// Today's upstream requests, counted for `dailyRequestLimit` by every refresh of this
    /// daemon's life and kept beside the snapshot; `stats` and `metrics` read it as it stands.
    package let quota: RequestQuota
    /// Called after each refresh with the new state (systemd status lines).
    let onRefresh: @Sendable (ServingState) -> Void
    /// Sources the running refresh has finished, of how many: what a start without data is
    /// waiting for.
    let refreshProgress = LockedValue<(finished: Int, of: Int)>((0, 0))
    /// The operator's corrections as last read whole (nil while never read): a refresh that
    /// cannot read the file applies these.
    let overrideLines: LockedValue<[AreaOverride]?>
    /// The pace of every request this daemon makes to the geocoder, refreshes' and searches'.
    let geocoderPacing = GeocoderPacing()
    /// What the geocoder said of searched texts no area or region holds.
    let searchGeocoder: SearchGeocoder
    /// The city's people density around its hotspots, when `crowd` is configured and its
    /// places file was read.
    let crowdWatch = LockedValue<CrowdWatch?>(nil)

    package init(config: AreasConfig, state: ServingState, snapshotPath: String, logger: Logger,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                overrides: [AreaOverride]? = nil,
                onRefresh: @escaping @Sendable (ServingState) -> Void = { _ in }) {
        self.overrideLines = LockedValue(overrides)
        self.configuration = LockedValue(config)
        self.current = LockedValue(state)
        self.snapshotPath = snapshotPath
        self.quota = SnapshotStore(path: snapshotPath).requestQuota
        self.logger = logger
        self.environment = environment
        self.onRefresh = onRefresh
        self.searchGeocoder = SearchGeocoder(pacing: geocoderPacing)
    }

    package var state: ServingState { current.withLock { $0 } }
    package var config: AreasConfig { configuration.withLock { $0 } }
    /// The snapshot file's owner: loads, installs and adopts data sets as configured.
    var store: SnapshotStore {
        let config = self.config
        return SnapshotStore(path: snapshotPath, footprint: config.footprintPolicy, merge: config.merge,
                             overrides: config.follow != nil ? nil : config.overrides == nil ? [] : overrideLines.withLock { $0 })
    }

    /// Bumped whenever the state or the config is replaced.
    let generation = Atomic<Int>(0)
    /// Bumped when the config is replaced: answers to the same question may differ after it
    /// (limits, aliases), so it is part of the HTTP answers' ETag.
    let configEpoch = Atomic<Int>(0)
    /// Bumped when a hotspot's crowd level changes: answers carrying it differ after it, so
    /// it is part of their ETag too.
    let crowdEpoch = Atomic<Int>(0)

    /// A connection's own copy of the current state and settings. Refreshed only when the
    /// generation moves, so in steady state a query takes no lock at all: one atomic load per
    /// batch of requests.
    package struct View: Sendable {
        package internal(set) var state: ServingState
        var maxResults: Int
        var adminUids: [UInt32]
        var refreshInterval: Double
        /// Where the data can have areas: a question about a point outside has no answer.
        var bounds: GeoBox
        var aliases: [String: String]
        package internal(set) var regions: ServedRegions
        var generation: Int
        var configEpoch: Int
        /// The crowd levels as of this view, nil without `crowd`.
        package internal(set) var crowd: CrowdView?
        var crowdEpoch: Int
        /// How the connection waits for something slow within a request (a refresh asked for
        /// with `wait`): its server gives up its turn to work meanwhile, so clients waiting for
        /// a refresh never stop the queries of others.
        package var whileWaiting: @Sendable (_ wait: () -> Void) -> Void = { $0() }

        /// The ETag of an HTTP answer from this view, the one way every answer is tagged: the
        /// served data's version, the epoch of the config and the administrative map, the
        /// answer's own mark (`.geojson`, `.mvt`, `.regions`), and when it may carry crowd
        /// levels, their epoch.
        func tag(_ mark: String = "", followingCrowd: Bool = false) -> String {
            "\"\(state.version).\(configEpoch)\(followingCrowd ? ".c\(crowdEpoch)" : "")\(mark)\""
        }
    }

    package func view() -> View {
        let generation = generation.load(ordering: .acquiring)
        let config = self.config
        let state = self.state
        return View(state: state, maxResults: config.maxResults, adminUids: config.adminUids,
                    refreshInterval: config.refreshIntervalSeconds, bounds: config.bounds, aliases: config.provinceAliases,
                    regions: servedRegions.current, generation: generation,
                    configEpoch: configEpoch.load(ordering: .acquiring),
                    crowd: crowdWatch.withLock { $0 }?.view(for: state), crowdEpoch: crowdEpoch.load(ordering: .acquiring))
    }

    /// Brings `view` up to date if anything was replaced since it was taken.
    package func update(_ view: inout View) {
        guard generation.load(ordering: .acquiring) != view.generation else { return }
        let whileWaiting = view.whileWaiting
        view = self.view()
        view.whileWaiting = whileWaiting
    }

    /// Serves `state` from now on; views pick it up at their next batch.
    func install(_ state: ServingState) {
        current.withLock { $0 = state }
        generation.add(1, ordering: .releasing)
    }

    /// Serves `regions` from now on. Answers to the same question may differ after it (a
    /// `check`'s region), so the HTTP answers' ETag changes as after a new config.
    package func install(_ regions: ServedRegions) {
        servedRegions.install(regions)
        configEpoch.add(1, ordering: .releasing)
        generation.add(1, ordering: .releasing)
    }

    /// Asks the city about crowds with `watch` from now on (nil: no more).
    package func install(crowd watch: CrowdWatch?) {
        crowdWatch.withLock { $0 = watch }
        crowdChanged()
    }

    /// A crowd level changed: views pick up the new levels at their next batch.
    func crowdChanged() {
        crowdEpoch.add(1, ordering: .releasing)
        generation.add(1, ordering: .releasing)
    }

    /// Adds a connection's counts; connections add whole batches at once.
    package func count(_ tally: RequestTally) {
        counters.add(tally)
    }
    package var queriesServed: Int { counters.answered.current }
    package var isRefreshing: Bool { refreshes.isRunning }

    /// Uses a new configuration from the next refresh on.
    package func replace(config: AreasConfig) {
        configuration.withLock { $0 = config }
        configEpoch.add(1, ordering: .releasing)
        generation.add(1, ordering: .releasing)
    }
}
