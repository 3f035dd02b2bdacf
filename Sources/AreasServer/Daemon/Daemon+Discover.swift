import AreasCore
import AreasIngest
import AreasProtocol
import AreasSystem

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
