import AreasCore
import AreasProtocol
import AreasSystem
import Foundation

/// Fetches every configured source and merges the results into a new catalog.
///
/// A source's new areas replace its old ones only when the whole source fetched cleanly and
/// does not look like the upstream quota quirk (an empty or sharply shrunken success). Sources
/// are fetched concurrently; each one's failure stays its own.
package struct Refresher: Sendable {
    package let config: AreasConfig
    let environment: [String: String]
    /// Where what the geocoder said is kept between refreshes and restarts; nowhere when nil.
    let geocodeMemoryPath: String?
    /// What the geocoder has said, as of the last refresh (nil until the first loads it).
    let geocodeMemory = LockedValue<GeocodeMemory?>(nil)
    /// Today's upstream requests, per source and for the geocoder.
    package let quota: RequestQuota
    /// The administrative map each record's district is checked against; none when nil.
    package var regions: RegionMap?
    /// Told each time a source finishes (fetched, failed or held back), for a status line.
    package var sourceFinished: (@Sendable () -> Void)?
    /// The daemon's geocoder pace, shared with its searches; one of the refresh's own when nil.
    package var geocoderPacing: GeocoderPacing?
    /// The upload each `dataset` source served last, kept in its report when the portal's
    /// document cannot be read this time.
    package var previousRevisions: [String: DatasetRevision] = [:]

    /// `snapshotPath` is the snapshot the daemon writes (the config's unless overridden): the
    /// geocoder's answers are kept beside it.
    /// The rows at which the data portal's file exports stop, whatever the data set holds.
    static let portalExportLimit = 10_000

    /// `quota`: the daemon's count of today's requests, which lives as long as it does; one
    /// read from beside the snapshot when nil.
    package init(config: AreasConfig, environment: [String: String] = ProcessInfo.processInfo.environment, snapshotPath: String? = nil,
                 quota: RequestQuota? = nil) {
        self.config = config
        self.environment = environment
        let folder = (snapshotPath ?? config.snapshot).map(SnapshotFolder.init(snapshot:))
        self.geocodeMemoryPath = folder?.geocoderMemory
        self.quota = quota ?? RequestQuota(path: folder?.requestCounts)
    }

    package func refresh(_ previous: Catalog, force: Bool = false) async -> (catalog: Catalog, report: RefreshReport) {
        let started = Date()
        let clock = ContinuousClock()
        let start = clock.now
        let (geocoding, geocodingProblems) = startGeocoding(now: started.timeIntervalSince1970)
        // Each source on its own; past refreshTimeoutSeconds the refresh goes on without the
        // ones still running, which fail alone and keep their last good data.
        let collector = SourceResults<(Catalog.Replacement?, SourceReport)>(expecting: config.sources.count)
        for (i, source) in config.sources.enumerated() {
            Task {
                collector.put(i, await self.ingest(source, previous: previous, force: force, geocoding: geocoding))
                self.sourceFinished?()
            }
        }
        var finished = await collector.wait(seconds: config.refreshTimeoutSeconds)
        // Sources no longer configured are dropped; the rest keep their last good data. The
        // new tables are held only here, so that the merge can let each go once copied.
        var replacements: [String: Catalog.Replacement] = [:]
        let reports = config.sources.enumerated().map { i, source -> SourceReport in
            if let (replacement, report) = finished.removeValue(forKey: i) {
                if let replacement { replacements[report.name] = replacement }
                return report
            }
            var report = SourceReport(name: source.name, status: .failed)
            report.serving = previous.sources[source.name]?.range.count ?? 0
            report.durationMilliseconds = (clock.now - start).milliseconds
            report.error = "did not finish within \(MeasurementText.duration(config.refreshTimeoutSeconds)) (refreshTimeoutSeconds); the refresh went on without it and it is tried again at the next"
            return report
        }
        // The networking, TLS and page decoders' code is done with: its pages need not stay
        // resident through the merge, the index and the file (they come back if used again),
        // nor need the fetch worker live through them.
        HTTPClient.fetchingPaused()
        FreeMemory.releaseUnwrittenFilePages()
        // The operator's added areas are a source of their own, replaced when the lines change.
        let overrides = readOverrides()
        if let file = overrides.file {
            let added = file.added
            let span = previous.sources[AreaOverride.addedSource]
            if span.map({ added.difference(added.indices, from: previous.table, $0.range).isEmpty }) != true {
                replacements[AreaOverride.addedSource] = Catalog.Replacement(table: added, fetchedAt: started.timeIntervalSince1970)
            }
        }
        let next = previous.merging(consume replacements, keeping: config.catalogSourceNames)
        var report = RefreshReport(
            startedAt: started.timeIntervalSince1970,
            durationMilliseconds: (clock.now - start).milliseconds,
            forced: force,
            sources: reports)
        report.problems = geocodingProblems + overrides.problems
        report.overrides = overrides.file?.lines
        if let geocoding { report.problems += await finishGeocoding(geocoding, now: started.timeIntervalSince1970) }
        return (next, report)
    }

    /// The operator's corrections as the file says them now, and what is wrong with it: nil
    /// when none is configured or it cannot be read (then the report says why).
    func readOverrides() -> (file: OverridesFile?, problems: [String]) {
        guard let path = config.overrides else { return (nil, []) }
        do throws(UpstreamError) {
            let file = try OverridesFile(path: path, bounds: config.bounds)
            return (file, file.problems)
        } catch {
            return (nil, ["overrides \(path): \(error); the corrections applied before stay"])
        }
    }

    /// The source's key, read from the environment; nil for a source without one.
    func serviceKey(for source: SourceConfig) throws(UpstreamError) -> String? {
        guard let variable = source.serviceKeyEnv else { return nil }
        guard let value = environment[variable], !value.isEmpty else {
            throw .transport("the service key variable \(variable) is not set in areasd's environment (the installed service reads it from /etc/areasd/areasd.env; restart it once set)")
        }
        return value
    }

    /// The transport for a source, with its key read from the environment.
    package func transport(for source: SourceConfig) throws(UpstreamError) -> any PageTransport {
        switch source.location {
        case .recordedPages(let directory):
            return try RecordedPageTransport(directory: directory)
        case .url(let url):
            let key = try serviceKey(for: source)
            let network = HTTPPageTransport(baseURL: url, format: source.format, serviceKey: key, timeoutSeconds: source.timeoutSeconds, maxPageBytes: source.maxPageBytes)
            return QuotaTransport(inner: network, name: source.name, limit: source.dailyRequestLimit, quota: quota)
        case .file(let path):
            return FileTransport(path: path, maxBytes: source.maxPageBytes)
        case .dataset(let id):
            throw .transport("data set \(id) is paged from the upload its document names, found first")
        }
    }

    /// One source: fetch, validate, de-duplicate, compare, and decide whether to take it. The
    /// answer is the source's new areas when they replace its old ones, nil when the old ones
    /// (if any) stay.
    func ingest(_ configured: SourceConfig, previous catalog: Catalog, force: Bool, geocoding: Geocoding? = nil) async -> (Catalog.Replacement?, SourceReport) {
        let clock = ContinuousClock()
        let start = clock.now
        let previous = catalog.sources[configured.name]
        var report = SourceReport(name: configured.name, status: .failed)
        func finish(_ replacement: Catalog.Replacement?, _ report: inout SourceReport) -> (Catalog.Replacement?, SourceReport) {
            report.serving = replacement?.table.count ?? previous?.range.count ?? 0
            report.durationMilliseconds = (clock.now - start).milliseconds
            return (replacement, report)
        }
        // A data set by id: its newest upload, and its columns chosen when the config leaves
        // them to the daemon; the page read to choose them is the fetch's first.
        var source = configured
        var firstPage: PageResponse?
        if case .dataset(let id) = configured.location {
            // Without its key the upload cannot be read: the document is not asked for.
            do throws(UpstreamError) { _ = try serviceKey(for: configured) } catch {
                report.error = error.description
                return finish(nil, &report)
            }
            do throws(DatasetDocument.Failure) {
                let resolved = try await resolve(dataset: id, configured)
                (source, firstPage, report.revision) = (resolved.source, resolved.firstPage, resolved.revision)
            } catch {
                report.error = error.reason + (previousRevisions[configured.name].map { "; still serving its upload \($0.title) (\($0.date))" } ?? "")
                report.revision = previousRevisions[configured.name]
                return finish(nil, &report)
            }
        }

        // Each page's rows go into the source's table as they are validated, in page order,
        // while later pages are still in flight.
        let validator = RecordValidator(source: source, bounds: config.bounds)
        var builder = AreaTable.Builder(capacity: 0)
        var rows = RecordValidator.Rows(footprint: config.footprint)
        var unplaced: [RecordValidator.Unplaced] = []
        // The features whose polygons touched or crossed themselves, named in the report.
        var repairedShapes: [String] = []
        func take(_ area: Area) -> Bool {
            // The district check first, so that a row is compared with an earlier one (read
            // back from the builder) as both were stored.
            var area = area
            var finding: RegionMap.DistrictFinding?
            if let regions {
                finding = regions.judge(province: area.province, district: area.district, at: area.coordinate, toleranceMeters: config.regions.toleranceMeters)
                if let finding { RegionFields.apply(finding, to: &area) }
            }
            // Overlapping pages and repeated rows add nothing twice.
            let idNumber = builder.strings.number(of: area.id)
            guard let admitted = rows.admit(area, idNumber: idNumber, firstRow: { RecordValidator.Rows.keys(of: builder.area(at: $0), footprint: config.footprint) }) else {
                report.duplicates += 1
                return false
            }
            switch finding {
            case .elsewhere?: report.outsideDistrict += 1
            case .fromPosition?: report.districtsFromPosition += 1
            default: break
            }
            builder.append(admitted)
            if validator.hasUnreadableReferenceDate(admitted) { report.unreadableDates += 1 }
            return true
        }
        func validate(_ page: [[Field]]) {
            // A fetch uses the networking, TLS and decoders' code steadily but much of what
            // they loaded only once, and frees each page once its rows are in the table: neither
            // need stay resident while pages come in.
            FreeMemory.releaseUnusedPages(atMostEvery: 0.25)
            for record in page {
                switch validator.validate(record) {
                case .rejected(let reason):
                    report.rejected[reason.rawValue, default: 0] += 1
                case .accepted(let area, let repaired):
                    guard take(area) else { continue }
                    report.published += 1
                    if repaired { report.repaired += 1 }
                    if repaired, source.format == .geojson, RecordValidator.hasRepairedShape(record) { repairedShapes.append(area.name) }
                case .unplaced(let row):
                    unplaced.append(row)
                }
            }
        }
        let fetched: PageFetcher.Fetched
        do {
            var transport = try transport(for: source)
            if let firstPage { transport = FirstPageRead(inner: transport, first: firstPage) }
            let fetcher = PageFetcher(source: source, transport: transport)
            fetched = try await fetcher.fetchAll(expecting: { builder.reserveCapacity(forRows: $0) }, validate)
        } catch {
            // What the pages handed on before the failure counted is not the source's.
            report = SourceReport(name: source.name, status: .failed)
            if let failure = error as? PageFetcher.Failure {
                report.error = failure.description
                report.retries = failure.attempts - 1
            } else {
                report.error = "\(error)"
            }
            return finish(nil, &report)
        }
        report.pages = fetched.pages
        report.retries = fetched.retries
        report.received = fetched.records
        if source.format.isSingleFile && fetched.records == Self.portalExportLimit {
            report.warnings.append("exactly \(Self.portalExportLimit) rows, where the portal cuts its exports off: the file may be incomplete")
        }
        if !unplaced.isEmpty {
            let placements = await geocoding?.place(unplaced, source: source.name) ?? []
            for (row, placement) in zip(unplaced, placements) {
                switch placement {
                case .rejected(let reason):
                    report.rejected[reason.rawValue, default: 0] += 1
                case .placed(let point, let how):
                    guard take(validator.area(name: row.name, coordinate: point, fields: row.fields, geocoded: true)) else { continue }
                    switch how {
                    case .asked: report.geocodedNew += 1
                    case .remembered: report.geocodedRemembered += 1
                    case .operatorFile: report.placedByOperator += 1
                    }
                }
            }
        }
        if !repairedShapes.isEmpty {
            let shown = repairedShapes.prefix(5).joined(separator: ", ")
            report.warnings.append("\(repairedShapes.count) polygons touched or crossed themselves and were repaired: \(shown)"
                                   + (repairedShapes.count > 5 ? " and \(repairedShapes.count - 5) more" : ""))
        }
        // What told repeated rows apart is done with: it goes before the rows are copied into
        // id order, the source's peak.
        rows = RecordValidator.Rows(footprint: config.footprint)
        unplaced = []
        var table = builder.buildSortedByID()
        if let previous {
            // The fetch's code (networking, the page decoder) is done with for this source: its
            // pages go before the comparison reads the served file's, so the two do not add up.
            FreeMemory.releaseUnwrittenFilePages()
            // Rows moved, renamed or re-addressed keep the id their place had.
            let stable = StableIDs.keeping(table, from: catalog.table, previous.range, lettingGo: catalog.releaseMappedPages)
            table = stable.table
            report.keptIDs = stable.kept > 0 ? stable.kept : nil
        }
        report.accepted = table.count
        let days = table.records.lazy.map(\.referenceDay).filter { $0 > 0 }
        if let oldest = days.min().flatMap(ReferenceDate.init(day:)), let newest = days.max().flatMap(ReferenceDate.init(day:)) {
            report.referenceDates = oldest...newest
        }
        let oldCount = previous?.range.count ?? 0
        compare(table, with: catalog, span: previous, into: &report)
        // The comparison read the source's run of the served file, which can be most of it:
        // those pages need not stay while the other sources and the new set are built.
        catalog.releaseMappedPages()

        // Rows that all failed validation are a source that does not work (a field named
        // wrong, a changed layout), not a source with no areas: it fails, and says why.
        if table.isEmpty && report.received > 0 && (oldCount == 0 || !force) {
            report.status = .failed
            let why = await Self.whyNoRowWasPlaced(source, report, geocoder: config.geocoder, whyUnavailable: geocoding?.whyUnavailable)
                ?? (source.format == .geojson ? "" : "; check its fields against the data (areasd --discover reads a file and names them)")
            report.error = "every one of its \(report.received) rows was rejected\(oldCount > 0 ? "; kept the previous data" : ", so it has nothing to serve")\(why)"
            return finish(nil, &report)
        }
        if !force, oldCount > 0 {
            if table.isEmpty {
                report.status = .heldBack
                report.error = "the source came back empty (was \(oldCount) areas); kept the previous data. A forced refresh takes it."
                return finish(nil, &report)
            }
            let shrink = 1 - Double(table.count) / Double(oldCount)
            if shrink > source.maxShrink {
                report.status = .heldBack
                report.error = "the source shrank from \(oldCount) to \(table.count) areas (more than \(Int(source.maxShrink * 100))%); kept the previous data. A forced refresh takes it."
                return finish(nil, &report)
            }
        }
        report.status = .updated
        return finish(Catalog.Replacement(table: table, fetchedAt: Date().timeIntervalSince1970), &report)
    }

    /// When every row was rejected for want of a position the geocoder or the positions file
    /// would give (the fields were read right: `--discover` has nothing to add), why, and the
    /// way to serve the rows without a geocoder.
    static func whyNoRowWasPlaced(_ source: SourceConfig, _ report: SourceReport, geocoder: GeocoderConfig?, whyUnavailable: String?) -> String? {
        let placing: [RecordValidator.Rejection] = [.notFound, .geocoderUnavailable, .notInPositionsFile]
        let counts = placing.map { report.rejected[$0.rawValue] ?? 0 }
        guard counts.reduce(0, +) == report.received, report.received > 0 else { return nil }
        let file: String
        switch source.location {
        case .file(let path): file = path
        case .url(let url): file = url
        case .recordedPages(let folder): file = folder
        case .dataset(let id): file = "--dataset " + id
        }
        let offline = "; to serve them without a geocoder, place them by hand: areasd --discover \(file) --positions-template > positions.csv "
            + "writes the rows to place (name, address, latitude, longitude), and the config's \"positions\": \"positions.csv\" reads it once filled in"
        var reasons: [String] = []
        if counts[0] > 0 {
            let recording = geocoder?.recordedAnswers.map { " (its recorded answers, \($0), do not hold these addresses)" } ?? ""
            reasons.append("the geocoder found none of \(counts[0]) addresses\(recording)")
        }
        if counts[1] > 0 { reasons.append("the geocoder could not be asked for \(counts[1]): \(whyUnavailable ?? "unavailable")") }
        if counts[2] > 0 { reasons.append("\(counts[2]) are not in the positions file and no geocoder is configured") }
        return ": " + reasons.joined(separator: "; ") + offline
    }

    /// Counts the areas added, removed and changed against the source's previous run.
    private func compare(_ table: AreaTable, with catalog: Catalog, span: Catalog.SourceSpan?, into report: inout SourceReport) {
        let difference = table.difference(table.indices, from: catalog.table, span?.range ?? 0..<0, lettingGo: catalog.releaseMappedPages)
        report.added += difference.added
        report.removed += difference.removed
        report.changed += difference.changed
    }
}
