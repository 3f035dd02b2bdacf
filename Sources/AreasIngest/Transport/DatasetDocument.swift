import AreasCore
import AreasProtocol

/// One upload of a data set, as the portal's Swagger document lists it: the revision a
/// `dataset` source serves, named in `sources`.
package struct DatasetRevision: Sendable, Equatable, Codable {
    /// The upload's id in its path (`uddi:...`): a new one with every upload.
    package var uddi: String
    /// The file's title as uploaded (`서울특별시 용산구_흡연구역_20240719`).
    package var title: String
    /// The date the title carries (`2024-07-19`): the newest upload is the one of the latest.
    package var date: String
    /// The path the rows are paged from, below the API's base (`/15073796/v1/uddi:...`).
    package var path: String
    /// The upload's columns as its model lists them, sorted: a change says the columns must be
    /// chosen again.
    package var columns: [String]
    /// The fields chosen for it when the config left them to the daemon (`"fields": "auto"`),
    /// in the order a config writes them.
    package var chosenFields: [ChosenField]?

    /// The geocoder's questions chosen for an upload of addresses only.
    package var chosenGeocode: ChosenGeocode?

    package struct ChosenGeocode: Sendable, Equatable, Codable {
        package var query: String
        package var keyword: String?
    }

    package struct ChosenField: Sendable, Equatable, Codable {
        /// The config's key (`name`, `latitude`, ...).
        package var field: String
        /// The upload's column (or a name template joining columns).
        package var column: String
    }
}

/// The portal's Swagger 2.0 document of a data set (`GET {oasUrl}?namespace={id}/v1`), read for
/// its newest upload. Bounded however it is written: a body past `maximumBytes` is refused, an
/// upload past the first `maximumUploads` or with a model of more than `maximumColumns` columns
/// is not considered, and a title dated in the future is no newest upload.
package enum DatasetDocument {
    package static let maximumBytes = 8 << 20
    package static let maximumUploads = 10_000
    package static let maximumColumns = 1_000

    /// Why a data set's newest upload could not be found.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package let reason: String
        package var description: String { reason }
        package init(reason: String) { self.reason = reason }
    }

    /// The document's URL: the key is never part of it.
    package static func url(of dataset: String, odcloud: OdcloudConfig) -> String {
        odcloud.oasURL + (odcloud.oasURL.contains("?") ? "&" : "?") + "namespace=" + HTTPClient.encode(dataset + "/v1")
    }

    /// Fetches the document and picks the newest upload.
    package static func newest(of dataset: String, odcloud: OdcloudConfig, timeoutSeconds: Double, now: Double) async throws(Failure) -> DatasetRevision {
        let url = url(of: dataset, odcloud: odcloud)
        let response: PageResponse
        do throws(UpstreamError) {
            response = try await HTTPClient.get(url, timeoutSeconds: timeoutSeconds, maxBytes: maximumBytes)
        } catch .tooLarge {
            throw Failure(reason: "the portal's document of data set \(dataset) could not be read: it is larger than \(maximumBytes) bytes, the most a data set's document may be")
        } catch {
            throw Failure(reason: "the portal's document of data set \(dataset) could not be read: \(error)")
        }
        guard response.status == 200 else {
            throw Failure(reason: "the portal's document of data set \(dataset) answered HTTP \(response.status)")
        }
        return try newest(in: response.body, dataset: dataset, now: now)
    }

    /// The newest upload `body` lists: the one whose title carries the latest date not after
    /// tomorrow (in Korea); of two alike, the one listed last.
    package static func newest(in body: [UInt8], dataset: String, now: Double) throws(Failure) -> DatasetRevision {
        let document: JSONValue
        do throws(JSONParser.Failure) { document = try JSONParser.parse(body) } catch {
            throw Failure(reason: "the portal's document of data set \(dataset) is not JSON (\(error.reason) at byte \(error.offset))")
        }
        guard case .object(let paths)? = document["paths"] else {
            throw Failure(reason: "the portal's document of data set \(dataset) lists no uploads (no \"paths\")")
        }
        let definitions = document["definitions"]
        let latestDay = Int((now + 9 * 3_600) / 86_400) + 1
        var best: (revision: DatasetRevision, day: Int)?
        var undated = 0, future = 0, wide = 0
        for (path, operation) in paths.prefix(maximumUploads) {
            guard let uddi = path.split(separator: "/").last.map(String.init), uddi.hasPrefix("uddi:") else { continue }
            let title = operation["get"]?["summary"]?.string ?? ""
            guard let date = dateInTitle(title) else { undated += 1; continue }
            guard Int(date.day) <= latestDay else { future += 1; continue }
            let columns = modelColumns(of: operation["get"], definitions: definitions)
            guard columns.count <= maximumColumns else { wide += 1; continue }
            if best.map({ Int(date.day) >= $0.day }) ?? true {
                best = (DatasetRevision(uddi: uddi, title: String(title.prefix(200)), date: date.text, path: path, columns: columns.sorted()), Int(date.day))
            }
        }
        guard let best else {
            var why: [String] = []
            if undated > 0 { why.append("\(undated) without a dated title") }
            if future > 0 { why.append("\(future) dated in the future") }
            if wide > 0 { why.append("\(wide) with more than \(maximumColumns) columns") }
            let listed = paths.count > maximumUploads ? "the first \(maximumUploads) of its \(paths.count) uploads" : "\(paths.count) uploads"
            throw Failure(reason: paths.isEmpty ? "the portal's document of data set \(dataset) lists no uploads"
                : "no upload of data set \(dataset) can be chosen among \(listed): " + why.joined(separator: ", "))
        }
        return best.revision
    }

    /// The last date in a title: `..._20240719`, `... 2024-07-19`, `(2024.07.19)`.
    static func dateInTitle(_ title: String) -> ReferenceDate? {
        var found: ReferenceDate?
        let bytes = Array(title.utf8)
        var i = 0
        while i < bytes.count {
            guard (0x30...0x39).contains(bytes[i]) else { i += 1; continue }
            var j = i
            while j < bytes.count, (0x30...0x39).contains(bytes[j]) || ((bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: ".")) && j - i < 10) { j += 1 }
            let run = String(decoding: bytes[i..<j], as: UTF8.self).trimmingTrailing(".")
            if let date = ReferenceDate(parsing: run) { found = date }
            i = j
        }
        return found
    }

    /// The columns of the model the upload's answer holds rows of (`data.items.$ref`).
    static func modelColumns(of get: JSONValue?, definitions: JSONValue?) -> [String] {
        let schema = get?["responses"]?["200"]?["schema"]
        var reference = schema?["properties"]?["data"]?["items"]?["$ref"]?.string
        if reference == nil, case .object(let members)? = definitions, members.count == 1 { reference = "#/definitions/" + members[0].0 }
        guard let name = reference?.split(separator: "/").last.map(String.init),
              case .object(let properties)? = definitions?[name]?["properties"] else { return [] }
        return properties.prefix(maximumColumns + 1).map(\.0)
    }
}

private extension String {
    func trimmingTrailing(_ character: Character) -> String {
        var text = self
        while text.last == character { text.removeLast() }
        return text
    }
}
