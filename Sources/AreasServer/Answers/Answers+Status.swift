import AreasCore
import AreasIngest
import AreasProtocol
import AreasSystem
import Foundation

/// `health`, `stats` and refresh reports.
extension Answers {
    /// What `stats` says of the service itself, beside its data.
    struct ServiceStatus {
        var snapshotPath: String
        var startedAt: Double
        var queriesServed: Int
        var refreshing: Bool
        /// Today's upstream requests by source and for the geocoder.
        var requestsToday: [String: Int]
        /// What the crowd hotspots hold (their shapes, which areas lie in them), with `crowd`.
        var crowdBytes: Int?
    }

    /// What `health` says: whether data is loaded, how old it is, and what, if anything, is wrong.
    struct Health {
        var loaded: Bool
        /// The data's version; nil with no data.
        var version: String?
        var areas: Int
        var dataAgeSeconds: Double?
        var stale: Bool
        var refreshing: Bool
        var lastRefreshSucceeded: Bool?
        /// Why the service is not healthy; nil when it is.
        var problem: String?
        /// What works less well than it could without making the service unhealthy (no
        /// administrative map).
        var warnings: [String] = []

        var healthy: Bool { problem == nil }

        /// `overdue`: how long the refresh under way has run and the time-out it has passed
        /// (a refresh, or a follower's poll, that should have ended by now).
        init(_ state: ServingState, refreshInterval: Double, refreshing: Bool, overdue: (running: Double, limit: Double)? = nil,
             now: Double = Date().timeIntervalSince1970) {
            let age = state.dataAge(now: now)
            loaded = state.hasData
            version = state.hasData ? state.version : nil
            areas = state.index.count
            dataAgeSeconds = age
            stale = age.map { $0 > 2 * refreshInterval } ?? true
            self.refreshing = refreshing
            lastRefreshSucceeded = state.lastReport?.succeeded ?? SourceHistory.succeeded(state.history)
            problem = Answers.healthProblem(state, refreshInterval: refreshInterval, now: now)
            if problem == nil, let overdue {
                problem = "a refresh has run for \(MeasurementText.duration(overdue.running)), past its time-out (\(MeasurementText.duration(overdue.limit)))"
            }
        }
    }

    static func health(_ health: Health, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(.ok); writer.bool(true)
        writer.key(.loaded); writer.bool(health.loaded)
        writer.key(.version)
        if let version = health.version { writer.string(version) } else { writer.null() }
        writer.key(.areas); writer.number(health.areas)
        writer.key(.dataAgeSeconds)
        if let age = health.dataAgeSeconds { writer.number(age.rounded()) } else { writer.null() }
        writer.key(.stale); writer.bool(health.stale)
        writer.key(.refreshing); writer.bool(health.refreshing)
        writer.key(.lastRefreshSucceeded)
        if let succeeded = health.lastRefreshSucceeded { writer.bool(succeeded) } else { writer.null() }
        writer.key(.healthy); writer.bool(health.healthy)
        writer.key(.problem)
        if let problem = health.problem { writer.string(problem) } else { writer.null() }
        writer.key(.warnings)
        writer.beginArray()
        for warning in health.warnings { writer.string(warning) }
        writer.endArray()
        writer.endObject()
    }

    /// Why the service is not healthy, or nil: data loaded, fresh (younger than twice the
    /// refresh interval), and every source taken by the last refresh. What a probe or a load
    /// balancer should act on, in one line.
    static func healthProblem(_ state: ServingState, refreshInterval: Double, now: Double) -> String? {
        let age = state.dataAge(now: now)
        if !state.hasData { return "no data loaded yet" }
        // Data without any source has no age, and no age is never fresh.
        guard let age else { return "the data served has no source, so nothing says how old it is" }
        if age > 2 * refreshInterval {
            return "the data is \(MeasurementText.duration(age)) old, more than twice the refresh interval (\(MeasurementText.duration(refreshInterval)))"
        }
        if let report = state.lastReport, !report.succeeded {
            let failing = report.sources.filter { $0.status != .updated }.map { "\($0.name) (\($0.status.rawValue))" }
            return "the last refresh\(report.isFromBeforeRestart ? " before the restart" : "") did not take every source: " + failing.joined(separator: ", ")
        }
        // Before this process's first refresh: what the last one before the restart said.
        if state.lastReport == nil, SourceHistory.succeeded(state.history) == false {
            let failing = state.history.filter { $0.value.lastStatus != SourceReport.Status.updated.rawValue }.keys.sorted()
                .map { "\($0) (\(state.history[$0]?.lastStatus ?? "unknown"))" }
            return "the last refresh before the restart did not take every source: " + failing.joined(separator: ", ")
        }
        return nil
    }

    static func stats(_ state: ServingState, status: ServiceStatus, configured: [String] = [], into writer: inout JSONWriter) {
        let now = Date().timeIntervalSince1970
        writer.beginObject()
        writer.key(.ok); writer.bool(true)
        writer.key(.build); writer.string(AreasVersion.current)
        writer.key(.version)
        if state.hasData { writer.string(state.version) } else { writer.null() }
        writer.key(.areas); writer.number(state.index.count)
        writer.key(.byKind)
        writer.beginObject()
        for kind in AreaKind.allCases {
            writer.key(escaping: kind.rawValue)
            writer.number(state.count(of: kind))
        }
        writer.endObject()
        writer.key(.byProvince)
        writer.beginObject()
        for (province, count) in state.counts.byProvince.sorted(by: { $0.key < $1.key }) {
            writer.key(escaping: province.isEmpty ? "(unknown)" : province)
            writer.number(count)
        }
        writer.endObject()
        // Every source there is data or history for: one whose refreshes fail is listed too.
        writer.key(.bySource)
        writer.beginObject()
        // Today's upstream requests, as counted for dailyRequestLimit (kept beside the snapshot).
        let requestsToday = status.requestsToday
        // In the config's order, as `sources` lists them; any other after, by name.
        let known = Set(state.sources.keys).union(state.history.keys)
        for name in configured.filter(known.contains) + known.subtracting(configured).sorted() {
            let data = state.sources[name]
            let history = state.history[name]
            func time(_ key: AnswerKey, _ value: Double?) {
                writer.key(key)
                if let value { writer.number(value.rounded()) } else { writer.null() }
            }
            writer.key(escaping: name)
            writer.beginObject()
            writer.key(.areas); writer.number(state.counts(of: name).areas)
            time(.fetchedAt, data?.fetchedAt)
            time(.ageSeconds, data.map { Swift.max(0, now - $0.fetchedAt) })
            time(.lastAttemptAt, history?.lastAttemptAt)
            time(.lastSuccessAt, history?.lastSuccessAt ?? data?.fetchedAt)
            writer.key(.lastStatus)
            if let status = history?.lastStatus { writer.string(status) } else { writer.null() }
            writer.key(.lastError)
            if let error = history?.lastError { writer.string(error) } else { writer.null() }
            writer.key(.requestsToday); writer.number(requestsToday[name] ?? 0)
            writer.key(.referenceDates)
            referenceDates(state.counts(of: name).referenceDates, into: &writer)
            writer.endObject()
        }
        writer.endObject()
        writer.key(.geocoderRequestsToday); writer.number(requestsToday[RequestQuota.geocoderName] ?? 0)
        writer.key(.index)
        writer.beginObject()
        writer.key(.buildMilliseconds)
        if let built = state.index.buildMilliseconds { writer.meters(built) } else { writer.null() }
        writer.key(.treeBytes); writer.number(state.index.tree.byteCount)
        writer.key(.nodeSize); writer.number(state.index.tree.nodeSize)
        writer.endObject()
        writer.key(.memory)
        writer.beginObject()
        writer.key(.recordBytes); writer.number(state.index.areas.recordByteCount)
        writer.key(.textBytes); writer.number(state.index.areas.strings.byteCount)
        writer.key(.indexBytes); writer.number(state.index.indexByteCount)
        writer.key(.searchBytes); writer.number(state.index.search.byteCount)
        if let crowdBytes = status.crowdBytes { writer.key(.crowdBytes); writer.number(crowdBytes) }
        // What the process holds: the parts above live in the mapped snapshot (resident as
        // they are read) or, served from memory, in the heap.
        // The resident sizes and the mappings read one straight after the other: code that runs
        // between them (faulting in library pages let go of after a refresh) would part them.
        let usage = FreeMemory.usage()
        let mappings = MemoryMapping.ofProcess() ?? []
        writer.key(.heapBytes); writer.number(usage.heapInUse)
        writer.key(.heapFreeBytes); writer.number(usage.heapFree)
        writer.key(.residentBytes); writer.number(usage.resident)
        writer.key(.residentAnonymousBytes); writer.number(usage.residentAnonymous)
        writer.key(.residentFileBytes); writer.number(usage.residentFile)
        Self.residentParts(of: state.index, usage: usage, mappings: mappings, into: &writer)
        writer.endObject()
        writer.key(.snapshot)
        writer.beginObject()
        writer.key(.path); writer.string(status.snapshotPath)
        if let file = try? FileSystem.status(of: status.snapshotPath) {
            writer.key(.bytes); writer.number(file.size)
            writer.key(.ageSeconds); writer.number(Swift.max(0, now - file.modified.rounded(.down)).rounded())
        } else {
            writer.key(.bytes); writer.null()
        }
        writer.endObject()
        writer.key(.uptimeSeconds); writer.number((now - status.startedAt).rounded())
        writer.key(.queriesServed); writer.number(status.queriesServed)
        writer.key(.refreshing); writer.bool(status.refreshing)
        writer.key(.lastRefresh)
        if let report = state.lastReport { Self.report(report, into: &writer) } else { writer.null() }
        writer.endObject()
    }

    /// Where the resident memory is: each part of the served data (the pages of it in RAM,
    /// or its bytes when held in the heap), the other mapped files (the program, its
    /// libraries, the region map), the rest of the heap in use, and the anonymous pages the
    /// allocator does not count in use (free space it keeps, thread stacks). `accountedBytes`
    /// sums them, measured apart from `residentBytes`, which it should come close to.
    static func residentParts(of index: AreaIndex, usage: FreeMemory.Usage, mappings: [MemoryMapping], into writer: inout JSONWriter) {
        let parts = ResidentParts(of: index)
        let snapshot = (index.areas.records.storage as? MappedFile)?.status.inode
        let otherFiles = mappings.reduce(0) { total, mapping in
            mapping.isFile && mapping.inode != snapshot ? total + mapping.residentBytes - mapping.anonymousBytes : total
        }
        let dataInHeap = parts.inMemory.values.reduce(0, +)
        let heapOther = Swift.max(0, usage.heapInUse - dataInHeap)
        let unallocated = Swift.max(0, usage.residentAnonymous - usage.heapInUse)
        var accounted = otherFiles + heapOther + unallocated
        writer.key(.residentParts)
        writer.beginObject()
        for part in FlatLayoutPart.allCases where part != .settings {
            let bytes = (parts.mapped[part] ?? 0) + (parts.inMemory[part] ?? 0)
            accounted += bytes
            writer.key(escaping: part.name); writer.number(bytes)
        }
        writer.endObject()
        writer.key(.otherFileBytes); writer.number(otherFiles)
        writer.key(.heapOtherBytes); writer.number(heapOther)
        writer.key(.anonymousUnallocatedBytes); writer.number(unallocated)
        writer.key(.accountedBytes); writer.number(accounted)
    }

    static func report(_ report: RefreshReport, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(.startedAt); writer.number(report.startedAt.rounded())
        writer.key(.durationMilliseconds); writer.meters(report.durationMilliseconds)
        writer.key(.forced); writer.bool(report.forced)
        writer.key(.succeeded); writer.bool(report.succeeded)
        writer.key(.sources)
        writer.beginArray()
        for source in report.sources {
            writer.beginObject()
            writer.key(.name); writer.string(source.name)
            // As the summary says it: fetched whole and the same areas as before.
            writer.key(.status); writer.string(source.isUnchanged ? "unchanged" : source.status.rawValue)
            writer.key(.pages); writer.number(source.pages)
            writer.key(.retries); writer.number(source.retries)
            writer.key(.received); writer.number(source.received)
            writer.key(.accepted); writer.number(source.accepted)
            writer.key(.rejected)
            writer.beginObject()
            for (reason, count) in source.rejected.sorted(by: { $0.key < $1.key }) {
                writer.key(escaping: reason); writer.number(count)
            }
            writer.endObject()
            writer.key(.repaired); writer.number(source.repaired)
            writer.key(.positions)
            writer.beginObject()
            writer.key(.published); writer.number(source.published)
            writer.key(.geocodedNew); writer.number(source.geocodedNew)
            writer.key(.geocodedRemembered); writer.number(source.geocodedRemembered)
            writer.key(.positionsFile); writer.number(source.placedByOperator)
            writer.endObject()
            writer.key(.duplicates); writer.number(source.duplicates)
            writer.key(.outsideDistrict); writer.number(source.outsideDistrict)
            writer.key(.districtsFromPosition); writer.number(source.districtsFromPosition)
            writer.key(.merged); writer.number(source.merged)
            writer.key(.unreadableDates); writer.number(source.unreadableDates)
            writer.key(.referenceDates)
            referenceDates(source.referenceDates.map { ($0.lowerBound, $0.upperBound) }, into: &writer)
            writer.key(.added); writer.number(source.added)
            writer.key(.removed); writer.number(source.removed)
            writer.key(.changed); writer.number(source.changed)
            if let kept = source.keptIDs { writer.key(.keptIDs); writer.number(kept) }
            writer.key(.serving); writer.number(source.serving)
            writer.key(.durationMilliseconds); writer.meters(source.durationMilliseconds)
            writer.key(.error)
            if let error = source.error { writer.string(error) } else { writer.null() }
            writer.key(.warnings)
            writer.beginArray()
            for warning in source.warnings { writer.string(warning) }
            writer.endArray()
            writer.key(.summary); writer.string(source.summary)
            writer.endObject()
        }
        writer.endArray()
        writer.key(.problems)
        writer.beginArray()
        for problem in report.problems { writer.string(problem) }
        writer.endArray()
        writer.endObject()
    }
}
