import AreasCore
import AreasProtocol
import Foundation

/// Fetches every configured source and merges the results into a new catalog.
///
/// A source's new areas replace its old ones only when the whole source fetched cleanly and
/// does not look like the upstream quota quirk (an empty or sharply shrunken success). Sources
/// are fetched concurrently; each one's failure stays its own.
public struct Refresher: Sendable {
    public let config: AreasConfig
    private let environment: [String: String]

    public init(config: AreasConfig, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.config = config
        self.environment = environment
    }

    public func refresh(_ previous: Catalog, force: Bool = false) async -> (catalog: Catalog, report: RefreshReport) {
        let started = Date()
        let clock = ContinuousClock()
        let start = clock.now
        let results = await withTaskGroup(of: (Int, Catalog.SourceData?, SourceReport).self) { group in
            for (i, source) in config.sources.enumerated() {
                group.addTask {
                    let (data, report) = await self.ingest(source, previous: previous.sources[source.name], force: force)
                    return (i, data, report)
                }
            }
            var all: [(Int, Catalog.SourceData?, SourceReport)] = []
            for await result in group { all.append(result) }
            return all.sorted { $0.0 < $1.0 }
        }
        // Sources no longer configured are dropped; the rest keep their last good data.
        var next = Catalog()
        for (_, data, report) in results {
            if let data { next.sources[report.name] = data }
        }
        let report = RefreshReport(
            startedAt: started.timeIntervalSince1970,
            durationMilliseconds: (clock.now - start).milliseconds,
            forced: force,
            sources: results.map(\.2))
        return (next, report)
    }

    /// The transport for a source, with its key read from the environment.
    public func transport(for source: SourceConfig) throws(UpstreamError) -> any PageTransport {
        switch source.location {
        case .recordedPages(let directory):
            return try RecordedPageTransport(directory: directory)
        case .url(let url):
            var key: String?
            if let variable = source.serviceKeyEnv {
                guard let value = environment[variable], !value.isEmpty else {
                    throw .transport("the service key variable \(variable) is not set in the environment")
                }
                key = value
            }
            return HTTPPageTransport(baseURL: url, format: source.format, serviceKey: key, timeoutSeconds: source.timeoutSeconds)
        }
    }

    /// One source: fetch, validate, de-duplicate, compare, and decide whether to take it.
    func ingest(_ source: SourceConfig, previous: Catalog.SourceData?, force: Bool) async -> (Catalog.SourceData?, SourceReport) {
        let clock = ContinuousClock()
        let start = clock.now
        var report = SourceReport(name: source.name, status: .failed)
        func finish(_ data: Catalog.SourceData?, _ report: inout SourceReport) -> (Catalog.SourceData?, SourceReport) {
            report.serving = data?.areas.count ?? 0
            report.durationMilliseconds = (clock.now - start).milliseconds
            return (data, report)
        }

        let fetched: PageFetcher.Fetched
        do {
            let fetcher = PageFetcher(source: source, transport: try transport(for: source))
            fetched = try await fetcher.fetchAll()
        } catch let failure as PageFetcher.Failure {
            report.error = failure.description
            report.retries = failure.attempts - 1
            return finish(previous, &report)
        } catch {
            report.error = "\(error)"
            return finish(previous, &report)
        }
        report.pages = fetched.pages
        report.retries = fetched.retries
        report.received = fetched.records.count

        let validator = RecordValidator(source: source, bounds: config.bounds)
        var areas: [Area] = []
        areas.reserveCapacity(fetched.records.count)
        var seen: Set<String> = []
        for record in fetched.records {
            switch validator.validate(record) {
            case .rejected(let reason):
                report.rejected[reason.rawValue, default: 0] += 1
            case .accepted(let area, let repaired):
                // Overlapping pages and repeated rows add nothing twice.
                guard seen.insert(area.id).inserted else {
                    report.duplicates += 1
                    continue
                }
                if repaired { report.repaired += 1 }
                areas.append(area)
            }
        }
        report.accepted = areas.count
        areas.sort { $0.id < $1.id }

        let old = previous?.areas ?? []
        let oldById = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for area in areas {
            if let before = oldById[area.id] {
                if before != area { report.changed += 1 }
            } else {
                report.added += 1
            }
        }
        report.removed = old.count - (areas.count - report.added)

        if !force, !old.isEmpty {
            if areas.isEmpty {
                report.status = .heldBack
                report.error = "the source came back empty (was \(old.count) areas); kept the previous data. A forced refresh takes it."
                return finish(previous, &report)
            }
            let shrink = 1 - Double(areas.count) / Double(old.count)
            if shrink > source.maxShrink {
                report.status = .heldBack
                report.error = "the source shrank from \(old.count) to \(areas.count) areas (more than \(Int(source.maxShrink * 100))%); kept the previous data. A forced refresh takes it."
                return finish(previous, &report)
            }
        }
        report.status = .updated
        return finish(Catalog.SourceData(areas: areas, fetchedAt: Date().timeIntervalSince1970), &report)
    }
}
