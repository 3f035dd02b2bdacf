import AreasCore
import Foundation

extension AreasConfig {
    /// One entry of `sources`, validated; `key` names it in errors (`sources[2]`).
    static func parseSource(_ s: RawSource, key: String, path: String, defaultShrink: Double, resolve: (String) -> String) throws(ConfigError) -> SourceConfig {
        let check = ValueCheck(path: path)
        func problem(_ field: String, _ text: String) -> ConfigError {
            ConfigError(path: path, key: field.isEmpty ? key : "\(key).\(field)", problem: text)
        }
        func missing(_ field: String) -> ConfigError { problem(field, "missing") }
        guard let name = s.name?.trimmed, !name.isEmpty else { throw missing("name") }
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else {
            throw problem("name", "'\(name)' may hold only letters, digits, '-', '_' and '.'")
        }
        guard let kindText = s.kind else { throw missing("kind") }
        guard let kind = AreaKind(rawValue: kindText) else {
            throw problem("kind", "unknown kind '\(kindText)' (expected smoking or nonsmoking)")
        }
        guard let formatText = s.format else { throw missing("format") }
        guard let format = SourceFormat(rawValue: formatText) else {
            throw problem("format", "unknown format '\(formatText)' (expected one of \(SourceFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
        }

        let location: SourceConfig.Location
        let given = [("url", s.url), ("pages", s.pages), ("file", s.file), ("dataset", s.dataset)].filter { $0.1 != nil }
        let allowed = format.isSingleFile ? "\"url\" or \"file\"" : format == .odcloudJSON ? "\"dataset\", \"url\" or \"pages\"" : "\"url\" or \"pages\""
        guard given.count == 1 else {
            throw problem("", given.isEmpty ? "give \(allowed)" : "give \(allowed), not both")
        }
        switch (s.url, s.pages, s.file) {
        case _ where s.dataset != nil:
            guard format == .odcloudJSON else { throw problem("dataset", "only an odcloud-json source is a portal data set by id: give \(allowed)") }
            let id = (s.dataset ?? "").trimmed
            guard !id.isEmpty, id.count <= 20, id.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw problem("dataset", "'\(id.prefix(40))' is not a data set id: the digits in the portal's address (data.go.kr/data/15073796/...)")
            }
            location = .dataset(id)
        case (let url?, _, _):
            location = .url(try check.httpURL(url, "\(key).url"))
        case (_, let pages?, _):
            guard !format.isSingleFile else { throw problem("pages", "a \(format.rawValue) source is one file: give \"file\" or \"url\"") }
            location = .recordedPages(directory: resolve(pages))
        case (_, _, let file?):
            guard format.isSingleFile else { throw problem("file", "a \(format.rawValue) source is paged: give \"pages\" (a folder of recorded pages) or \"url\"") }
            location = .file(resolve(file))
        default:
            throw problem("", "give \(allowed)")
        }

        var geocode: GeocodeQueries?
        if let g = s.geocode {
            guard format.isSingleFile else { throw problem("geocode", "only csv and json-rows sources geocode rows") }
            guard let query = g.query else { throw missing("geocode.query") }
            func template(_ text: String, _ field: String) throws(ConfigError) -> GeocodeTemplate {
                do throws(GeocodeTemplate.Malformed) { return try GeocodeTemplate(text) } catch {
                    throw problem(field, "'\(text)': \(error.reason)")
                }
            }
            geocode = GeocodeQueries(query: try template(query, "geocode.query"), keyword: try g.keyword.map { text throws(ConfigError) in try template(text, "geocode.keyword") })
        }

        let hasHeader = s.header ?? true
        guard hasHeader || format == .csv else { throw problem("header", "only a csv source may be headerless") }
        var fields: FieldMapping
        var choosesFields = false
        switch (format, s.fields) {
        case (_, .auto?):
            guard case .dataset = location else {
                throw problem("fields", "\"auto\" is for a source by \"dataset\", whose columns are read at each refresh; map name, latitude and longitude (areasd --discover proposes them)")
            }
            fields = FieldMapping(name: "", latitude: nil, longitude: nil)
            choosesFields = true
        case (.odcloudJSON, nil) where s.dataset != nil:
            fields = FieldMapping(name: "", latitude: nil, longitude: nil)
            choosesFields = true
        case (_, .mapped(let mapping)?):
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
        if let text = s.delimiter {
            guard text.utf8.count == 1, let byte = text.utf8.first, byte != UInt8(ascii: "\""), byte != 0x0A, byte != 0x0D else {
                throw problem("delimiter", "'\(text)' is not one character such as \",\", \";\" or \"\\t\"")
            }
            delimiter = byte
        }
        var encoding = TextEncoding.auto
        if let text = s.encoding {
            guard let parsed = TextEncoding(configName: text) else { throw problem("encoding", "'\(text)' is not one of auto, utf-8, cp949 (euc-kr)") }
            encoding = parsed
        }
        var source = SourceConfig(
            name: name, kind: kind, format: format, location: location,
            serviceKeyEnv: try check.environmentName(s.serviceKeyEnv, "\(key).serviceKeyEnv"),
            pageSize: try check.count(s.pageSize, "\(key).pageSize", default: 1000, maximum: 100_000),
            fields: fields,
            concurrency: try check.count(s.concurrency, "\(key).concurrency", default: 4, maximum: 64),
            timeoutSeconds: try check.number(s.timeoutSeconds, "\(key).timeoutSeconds", default: 30, minimum: 0.1, maximum: 600),
            retries: try check.count(s.retries, "\(key).retries", default: 3, minimum: 0, maximum: 20),
            retryDelaySeconds: try check.number(s.retryDelaySeconds, "\(key).retryDelaySeconds", default: 0.5, minimum: 0.001, maximum: 60),
            maxPages: try check.count(s.maxPages, "\(key).maxPages", default: 2_000, maximum: 1_000_000),
            maxShrink: try s.maxShrink.map { value throws(ConfigError) in
                guard (0...1).contains(value) else { throw problem("maxShrink", "must be between 0 and 1, got \(value)") }
                return value
            } ?? defaultShrink,
            province: s.province)
        source.district = s.district
        source.choosesFields = choosesFields
        source.encoding = encoding
        source.hasHeader = hasHeader
        source.delimiter = delimiter
        source.geocode = geocode
        source.maxPageBytes = try check.count(s.maxPageBytes, "\(key).maxPageBytes", default: 32 << 20, minimum: 1024, maximum: 1 << 30)
        source.dailyRequestLimit = try s.dailyRequestLimit.map { limit throws(ConfigError) in
            try check.count(limit, "\(key).dailyRequestLimit", default: limit, minimum: 1, maximum: 100_000_000)
        }
        return source
    }

    /// The top-level `geocoder`, validated.
    static func parseGeocoder(_ g: RawGeocoder, path: String, resolve: (String) -> String) throws(ConfigError) -> GeocoderConfig {
        let check = ValueCheck(path: path)
        guard let providerText = g.provider else { throw ConfigError(path: path, key: "geocoder.provider", problem: "missing (kakao or vworld)") }
        guard let provider = GeocoderConfig.Provider(rawValue: providerText) else {
            throw ConfigError(path: path, key: "geocoder.provider", problem: "unknown provider '\(providerText)' (expected kakao or vworld)")
        }
        if let url = g.url { _ = try check.httpURL(url, "geocoder.url") }
        let rate = try check.number(g.requestsPerSecond, "geocoder.requestsPerSecond", default: 10, minimum: 0.01, maximum: 1_000)
        let timeout = try check.number(g.timeoutSeconds, "geocoder.timeoutSeconds", default: 10, minimum: 0.1, maximum: 300)
        let retries = try check.count(g.retries, "geocoder.retries", default: 2, minimum: 0, maximum: 10)
        var geocoder = GeocoderConfig(
            provider: provider, url: g.url, recordedAnswers: g.recorded.map(resolve),
            keyEnv: try check.environmentName(g.keyEnv, "geocoder.keyEnv"),
            requestsPerSecond: rate,
            maxRequestsPerRefresh: try check.count(g.maxRequestsPerRefresh, "geocoder.maxRequestsPerRefresh", default: 5_000, minimum: 0, maximum: 10_000_000),
            timeoutSeconds: timeout, retries: retries)
        geocoder.dailyRequestLimit = try g.dailyRequestLimit.map { limit throws(ConfigError) in
            try check.count(limit, "geocoder.dailyRequestLimit", default: limit, minimum: 1, maximum: 100_000_000)
        }
        geocoder.searchDailyLimit = try g.searchDailyLimit.map { limit throws(ConfigError) in
            try check.count(limit, "geocoder.searchDailyLimit", default: limit, minimum: 0, maximum: geocoder.dailyRequestLimit ?? 100_000_000)
        }
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
