import AreasCore
import Foundation

extension AreasConfig {
    /// One entry of `sources`, validated; errors name it by its place (`sources[2]`).
    static func parseSource(_ s: ConfigObject, defaultShrink: Double) throws(ConfigError) -> SourceConfig {
        typealias Key = ConfigKeys.Source
        func problem(_ field: String, _ text: String) -> ConfigError { s.problem(field, text) }
        func missing(_ field: String) -> ConfigError { problem(field, "missing") }
        guard let name = try s.string(Key.name)?.trimmed, !name.isEmpty else { throw missing("name") }
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else {
            throw problem("name", "'\(name)' may hold only letters, digits, '-', '_' and '.'")
        }
        guard let kindText = try s.string(Key.kind) else { throw missing("kind") }
        guard let kind = AreaKind(rawValue: kindText) else {
            throw problem("kind", "unknown kind '\(kindText)' (expected smoking or nonsmoking)")
        }
        guard let formatText = try s.string(Key.format) else { throw missing("format") }
        guard let format = SourceFormat(rawValue: formatText) else {
            throw problem("format", "unknown format '\(formatText)' (expected one of \(SourceFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
        }

        let location: SourceConfig.Location
        let (urlText, pagesText, fileText, datasetText) = (try s.string(Key.url), try s.string(Key.pages), try s.string(Key.file), try s.string(Key.dataset))
        let given = [("url", urlText), ("pages", pagesText), ("file", fileText), ("dataset", datasetText)].filter { $0.1 != nil }
        let allowed = format.isSingleFile ? "\"url\" or \"file\"" : format == .odcloudJSON ? "\"dataset\", \"url\" or \"pages\"" : "\"url\" or \"pages\""
        guard given.count == 1 else {
            throw problem("", given.isEmpty ? "give \(allowed)" : "give \(allowed), not both")
        }
        switch (urlText, pagesText, fileText) {
        case _ where datasetText != nil:
            guard format == .odcloudJSON else { throw problem("dataset", "only an odcloud-json source is a portal data set by id: give \(allowed)") }
            let id = (datasetText ?? "").trimmed
            guard !id.isEmpty, id.count <= 20, id.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw problem("dataset", "'\(id.prefix(40))' is not a data set id: the digits in the portal's address (data.go.kr/data/15073796/...)")
            }
            location = .dataset(id)
        case (let url?, _, _):
            location = .url(try s.url(Key.url) ?? url)
        case (_, let pages?, _):
            guard !format.isSingleFile else { throw problem("pages", "a \(format.rawValue) source is one file: give \"file\" or \"url\"") }
            location = .recordedPages(directory: s.resolvePath(pages))
        case (_, _, let file?):
            guard format.isSingleFile else { throw problem("file", "a \(format.rawValue) source is paged: give \"pages\" (a folder of recorded pages) or \"url\"") }
            location = .file(s.resolvePath(file))
        default:
            throw problem("", "give \(allowed)")
        }

        var geocode: GeocodeQueries?
        if let g = try s.object(Key.geocode) {
            guard format.isSingleFile else { throw problem("geocode", "only csv and json-rows sources geocode rows") }
            guard let query = try g.string(ConfigKeys.Geocode.query) else { throw missing("geocode.query") }
            func template(_ text: String, _ field: String) throws(ConfigError) -> GeocodeTemplate {
                do throws(GeocodeTemplate.Malformed) { return try GeocodeTemplate(text) } catch {
                    throw problem(field, "'\(text)': \(error.reason)")
                }
            }
            geocode = GeocodeQueries(query: try template(query, "geocode.query"), keyword: try g.string(ConfigKeys.Geocode.keyword).map { text throws(ConfigError) in try template(text, "geocode.keyword") })
        }

        let hasHeader = try s.flag(Key.header) ?? true
        guard hasHeader || format == .csv else { throw problem("header", "only a csv source may be headerless") }
        var fields: FieldMapping
        var choosesFields = false
        switch (format, try Self.fieldsChoice(s)) {
        case (_, .auto?):
            guard case .dataset = location else {
                throw problem("fields", "\"auto\" is for a source by \"dataset\", whose columns are read at each refresh; map name, latitude and longitude (areasd --discover proposes them)")
            }
            fields = FieldMapping(name: "", latitude: nil, longitude: nil)
            choosesFields = true
        case (.odcloudJSON, nil) where datasetText != nil:
            fields = FieldMapping(name: "", latitude: nil, longitude: nil)
            choosesFields = true
        case (_, .mapped(let columns)?):
            typealias Column = ConfigKeys.Fields
            let mapping = (name: try columns.string(Column.name), latitude: try columns.string(Column.latitude), longitude: try columns.string(Column.longitude),
                           address: try columns.string(Column.address), lotAddress: try columns.string(Column.lotAddress),
                           province: try columns.string(Column.province), district: try columns.string(Column.district),
                           referenceDate: try columns.string(Column.referenceDate), extent: try columns.string(Column.extent),
                           zoneType: try columns.string(Column.zoneType), size: try columns.string(Column.size))
            guard let n = mapping.name, !n.isEmpty else { throw missing("fields.name") }
            // A GeoJSON feature's position is its geometry.
            let needsPosition = geocode == nil && format != .geojson
            guard mapping.latitude.map({ !$0.isEmpty }) ?? !needsPosition else { throw missing("fields.latitude") }
            guard mapping.longitude.map({ !$0.isEmpty }) ?? !needsPosition else { throw missing("fields.longitude") }
            guard (mapping.latitude == nil) == (mapping.longitude == nil) else {
                throw missing(mapping.latitude == nil ? "fields.latitude" : "fields.longitude")
            }
            let standard = format == .dataGoKrXML ? FieldMapping.dataGoKrStandard : nil
            fields = FieldMapping(
                name: n, latitude: mapping.latitude, longitude: mapping.longitude,
                address: mapping.address ?? standard?.address, lotAddress: mapping.lotAddress ?? standard?.lotAddress,
                province: mapping.province ?? standard?.province, district: mapping.district ?? standard?.district,
                referenceDate: mapping.referenceDate ?? standard?.referenceDate,
                extent: mapping.extent, zoneType: mapping.zoneType, size: mapping.size)
            if let standard {
                let given = FieldMapping(name: n, latitude: mapping.latitude, longitude: mapping.longitude, address: mapping.address,
                                         lotAddress: mapping.lotAddress, province: mapping.province, district: mapping.district,
                                         referenceDate: mapping.referenceDate)
                fields.formatDefaults = standard.formatDefaults.subtracting(given.written.map(\.0))
            }
        case (.dataGoKrXML, nil):
            fields = .dataGoKrStandard
        case (.geojson, nil):
            throw problem("fields", "missing: map at least name (a member of the features' properties)")
        case (_, nil):
            throw problem("fields", "missing: district data sets name their columns differently; map name, latitude and longitude")
        }
        if format == .geojson {
            fields.latitude = GeoJSONDecoder.positionKey
            fields.longitude = GeoJSONDecoder.positionKey
        }
        fields.name = fields.name.trimmed
        if fields.name.contains("{") || fields.name.contains("}") {
            do throws(GeocodeTemplate.Malformed) {
                _ = try GeocodeTemplate(fields.name)
            } catch {
                throw problem("fields.name", "'\(fields.name)': \(error.reason) (a name joins columns as \"{column} {column}\")")
            }
        }
        if format.isSingleFile {
            // Matched as the file's header names are: trimmed, runs of white space made one.
            fields = fields.collapsingWhitespace
            if !hasHeader {
                for (field, column) in fields.columns + (geocode?.columns ?? []).map({ ("geocode", $0) }) where !(Int(column).map { $0 >= 1 } ?? false) {
                    throw problem(field == "geocode" ? "geocode" : "fields.\(field)", "'\(column)': a headerless file names columns by number (\"1\", \"2\", ...)")
                }
            }
        }

        var delimiter = UInt8(ascii: ",")
        if let text = try s.string(Key.delimiter) {
            guard text.utf8.count == 1, let byte = text.utf8.first, byte != UInt8(ascii: "\""), byte != 0x0A, byte != 0x0D else {
                throw problem("delimiter", "'\(text)' is not one character such as \",\", \";\" or \"\\t\"")
            }
            delimiter = byte
        }
        var encoding = TextEncoding.auto
        if let text = try s.string(Key.encoding) {
            guard let parsed = TextEncoding(configName: text) else { throw problem("encoding", "'\(text)' is not one of auto, utf-8, cp949 (euc-kr)") }
            encoding = parsed
        }
        var source = SourceConfig(
            name: name, kind: kind, format: format, location: location,
            serviceKeyEnv: try s.environmentName(Key.serviceKeyEnv),
            pageSize: try s.count(Key.pageSize),
            fields: fields,
            concurrency: try s.count(Key.concurrency),
            timeoutSeconds: try s.number(Key.timeoutSeconds),
            retries: try s.count(Key.retries),
            retryDelaySeconds: try s.number(Key.retryDelaySeconds),
            maxPages: try s.count(Key.maxPages),
            maxShrink: try s.optionalNumber(Key.maxShrink) ?? defaultShrink,
            province: try s.string(Key.province))
        source.district = try s.string(Key.district)
        source.choosesFields = choosesFields
        source.encoding = encoding
        source.hasHeader = hasHeader
        source.delimiter = delimiter
        source.geocode = geocode
        source.maxPageBytes = try s.count(Key.maxPageBytes)
        source.dailyRequestLimit = try s.optionalCount(Key.dailyRequestLimit)
        return source
    }

    /// `fields`: an object of columns, or "auto"; nil when absent.
    private enum FieldsChoice {
        case auto
        case mapped(ConfigObject)
    }

    private static func fieldsChoice(_ s: ConfigObject) throws(ConfigError) -> FieldsChoice? {
        let key = ConfigKeys.Source.fields
        guard let value = s.given(key) else { return nil }
        if case .string(let text) = value {
            guard text == "auto" else { throw s.problem("fields", "'\(text)': give \"auto\" or an object mapping name, latitude and longitude") }
            return .auto
        }
        return .mapped(try ConfigObject(value, section: ConfigKeys.Fields.section, key: s.keyPrefix + "fields", path: s.path, resolvePath: s.resolvePath))
    }

    /// The top-level `geocoder`, validated.
    static func parseGeocoder(_ g: ConfigObject) throws(ConfigError) -> GeocoderConfig {
        typealias Key = ConfigKeys.Geocoder
        guard let providerText = try g.string(Key.provider) else { throw g.problem("provider", "missing (kakao or vworld)") }
        guard let provider = GeocoderConfig.Provider(rawValue: providerText) else {
            throw g.problem("provider", "unknown provider '\(providerText)' (expected kakao or vworld)")
        }
        var geocoder = GeocoderConfig(
            provider: provider, url: try g.url(Key.url), recordedAnswers: try g.path(Key.recorded),
            keyEnv: try g.environmentName(Key.keyEnv),
            requestsPerSecond: try g.number(Key.requestsPerSecond),
            maxRequestsPerRefresh: try g.count(Key.maxRequestsPerRefresh),
            timeoutSeconds: try g.number(Key.timeoutSeconds), retries: try g.count(Key.retries))
        geocoder.dailyRequestLimit = try g.optionalCount(Key.dailyRequestLimit)
        geocoder.searchDailyLimit = try g.optionalCount(Key.searchDailyLimit, in: 0...(geocoder.dailyRequestLimit ?? 100_000_000))
        return geocoder
    }
}

extension FieldMapping {
    /// Each column the config names, with the key that names it (a name joining columns
    /// gives each of them); not the format's own defaults, which a page may lack.
    var columns: [(String, String)] {
        (formatDefaults.contains("name") ? [] : nameColumns.map { ("name", $0) }) + written.dropFirst().filter { !formatDefaults.contains($0.0) }
    }

    /// The keys and values as the config writes them.
    var written: [(String, String)] {
        [("name", name), ("latitude", latitude), ("longitude", longitude), ("address", address),
         ("lotAddress", lotAddress), ("province", province), ("district", district), ("referenceDate", referenceDate),
         ("extent", extent), ("zoneType", zoneType), ("size", size)]
            .compactMap { key, column in column.map { (key, $0) } }
            .filter { $0.1.utf8.first != 1 }  // a GeoJSON feature's position, which no one writes
    }

    /// The mapping `written` gives, read back (the fields chosen for a data set's upload).
    init(written pairs: [(String, String)]) {
        let column = Dictionary(pairs, uniquingKeysWith: { _, last in last })
        self.init(name: column["name"] ?? "", latitude: column["latitude"], longitude: column["longitude"], address: column["address"],
                  lotAddress: column["lotAddress"], province: column["province"], district: column["district"],
                  referenceDate: column["referenceDate"], extent: column["extent"], zoneType: column["zoneType"], size: column["size"])
    }

    /// Every column name trimmed and its runs of white space made one space.
    var collapsingWhitespace: FieldMapping {
        FieldMapping(
            name: name.collapsingWhitespace, latitude: latitude?.collapsingWhitespace, longitude: longitude?.collapsingWhitespace,
            address: address?.collapsingWhitespace, lotAddress: lotAddress?.collapsingWhitespace,
            province: province?.collapsingWhitespace, district: district?.collapsingWhitespace,
            referenceDate: referenceDate?.collapsingWhitespace,
            extent: extent?.collapsingWhitespace, zoneType: zoneType?.collapsingWhitespace, size: size?.collapsingWhitespace)
            .with(formatDefaults: formatDefaults)
    }

    private func with(formatDefaults: Set<String>) -> FieldMapping {
        var mapping = self
        mapping.formatDefaults = formatDefaults
        return mapping
    }
}
