import AreasCore
import Foundation

extension Refresher {
    /// A `dataset` source made a source of its newest upload: the portal's document read (no
    /// key sent), the upload's URL, and, when the config leaves the fields to the daemon, the
    /// columns `--discover` would choose from the upload's first page (returned, so the fetch
    /// does not ask for it again).
    func resolve(dataset id: String, _ configured: SourceConfig) async throws(DatasetDocument.Failure)
        -> (source: SourceConfig, firstPage: PageResponse?, revision: DatasetRevision) {
        var revision = try await DatasetDocument.newest(of: id, odcloud: config.odcloud, timeoutSeconds: configured.timeoutSeconds,
                                                        now: Date().timeIntervalSince1970)
        var source = configured
        source.location = .url(config.odcloud.apiURL + revision.path)
        guard configured.choosesFields else { return (source, nil, revision) }
        // The columns chosen last time stand while the upload's model lists the same columns.
        if let previous = previousRevisions[configured.name], let chosen = previous.chosenFields, !revision.columns.isEmpty,
           previous.columns == revision.columns {
            source.fields = FieldMapping(written: chosen.map { ($0.field, $0.column) })
            source.geocode = configured.geocode ?? previous.chosenGeocode.flatMap(Self.queries)
            revision.chosenFields = chosen
            revision.chosenGeocode = previous.chosenGeocode
            return (source, nil, revision)
        }
        let read: PageResponse?
        do throws(UpstreamError) {
            read = try await transport(for: source).fetch(page: 1, size: source.pageSize)
        } catch {
            throw DatasetDocument.Failure(reason: "the first page of upload \(revision.title) (data set \(id)) could not be read to choose its columns: \(error)")
        }
        guard let first = read else { throw DatasetDocument.Failure(reason: "upload \(revision.title) of data set \(id) has no first page") }
        guard first.status == 200 else {
            throw DatasetDocument.Failure(reason: "the first page of upload \(revision.title) (data set \(id)) answered HTTP \(first.status)")
        }
        let discovered: DiscoveredSource
        do throws(DiscoveryError) {
            discovered = try SourceDiscovery(origin: .url(config.odcloud.apiURL + revision.path), kind: configured.kind, name: configured.name,
                                             bounds: config.bounds).discover(first.body)
        } catch {
            throw DatasetDocument.Failure(reason: "the columns of upload \(revision.title) (data set \(id)) cannot be chosen: \(error)")
        }
        let blocking = discovered.problems.filter { !$0.hasPrefix("the file's words do not say") }
        guard blocking.isEmpty, !discovered.source.fields.name.isEmpty else {
            throw DatasetDocument.Failure(reason: "no columns of upload \(revision.title) (data set \(id)) can be served: " + blocking.joined(separator: "; "))
        }
        source.fields = discovered.source.fields
        // An upload of addresses only asks the geocoder (or the positions file) as a discovered
        // file would.
        source.geocode = configured.geocode ?? discovered.source.geocode
        source.province = configured.province ?? discovered.source.province
        source.district = configured.district ?? discovered.source.district
        revision.chosenFields = source.fields.written.map { DatasetRevision.ChosenField(field: $0.0, column: $0.1) }
        revision.chosenGeocode = discovered.source.geocode.map { DatasetRevision.ChosenGeocode(query: $0.query.description, keyword: $0.keyword?.description) }
        return (source, first, revision)
    }
}

extension Refresher {
    /// The geocoder's questions chosen before, read back.
    static func queries(_ chosen: DatasetRevision.ChosenGeocode) -> GeocodeQueries? {
        guard let query = try? GeocodeTemplate(chosen.query) else { return nil }
        return GeocodeQueries(query: query, keyword: chosen.keyword.flatMap { try? GeocodeTemplate($0) })
    }
}

/// A transport whose first page was already read: handed out once more, the rest asked for.
struct FirstPageRead: PageTransport {
    let inner: any PageTransport
    let first: PageResponse

    func fetch(page number: Int, size: Int) async throws(UpstreamError) -> PageResponse? {
        number == 1 ? first : try await inner.fetch(page: number, size: size)
    }
}
