import AreasCore
import AreasIngest
import AreasProtocol
import AreasSystem
import Foundation
import Synchronization

/// The daemon's core: the current data set, the queries over it, and refreshes that replace it.
///
/// Queries copy the current `ServingState` reference (a pointer copy under a lock held for
/// nanoseconds, never during a refresh) and run on it without any lock. A refresh builds a
/// complete new state off to the side and swaps it in; queries in flight finish on the old one.
public final class AreaService: Sendable {
    public let logger: Logger
    private let current: LockedValue<ServingState>
    private let configuration: LockedValue<AreasConfig>
    private let inFlight = LockedValue<RefreshJob?>(nil)
    private let queries = Atomic<Int>(0)
    private let startedAt = Date().timeIntervalSince1970
    private let clock = ContinuousClock()
    private let environment: [String: String]
    public let snapshotPath: String
    /// Called after each refresh with the new state (systemd status lines).
    private let onRefresh: @Sendable (ServingState) -> Void

    public init(config: AreasConfig, state: ServingState, snapshotPath: String, logger: Logger,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                onRefresh: @escaping @Sendable (ServingState) -> Void = { _ in }) {
        self.configuration = LockedValue(config)
        self.current = LockedValue(state)
        self.snapshotPath = snapshotPath
        self.logger = logger
        self.environment = environment
        self.onRefresh = onRefresh
    }

    public var state: ServingState { current.withLock { $0 } }
    public var config: AreasConfig { configuration.withLock { $0 } }

    /// Bumped whenever the state or the config is replaced.
    private let generation = Atomic<Int>(0)

    /// A connection's own copy of the current state and settings. Refreshed only when the
    /// generation moves, so in steady state a query takes no lock at all: one atomic load per
    /// batch of requests.
    public struct View: Sendable {
        public fileprivate(set) var state: ServingState
        fileprivate var maxResults: Int
        fileprivate var adminUids: [UInt32]
        fileprivate var refreshInterval: Double
        fileprivate var aliases: [String: String]
        fileprivate var generation: Int
    }

    public func view() -> View {
        let generation = generation.load(ordering: .acquiring)
        let config = self.config
        return View(state: state, maxResults: config.maxResults, adminUids: config.adminUids,
                    refreshInterval: config.refreshIntervalSeconds, aliases: config.provinceAliases, generation: generation)
    }

    /// Brings `view` up to date if anything was replaced since it was taken.
    public func update(_ view: inout View) {
        if generation.load(ordering: .acquiring) != view.generation { view = self.view() }
    }

    /// Counts answered requests; connections add whole batches at once.
    public func countQueries(_ n: Int) {
        queries.add(n, ordering: .relaxed)
    }
    public var queriesServed: Int { queries.load(ordering: .relaxed) }
    public var isRefreshing: Bool { inFlight.withLock { $0 != nil } }

    /// Uses a new configuration from the next refresh on.
    public func replace(config: AreasConfig) {
        configuration.withLock { $0 = config }
        generation.add(1, ordering: .releasing)
    }

    // MARK: Refresh

    /// One refresh under way; everyone who asks while it runs joins it.
    final class RefreshJob: Sendable {
        let done = DispatchSemaphore(value: 0)
        let result = LockedValue<RefreshReport?>(nil)

        func wait() -> RefreshReport? {
            done.wait()
            done.signal()  // let the next waiter through
            return result.withLock { $0 }
        }
    }

    /// Starts a refresh, or joins the one already running; returns the job to wait on.
    @discardableResult
    public func startRefresh(force: Bool) -> RefreshJobHandle {
        let (job, isNew) = inFlight.withLock { slot -> (RefreshJob, Bool) in
            if let job = slot { return (job, false) }
            let job = RefreshJob()
            slot = job
            return (job, true)
        }
        if isNew {
            Task.detached { [self] in
                let report = await performRefresh(force: force)
                job.result.withLock { $0 = report }
                inFlight.withLock { $0 = nil }
                job.done.signal()
            }
        }
        return RefreshJobHandle(job: job)
    }

    public struct RefreshJobHandle: Sendable {
        let job: RefreshJob
        /// Blocks until the refresh finishes.
        public func wait() -> RefreshReport? { job.wait() }
    }

    private func performRefresh(force: Bool) async -> RefreshReport {
        let config = self.config
        let before = state
        logger.info("refresh started: \(config.sources.count) sources" + (force ? " (forced)" : ""))
        let previous = before.catalog
        let (catalog, report) = await Refresher(config: config, environment: environment).refresh(previous, force: force)
        for source in report.sources {
            if source.status == .updated {
                logger.info("source " + source.summary)
            } else {
                logger.warning("source " + source.summary)
            }
        }
        let next: ServingState
        // Only an updated source, or one dropped from the config, changes the data: no need to
        // compare every area of the old and new catalogs.
        let changed = report.sources.contains { $0.status == .updated } || Set(catalog.sources.keys) != Set(previous.sources.keys)
        if !changed {
            next = before.with(report: report)
        } else {
            let start = clock.now
            // The new data is served from the very bytes written to disk: the text is stored
            // once on the way (one pass that finds repeated strings, not two), and a restart
            // serves exactly what this refresh served.
            let bytes = SnapshotFile.encode(catalog)
            do {
                next = try ServingState(snapshot: bytes, lastReport: report, snapshotPath: snapshotPath,
                                        builtAt: Date().timeIntervalSince1970, footprint: config.footprint)
            } catch {
                logger.error("the new snapshot does not read back (\(error)); serving the refresh from memory")
                next = ServingState(catalog: catalog, hasData: true, lastReport: report, snapshotPath: snapshotPath,
                                    builtAt: Date().timeIntervalSince1970, footprint: config.footprint)
            }
            logger.info("index built: \(next.index.count) areas in \(Int((clock.now - start).milliseconds)) ms")
            do {
                try SnapshotFile.write(bytes, to: snapshotPath)
            } catch {
                logger.error("\(error); the previous snapshot is unchanged, and the new data is served from memory")
            }
        }
        current.withLock { $0 = next }
        generation.add(1, ordering: .releasing)
        if changed { FreeMemory.release() }  // the build's temporaries
        onRefresh(next)
        logger.info("refresh finished in \(Int(report.durationMilliseconds)) ms: \(next.index.count) areas served" +
                    (report.succeeded ? "" : "; some sources failed or were held back"))
        return report
    }

    // MARK: Queries

    /// Answers one request line into `writer`, followed by a newline. Never throws: every
    /// failure becomes an error line.
    public func respond(to line: UnsafeBufferPointer<UInt8>, peerUID: UInt32?, view: View, into writer: inout JSONWriter) {
        do throws(RequestError) {
            let request = try Request.parse(line)
            try execute(request, peerUID: peerUID, view: view, into: &writer)
        } catch {
            Self.writeError(error, into: &writer)
        }
        writer.newline()
    }

    public static func writeError(_ error: RequestError, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("ok"); writer.bool(false)
        writer.key("error")
        writer.beginObject()
        writer.key("code"); writer.string(error.code.rawValue)
        writer.key("message"); writer.string(error.message)
        writer.endObject()
        writer.endObject()
    }

    private func isAdmin(_ uid: UInt32?, _ view: View) -> Bool {
        guard let uid else { return false }
        return uid == 0 || uid == getuid() || view.adminUids.contains(uid)
    }

    func execute(_ request: Request, peerUID: UInt32?, into writer: inout JSONWriter) throws(RequestError) {
        try execute(request, peerUID: peerUID, view: view(), into: &writer)
    }

    func execute(_ request: Request, peerUID: UInt32?, view: View, into writer: inout JSONWriter) throws(RequestError) {
        if request.isPrivileged && !isAdmin(peerUID, view) {
            throw RequestError(.permissionDenied, "refresh is allowed only to root, the daemon's user, or adminUids (your uid is \(peerUID.map(String.init) ?? "unknown"))")
        }
        let state = view.state
        let maxResults = view.maxResults
        switch request {
        case .near(let point, let k, let maxMeters, let kind, let region, let output):
            try requireData(state)
            let region = region.resolved(view.aliases)
            let matches = try Self.run { () throws(GeoError) in
                try state.index.nearest(to: point, k: Swift.min(k, maxResults), maxMeters: maxMeters, kind: kind, region: region)
            }.get()
            writeAreas(matches, truncated: k > maxResults && matches.count == maxResults, state: state, output: output, into: &writer)
        case .radius(let point, let meters, let kind, let region, let limit, let output):
            try requireData(state)
            let region = region.resolved(view.aliases)
            let cap = Swift.min(limit ?? maxResults, maxResults)
            let matches = try Self.run { () throws(GeoError) in
                try state.index.areas(within: meters, of: point, kind: kind, region: region, limit: cap + 1)
            }.get()
            writeAreas(Array(matches.prefix(cap)), truncated: matches.count > cap, state: state, output: output, into: &writer)
        case .bbox(let box, let kind, let region, let limit, let output):
            try requireData(state)
            let region = region.resolved(view.aliases)
            let cap = Swift.min(limit ?? maxResults, maxResults)
            let matches = try Self.run { () throws(GeoError) in try state.index.areas(in: box, kind: kind, region: region, limit: cap + 1) }.get()
            writeAreas(Array(matches.prefix(cap)), truncated: matches.count > cap, state: state, output: output, into: &writer)
        case .check(let point, let region):
            try requireData(state)
            writeCheck(state.index.check(point, region: region.resolved(view.aliases)), from: point, state: state, into: &writer)
        case .along(let path, let meters, let kind, let region, let limit, let output):
            try requireData(state)
            let region = region.resolved(view.aliases)
            let cap = Swift.min(limit ?? maxResults, maxResults)
            let matches = try Self.run { () throws(GeoError) in
                try state.index.along(path, meters: meters, kind: kind, region: region, limit: cap + 1)
            }.get()
            writeRoute(Array(matches.prefix(cap)), truncated: matches.count > cap, state: state, output: output, into: &writer)
        case .get(let id):
            try requireData(state)
            guard let position = state.index.areas.position(of: id) else { throw RequestError(.notFound, "no area with id '\(id)'") }
            writer.beginObject()
            writer.key("ok"); writer.bool(true)
            writer.key("count"); writer.number(1)
            writer.key("areas")
            writer.beginArray()
            state.index.areas.withBuffers { writeArea(position, of: $0, distance: nil, detailed: true, into: &writer) }
            writer.endObject()
            writer.endArray()
            writer.endObject()
        case .stats:
            writeStats(state, into: &writer)
        case .health:
            writeHealth(state, refreshInterval: view.refreshInterval, into: &writer)
        case .refresh(let wait, let force):
            let handle = startRefresh(force: force)
            writer.beginObject()
            writer.key("ok"); writer.bool(true)
            if wait, let report = handle.wait() {
                writer.key("refreshed"); writer.bool(true)
                writer.key("report")
                Self.write(report, into: &writer)
            } else {
                writer.key("started"); writer.bool(true)
            }
            writer.endObject()
        }
    }

    private static func run<T>(_ body: () throws(GeoError) -> T) -> Result<T, RequestError> {
        do throws(GeoError) {
            return .success(try body())
        } catch {
            return .failure(RequestError(.badRequest, error.description))
        }
    }

    private func requireData(_ state: ServingState) throws(RequestError) {
        guard state.hasData else {
            throw RequestError(.unavailable, isRefreshing ? "no data loaded yet: the first refresh is running" : "no data loaded: the last refresh failed; see stats")
        }
    }

    // MARK: Encoding

    private func writeAreas(_ matches: [AreaIndex.Match], truncated: Bool, state: ServingState, output: OutputMode, into writer: inout JSONWriter) {
        writeList(matches, truncated: truncated, state: state, output: output, into: &writer) { match in
            (match.position, match.distanceMeters)
        } extra: { _, _ in }
    }

    private func writeRoute(_ matches: [AreaIndex.RouteMatch], truncated: Bool, state: ServingState, output: OutputMode, into writer: inout JSONWriter) {
        writeList(matches, truncated: truncated, state: state, output: output, into: &writer) { match in
            (match.position, nil)
        } extra: { match, writer in
            writer.key("alongMeters"); writer.meters(match.alongMeters)
            writer.key("sideMeters"); writer.meters(match.sideMeters)
        }
    }

    /// `{"ok":true,"count":..,"truncated":..,"areas":[...]}` in the requested output mode; each
    /// match names its area's position and distance, and may add members of its own.
    private func writeList<Match>(
        _ matches: [Match], truncated: Bool, state: ServingState, output: OutputMode, into writer: inout JSONWriter,
        locate: (Match) -> (position: Int, distance: Double?),
        extra: (Match, inout JSONWriter) -> Void
    ) {
        writer.beginObject()
        writer.key("ok"); writer.bool(true)
        writer.key("count"); writer.number(matches.count)
        writer.key("truncated"); writer.bool(truncated)
        if output != .count {
            writer.key("areas")
            writer.beginArray()
            state.index.areas.withBuffers { areas in
                // The records lie scattered over a large table, a cache miss each. All are asked
                // for at once, then sizing the answer reads them and their ids in one tight
                // loop, so the misses overlap instead of following one another between the
                // writes (they were a fifth of a near query's cost at 1M areas; asking first
                // took the time spent waiting on them from 16% of a near answer to 12%).
                for match in matches { areas.prefetchRecord(at: locate(match).position) }
                if output == .ids {
                    // An id item makes its own room; the ids' text is all it reads besides.
                    for match in matches { areas.prefetchText(areas.records[locate(match).position].id) }
                } else {
                    var size = 0
                    for match in matches {
                        size &+= areas.utf8(areas.records[locate(match).position].id).count
                    }
                    writer.reserve(size + matches.count * 400)
                }
                for match in matches {
                    let (position, distance) = locate(match)
                    if output == .ids {
                        writer.beginIDEntry(id: areas.utf8(areas.records[position].id), distanceMeters: distance)
                    } else {
                        writeArea(position, of: areas, distance: distance, detailed: false, into: &writer)
                    }
                    extra(match, &writer)
                    writer.endObject()
                }
            }
            writer.endArray()
        }
        writer.endObject()
    }

    private func writeCheck(_ check: AreaIndex.Check, from point: GeoPoint, state: ServingState, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("ok"); writer.bool(true)
        writer.key("inside"); writer.bool(check.inside)
        writer.key("summary"); writer.string(CheckSentence.make(check, from: point, areas: state.index.areas))
        state.index.areas.withBuffers { areas in
            writer.key("zones")
            writer.beginArray()
            for zone in check.zones {
                writeArea(zone.position, of: areas, distance: zone.distanceMeters, detailed: false, into: &writer)
                writer.key("footprintMeters"); writer.meters(state.index.footprintRadius(of: zone.position))
                writer.endObject()
            }
            writer.endArray()
            writer.key("nearestSmoking")
            guard let nearest = check.nearestSmoking else {
                writer.null()
                return
            }
            writeArea(nearest.position, of: areas, distance: nearest.distanceMeters, detailed: false, into: &writer)
            let bearing = Geodesy.bearing(from: point, to: areas.records[nearest.position].coordinate)
            writer.key("bearingDegrees"); writer.number((bearing * 10).rounded() / 10)
            writer.key("direction"); writer.string(Geodesy.compassPoint(bearing))
            writer.endObject()
        }
        writer.endObject()
    }

    /// Writes an area's fields into an open object; the caller may add more and closes it.
    private func writeArea(_ position: Int, of areas: AreaTable.Buffers, distance: Double?, detailed: Bool, into writer: inout JSONWriter) {
        let area = areas.records[position]
        writer.beginObject()
        writer.key("id"); writer.string(utf8: areas.utf8(area.id))
        writer.key("kind"); writer.string(area.kind.rawValue)
        writer.key("name"); writer.string(utf8: areas.utf8(area.name))
        writer.key("lat"); writer.number(area.coordinate.latitude)
        writer.key("lon"); writer.number(area.coordinate.longitude)
        if let distance { writer.key("distanceMeters"); writer.meters(distance) }
        writer.key("address"); writer.string(utf8: areas.utf8(area.address))
        writer.key("district"); writer.string(utf8: areas.utf8(area.district))
        writer.key("source"); writer.string(utf8: areas.utf8(area.source))
        if detailed {
            writer.key("province"); writer.string(utf8: areas.utf8(area.province))
            writer.key("roadAddress"); writer.string(utf8: areas.utf8(area.roadAddress))
            writer.key("lotAddress"); writer.string(utf8: areas.utf8(area.lotAddress))
            writer.key("fields")
            writer.beginObject()
            areas.forEachField(of: position) { key, value in
                writer.string(utf8: key)
                writer.colon()
                writer.string(utf8: value)
            }
            writer.endObject()
        }
    }

    private func writeHealth(_ state: ServingState, refreshInterval: Double, into writer: inout JSONWriter) {
        let now = Date().timeIntervalSince1970
        writer.beginObject()
        writer.key("ok"); writer.bool(true)
        writer.key("loaded"); writer.bool(state.hasData)
        writer.key("areas"); writer.number(state.index.count)
        writer.key("dataAgeSeconds")
        if let age = state.dataAge(now: now) { writer.number(age.rounded()) } else { writer.null() }
        writer.key("stale"); writer.bool(state.dataAge(now: now).map { $0 > 2 * refreshInterval } ?? true)
        writer.key("refreshing"); writer.bool(isRefreshing)
        writer.key("lastRefreshSucceeded")
        if let report = state.lastReport { writer.bool(report.succeeded) } else { writer.null() }
        writer.endObject()
    }

    private func writeStats(_ state: ServingState, into writer: inout JSONWriter) {
        let now = Date().timeIntervalSince1970
        writer.beginObject()
        writer.key("ok"); writer.bool(true)
        writer.key("areas"); writer.number(state.index.count)
        writer.key("byKind")
        writer.beginObject()
        let records = state.index.areas.records
        for kind in AreaKind.allCases {
            writer.key(escaping: kind.rawValue)
            writer.number(records.reduce(0) { $0 + ($1.kind == kind ? 1 : 0) })
        }
        writer.endObject()
        writer.key("byProvince")
        writer.beginObject()
        var byReference: [StringArena.Ref: Int] = [:]
        for record in records { byReference[record.province, default: 0] += 1 }
        var provinces: [String: Int] = [:]
        for (province, count) in byReference { provinces[state.index.areas.strings.string(province), default: 0] += count }
        for (province, count) in provinces.sorted(by: { $0.key < $1.key }) {
            writer.key(escaping: province.isEmpty ? "(unknown)" : province)
            writer.number(count)
        }
        writer.endObject()
        writer.key("bySource")
        writer.beginObject()
        for name in state.sources.keys.sorted() {
            guard let data = state.sources[name] else { continue }
            writer.key(escaping: name)
            writer.beginObject()
            writer.key("areas"); writer.number(data.range.count)
            writer.key("fetchedAt"); writer.number(data.fetchedAt.rounded())
            writer.key("ageSeconds"); writer.number(Swift.max(0, now - data.fetchedAt).rounded())
            writer.endObject()
        }
        writer.endObject()
        writer.key("index")
        writer.beginObject()
        writer.key("buildMilliseconds"); writer.meters(state.index.buildMilliseconds)
        writer.key("treeBytes"); writer.number(state.index.tree.byteCount)
        writer.key("nodeSize"); writer.number(state.index.tree.nodeSize)
        writer.endObject()
        writer.key("memory")
        writer.beginObject()
        writer.key("recordBytes"); writer.number(state.index.areas.recordByteCount)
        writer.key("textBytes"); writer.number(state.index.areas.strings.byteCount)
        writer.key("indexBytes"); writer.number(state.index.indexByteCount)
        writer.endObject()
        writer.key("snapshot")
        writer.beginObject()
        writer.key("path"); writer.string(snapshotPath)
        var info = stat()
        if stat(snapshotPath, &info) == 0 {
            writer.key("bytes"); writer.number(Int(info.st_size))
            writer.key("ageSeconds"); writer.number(Swift.max(0, now - Double(info.st_mtim.tv_sec)).rounded())
        } else {
            writer.key("bytes"); writer.null()
        }
        writer.endObject()
        writer.key("uptimeSeconds"); writer.number((now - startedAt).rounded())
        writer.key("queriesServed"); writer.number(queriesServed)
        writer.key("refreshing"); writer.bool(isRefreshing)
        writer.key("lastRefresh")
        if let report = state.lastReport { Self.write(report, into: &writer) } else { writer.null() }
        writer.endObject()
    }

    static func write(_ report: RefreshReport, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("startedAt"); writer.number(report.startedAt.rounded())
        writer.key("durationMilliseconds"); writer.meters(report.durationMilliseconds)
        writer.key("forced"); writer.bool(report.forced)
        writer.key("succeeded"); writer.bool(report.succeeded)
        writer.key("sources")
        writer.beginArray()
        for source in report.sources {
            writer.beginObject()
            writer.key("name"); writer.string(source.name)
            writer.key("status"); writer.string(source.status.rawValue)
            writer.key("pages"); writer.number(source.pages)
            writer.key("retries"); writer.number(source.retries)
            writer.key("received"); writer.number(source.received)
            writer.key("accepted"); writer.number(source.accepted)
            writer.key("rejected")
            writer.beginObject()
            for (reason, count) in source.rejected.sorted(by: { $0.key < $1.key }) {
                writer.key(escaping: reason); writer.number(count)
            }
            writer.endObject()
            writer.key("repaired"); writer.number(source.repaired)
            writer.key("duplicates"); writer.number(source.duplicates)
            writer.key("added"); writer.number(source.added)
            writer.key("removed"); writer.number(source.removed)
            writer.key("changed"); writer.number(source.changed)
            writer.key("serving"); writer.number(source.serving)
            writer.key("durationMilliseconds"); writer.meters(source.durationMilliseconds)
            writer.key("error")
            if let error = source.error { writer.string(error) } else { writer.null() }
            writer.key("summary"); writer.string(source.summary)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }
}
