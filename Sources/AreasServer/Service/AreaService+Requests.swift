import AreasCore
import AreasIngest
import AreasProtocol
import AreasSystem
import Foundation

/// Request dispatch: who may ask what, and which answer each request gets.
extension AreaService {
    /// Answers one request line into `writer`, followed by a newline. Never throws: every
    /// failure becomes an error line.
    package func respond(to line: UnsafeBufferPointer<UInt8>, peerUID: UInt32?, view: View, into writer: inout JSONWriter) {
        var tally = RequestTally()
        respond(to: line, peerUID: peerUID, view: view, into: &writer, tally: &tally)
    }

    /// The same, counting the request's operation or error in `tally`; returns the error's
    /// code when the answer is an error (the HTTP front door's status).
    @discardableResult
    package func respond(to line: UnsafeBufferPointer<UInt8>, peerUID: UInt32?, view: View, into writer: inout JSONWriter, tally: inout RequestTally) -> RequestError.Code? {
        // At debug level each request is logged: its op, time and outcome, never its text.
        let startedAt = logger.threshold == .debug ? MonotonicClock.microseconds : nil
        let request: Request
        do throws(RequestError) {
            request = try Request.parse(line)
        } catch {
            tally.answered += 1
            return fail(error, operation: nil, peerUID: peerUID, startedAt: startedAt, into: &writer, tally: &tally)
        }
        return respond(to: request, peerUID: peerUID, view: view, into: &writer, tally: &tally, startedAt: startedAt)
    }

    /// Answers a request already read (an HTTP query's), as `respond(to:...)` answers a line;
    /// an answer listing areas in `form`.
    @discardableResult
    func respond(to request: Request, form: AnswerForm = .json, peerUID: UInt32?, view: View, into writer: inout JSONWriter, tally: inout RequestTally) -> RequestError.Code? {
        respond(to: request, form: form, peerUID: peerUID, view: view, into: &writer, tally: &tally,
                startedAt: logger.threshold == .debug ? MonotonicClock.microseconds : nil)
    }

    private func respond(to request: Request, form: AnswerForm = .json, peerUID: UInt32?, view: View, into writer: inout JSONWriter, tally: inout RequestTally, startedAt: Int?) -> RequestError.Code? {
        tally.answered += 1
        tally.count(request.operation)
        do throws(RequestError) {
            try execute(request, form: form, peerUID: peerUID, view: view, into: &writer)
        } catch {
            return fail(error, operation: request.operation, peerUID: peerUID, startedAt: startedAt, into: &writer, tally: &tally)
        }
        writer.newline()
        log(request.operation, "ok", peerUID: peerUID, startedAt: startedAt)
        return nil
    }

    private func fail(_ error: RequestError, operation: RequestOperation?, peerUID: UInt32?, startedAt: Int?, into writer: inout JSONWriter, tally: inout RequestTally) -> RequestError.Code {
        tally.count(error)
        Answers.error(error, into: &writer)
        writer.newline()
        log(operation, error.code.rawValue, peerUID: peerUID, startedAt: startedAt)
        return error.code
    }

    private func log(_ operation: RequestOperation?, _ outcome: String, peerUID: UInt32?, startedAt: Int?) {
        guard let startedAt else { return }
        logger.debug("request \(operation?.name ?? "unreadable") from uid \(peerUID.map(String.init) ?? "unknown"): \(outcome) in \(MonotonicClock.microseconds - startedAt) µs")
    }

    /// A point outside the bounds the data is kept within has no nearest area, zone or
    /// corridor worth answering with (the nearest to 0, 0 is 13,000 km away): said instead.
    static func requireInside(_ bounds: GeoBox, _ point: GeoPoint, what: String = "the point") throws(RequestError) {
        guard !bounds.contains(point) else { return }
        func text(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
        throw RequestError(.badRequest, "\(what) (\(text(point.latitude)), \(text(point.longitude))) lies outside the data's bounds (latitude \(text(bounds.south)) to \(text(bounds.north)), longitude \(text(bounds.west)) to \(text(bounds.east))): no areas are known there")
    }

    /// How the answer's region was read, when a district stood for names the data has; for an
    /// answer with nothing in it, why, when its region names what the data lacks: a real
    /// district the administrative map knows is said to have no areas (never "did you mean"
    /// another); a name no map knows gets the one probably meant.
    static func note(_ empty: Bool, _ region: Region, served: View) -> AnswerNote? {
        let state = served.state, regions = served.regions.map
        guard !region.isAnywhere else { return nil }
        if let reading = state.index.regionReading(region) { return AnswerNote(text: reading) }
        guard empty, let unknown = state.index.unknownRegion(region) else { return nil }
        if let map = regions, let district = region.district,
           let row = map.districtRows(named: district, province: region.province).first {
            let province = map[.province].row(ofCode: RegionMap.Level.district.code(map[.district].codes[row], at: .province)).map { map[.province].names[$0] }
            let place = [province, map[.district].names[row]].compactMap { $0 }.joined(separator: " ")
            return AnswerNote(text: "the data has no areas in \(place): none of its sources covers it", unknownRegion: true)
        }
        return AnswerNote(text: unknown, unknownRegion: true)
    }

    /// The uid a peer gets when the daemon's user namespace does not map its own: under a unit
    /// with `PrivateUsers=yes` (config/areasd.service), every user but root and the daemon's.
    static let unmappedUID: UInt32 = 65534

    /// Why a refresh was refused, in terms of the uid the daemon saw, which under a unit with
    /// private users is not the asker's own.
    static func refusal(_ peerUID: UInt32?) -> String {
        let refused = "refresh is allowed only to root, the daemon's user, or adminUids"
        guard let peerUID else { return refused + "; the daemon could not see who asked" }
        guard peerUID == unmappedUID else { return refused + "; the daemon sees your uid as \(peerUID)" }
        return refused + "; the daemon sees your uid as 65534 (nobody), which is how a daemon with private users "
            + "(PrivateUsers=yes, as config/areasd.service runs it) sees every user but root and its own: ask as root "
            + "(sudo areasctl refresh), or turn PrivateUsers off in a drop-in to let adminUids ask"
    }

    func isAdmin(_ uid: UInt32?, _ view: View) -> Bool {
        guard let uid else { return false }
        return uid == 0 || uid == CurrentProcess.userID || view.adminUids.contains(uid)
    }

    func execute(_ request: Request, peerUID: UInt32?, into writer: inout JSONWriter) throws(RequestError) {
        try execute(request, peerUID: peerUID, view: view(), into: &writer)
    }

    func execute(_ request: Request, form: AnswerForm = .json, peerUID: UInt32?, view: View, into writer: inout JSONWriter) throws(RequestError) {
        if request.isPrivileged && !isAdmin(peerUID, view) {
            logger.warning("refused a refresh asked by uid \(peerUID.map(String.init) ?? "unknown"): only root, the daemon's user and adminUids may ask")
            throw RequestError(.permissionDenied, Self.refusal(peerUID))
        }
        try answer(request, asked: Asked(service: self, view: view, form: form), into: &writer)
    }

    static func run<T>(_ body: () throws(GeoError) -> T) -> Result<T, RequestError> {
        do throws(GeoError) {
            return .success(try body())
        } catch {
            if case .tooExpensive = error { return .failure(RequestError(.tooExpensive, error.description)) }
            return .failure(RequestError(.badRequest, error.description))
        }
    }

    /// How many areas an answer may carry: `limit`, at most `maxResults`; a count carries no
    /// areas, so it counts them all (or up to `limit`).
    static func cap(_ limit: Int?, output: OutputMode, maxResults: Int) -> Int {
        output == .count ? Swift.min(limit ?? .max, .max - 1) : Swift.min(limit ?? maxResults, maxResults)
    }

    /// Why there is nothing to serve now (`noDataReason(_:refreshing:)`), with how far the
    /// running refresh has got.
    package func noDataReason(_ state: ServingState) -> String {
        Self.noDataReason(state, refreshing: isRefreshing ? refreshProgress.withLock { $0 } : nil)
    }

    /// Why there is nothing to serve: the first refresh is running (and how many of its sources
    /// it has finished), or has not run, or failed, and then what each source said (this
    /// process's report, or the history kept from before).
    static func noDataReason(_ state: ServingState, refreshing progress: (finished: Int, of: Int)?) -> String {
        if let progress {
            let sources = progress.of > 0 ? " (\(progress.finished) of \(progress.of) sources)" : ""
            return "no data loaded yet: the first refresh is running\(sources)"
        }
        let failures: [(name: String, said: String)] = state.lastReport.map { report in
            report.sources.filter { $0.status != .updated }.map { ($0.name, $0.error ?? $0.status.rawValue) }
        } ?? state.history.filter { $0.value.lastStatus != nil && $0.value.lastStatus != SourceReport.Status.updated.rawValue }
            .sorted { $0.key < $1.key }.map { ($0.key, $0.value.lastError ?? $0.value.lastStatus ?? "") }
        guard !failures.isEmpty else { return "no data loaded yet: waiting for the first refresh" }
        return "no data loaded: the last refresh failed (" + failures.map { "\($0.name): \($0.said)" }.joined(separator: "; ")
            + "); it is tried again after a pause that grows to the refresh interval"
    }

    func currentHealth(_ view: View) -> Answers.Health {
        let config = self.config
        let limit = config.follow?.timeoutSeconds ?? config.refreshTimeoutSeconds
        // A moment's grace: the deadline's own work (failing the stalled sources, installing
        // the rest) finishes just after it.
        let overdue = refreshes.runningSeconds.flatMap { $0 > limit + 1 ? (running: $0, limit: limit) : nil }
        var health = Answers.Health(view.state, refreshInterval: view.refreshInterval, refreshing: isRefreshing, overdue: overdue)
        // Without data, why: the refresh running, or what each source said when it failed.
        if !view.state.hasData { health.problem = noDataReason(view.state) }
        if case .unavailable = view.regions, let problem = view.regions.problem { health.warnings.append(problem) }
        return health
    }

    /// The Prometheus text exposition of the service's counters and its data.
    func metricsText(_ view: View) -> String {
        PrometheusText.render(served: view, status: status, counters: counters)
    }

    /// What `stats` says of the service itself, beside its data.
    var status: Answers.ServiceStatus {
        Answers.ServiceStatus(
            snapshotPath: snapshotPath, startedAt: startedAt, queriesServed: queriesServed, refreshing: isRefreshing,
            requestsToday: quota.today(), crowdBytes: crowdWatch.withLock { $0 }.map { $0.byteCount(serving: state) })
    }
}
