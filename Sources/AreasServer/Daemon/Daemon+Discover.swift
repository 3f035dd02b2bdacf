import AreasCore
import AreasIngest
import AreasProtocol
import AreasSystem
import Foundation

extension Daemon {
    /// `--discover PATH|URL`: the source that serves a file never seen before, on stdout as
    /// one JSON object to paste into `sources`; the report on stderr. Exit 0 when the source
    /// is usable, 1 when it is not or the file cannot be read.
    /// With `positionsTemplate`, stdout is instead the positions file to fill in for the rows
    /// without a usable position.
    package func discover(_ target: String, kind: AreaKind?, name: String?, positionsTemplate: Bool = false) -> (output: String, report: String, code: Int32) {
        let isURL = target.hasPrefix("http://") || target.hasPrefix("https://")
        let bytes: [UInt8]
        do throws(DiscoveryError) {
            bytes = try isURL ? Self.fetchOnce(target) : Self.readFile(target)
        } catch {
            return ("", "areasd: \(target): \(error)\n", 1)
        }
        let discovery = SourceDiscovery(origin: isURL ? .url(target) : .file(target), kind: kind, name: name)
        do throws(DiscoveryError) {
            var found = try discovery.discover(bytes)
            if bytes.count > found.source.maxPageBytes { found.source.maxPageBytes = 1 << 30 }
            let report = "areasd: discovered \(isURL ? "the answer of \(SourceDiscovery.withoutParameters(target, ["servicekey"]))" : target)\n" + found.report
            if positionsTemplate {
                let count = found.rowsToGeocode
                return (found.positionsTemplate, report + "positions template: \(count) rows to place; fill in latitude and longitude, "
                        + "name the file in the config's \"positions\" (no geocoder needed)\n", found.problems.isEmpty ? 0 : 1)
            }
            return (found.block.indentedText + "\n", report, found.problems.isEmpty ? 0 : 1)
        } catch {
            return ("", "areasd: \(target): \(error)\n", 1)
        }
    }

    /// `--discover --dataset ID`: the same for a portal data set by its id: its newest upload
    /// found in the portal's document (`odcloud` of the config, else the portal's own), its
    /// first page read with `DATA_GO_KR_KEY`, and the source printed by `dataset`, with the
    /// columns chosen (left out, they are chosen again at each refresh).
    package func discover(dataset id: String, kind: AreaKind?, name: String?, positionsTemplate: Bool = false) -> (output: String, report: String, code: Int32) {
        guard !id.isEmpty, id.count <= 20, id.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return ("", "areasd: --dataset '\(id.prefix(40))' is not a data set id: the digits in the portal's address (data.go.kr/data/15073796/...)\n", 2)
        }
        let odcloud = (try? AreasConfig.load(path: options.configPath))?.odcloud ?? OdcloudConfig()
        guard let key = environment["DATA_GO_KR_KEY"], !key.isEmpty else {
            return ("", "areasd: data set \(id): DATA_GO_KR_KEY is not set: the portal's document needs no key, the upload's rows do (export DATA_GO_KR_KEY=...)\n", 1)
        }
        let found: Result<(DatasetRevision, [UInt8]), DatasetDocument.Failure>? = Self.waitFor { () async -> Result<(DatasetRevision, [UInt8]), DatasetDocument.Failure> in
            do throws(DatasetDocument.Failure) {
                let revision = try await DatasetDocument.newest(of: id, odcloud: odcloud, timeoutSeconds: 60, now: Date().timeIntervalSince1970)
                let transport = HTTPPageTransport(baseURL: odcloud.apiURL + revision.path, format: .odcloudJSON, serviceKey: key, timeoutSeconds: 60)
                let read: PageResponse?
                do throws(UpstreamError) {
                    read = try await transport.fetch(page: 1, size: 1000)
                } catch {
                    throw DatasetDocument.Failure(reason: "the first page of upload \(revision.title) could not be read: \(error)")
                }
                guard let page = read, page.status == 200 else {
                    throw DatasetDocument.Failure(reason: "the first page of upload \(revision.title) answered HTTP \(read?.status ?? 0)")
                }
                return .success((revision, page.body))
            } catch {
                return .failure(error)
            }
        }
        let revision: DatasetRevision, page: [UInt8]
        switch found {
        case .success(let read)?: (revision, page) = read
        case .failure(let error)?: return ("", "areasd: data set \(id): \(error)\n", 1)
        case nil: return ("", "areasd: data set \(id): no answer\n", 1)
        }
        let discovery = SourceDiscovery(origin: .url(odcloud.apiURL + revision.path), kind: kind,
                                        name: name ?? SourceDiscovery.sourceName(from: revision.title))
        do throws(DiscoveryError) {
            var source: DiscoveredSource = try discovery.discover(page)
            source.source.format = SourceFormat.odcloudJSON
            source.source.location = SourceConfig.Location.dataset(id)
            source.source.serviceKeyEnv = "DATA_GO_KR_KEY"
            let report = "areasd: discovered data set \(id): its newest upload \(revision.title) (\(revision.date), \(revision.uddi)), the first page of its rows\n"
                + source.report + "leave \"fields\" out to have them chosen again at each refresh, as the uploads' columns change\n"
            if positionsTemplate {
                return (source.positionsTemplate, report + "positions template: \(source.rowsToGeocode) rows to place (the first page's)\n", source.problems.isEmpty ? 0 : 1)
            }
            return (source.block.indentedText + "\n", report, source.problems.isEmpty ? 0 : 1)
        } catch {
            return ("", "areasd: data set \(id): \(error)\n", 1)
        }
    }

    /// Files as large as a source may be told to read (`maxPageBytes` at most 1 GiB).
    static let largestDiscoveredFile = 1 << 30

    private static func readFile(_ path: String) throws(DiscoveryError) -> [UInt8] {
        let bytes: [UInt8]?
        do throws(WholeFile.ReadFailure) {
            bytes = try WholeFile.read(path, limit: largestDiscoveredFile)
        } catch {
            throw .unreadable("\(error)")
        }
        guard let bytes else { throw .unreadable("no such file") }
        return bytes
    }

    /// One GET, bounded in time and size, no redirect followed (a key in the URL stays with
    /// the host it was written for).
    private static func fetchOnce(_ url: String) throws(DiscoveryError) -> [UInt8] {
        let result = waitFor { () async -> Result<PageResponse, UpstreamError> in
            do throws(UpstreamError) {
                return .success(try await HTTPClient.get(url, timeoutSeconds: 60, maxBytes: largestDiscoveredFile))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let response):
            guard response.status == 200 else { throw .fetch("the server answered HTTP \(response.status)") }
            return response.body
        case .failure(let error): throw .fetch("\(error)")
        case nil: throw .fetch("no answer")
        }
    }
}
