import AreasCore
import AreasSystem

/// Reads a district file it has never seen and writes the source that serves it: encoding,
/// layout, which columns hold the name, the position, the address and the region, and the
/// geocoder questions for rows without a position (`areasd --discover`).
///
/// The file is read twice: once to profile its columns (a sample of its rows, which is plenty
/// to tell a latitude from a name), then once whole through the same validator a refresh
/// uses, so the counts it reports are the counts a refresh would make.
package struct SourceDiscovery: Sendable {
    /// Where the file came from, as the printed source names it.
    package enum Origin: Sendable, Equatable {
        /// A path, printed as given.
        case file(String)
        case url(String)
    }

    package var origin: Origin
    /// Given on the command line, else read from the file's own words.
    package var kind: AreaKind?
    /// The source's name; else made from the file's name.
    package var name: String?
    package var bounds: GeoBox

    package init(origin: Origin, kind: AreaKind? = nil, name: String? = nil, bounds: GeoBox = .korea) {
        self.origin = origin
        self.kind = kind
        self.name = name
        self.bounds = bounds
    }

    /// Rows profiled: the first few thousand, then every sixteenth.
    static func profiles(row index: Int) -> Bool { index < 4_000 || index % 16 == 0 }

    package func discover(_ bytes: [UInt8]) throws(DiscoveryError) -> DiscoveredSource {
        // Districts often publish workbooks; their bytes would otherwise be judged as text.
        if let workbook = Self.workbookKind(bytes) {
            throw .unreadable("\(workbook), not text: open it and save it as CSV (UTF-8), then discover that file")
        }
        let encoding: TextEncoding
        let hasBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        if String(validating: bytes[(hasBOM ? 3 : 0)...], as: UTF8.self) != nil {
            encoding = .utf8
        } else {
            encoding = .cp949
        }
        let text: [UInt8]
        do throws(UpstreamError) { text = try encoding.utf8Text(bytes) } catch {
            throw .unreadable("neither UTF-8 nor CP949: \(error)")
        }
        guard let first = text.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else {
            throw .unreadable("the file is empty")
        }
        let table: DiscoveryTable
        if first == UInt8(ascii: "{"), let features = try? GeoJSONDecoder().decode(text).records {
            // The shape's text and a refused feature's reason are no columns a person maps.
            table = .geojson(features.map { $0.filter { $0.key != ShapeText.fieldKey && $0.key != GeoJSONDecoder.rejectionKey } })
        } else if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
            do throws(UpstreamError) {
                table = .json(try JSONRowsDecoder(encoding: .utf8).decode(text).records)
            } catch {
                // Not JSON after all when its first line reads as a header (`{이름},위도,경도`)
                // rather than JSON's `"key":`.
                let firstLine = text.prefix { $0 != UInt8(ascii: "\n") }
                let looksLikeJSON = firstLine.count > 1 && (firstLine.contains(UInt8(ascii: ":")) || firstLine.allSatisfy { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{") || $0 == 0x20 || $0 == 0x0D })
                guard !looksLikeJSON, DelimitedTextShape.candidates.contains(where: firstLine.contains) else { throw .unreadable("\(error)") }
                table = .delimited(text, DelimitedTextShape.of(text))
            }
        } else if first == UInt8(ascii: "<") {
            throw .unreadable("XML, not a table of rows: the nationwide non-smoking zone API is read by \"format\": \"data-go-kr-xml\", whose columns are built in")
        } else {
            table = .delimited(text, DelimitedTextShape.of(text))
        }

        var columns: [String] = []
        var index: [String: Int] = [:]
        var profiles: [ColumnProfile] = []
        var rows = 0
        try table.forEachRecord { fields in
            if Self.profiles(row: rows) {
                for field in fields {
                    let at: Int
                    if let known = index[field.key] { at = known } else {
                        at = profiles.count
                        index[field.key] = at
                        columns.append(field.key)
                        profiles.append(ColumnProfile(name: field.key))
                    }
                    profiles[at].count(field.value, in: bounds)
                }
            }
            rows += 1
        }
        let profiled = (0..<rows).filter(Self.profiles(row:)).count
        var chosen = DiscoveredColumns(profiles, rows: profiled)
        chosen.chooseNamePlace(profiles)
        try chosen.chooseNameDetail(profiles) { (take: ([String: String]) -> Void) throws(DiscoveryError) in
            var counted = 0
            try table.forEachRecord { fields in
                if Self.profiles(row: counted) { take(Dictionary(fields.map { ($0.key, $0.value.trimmed) }, uniquingKeysWith: { first, _ in first })) }
                counted += 1
            }
        }
        let region = RegionConstants(chosen, profiles: profiles)
        let kind = self.kind.map { ($0, "given") } ?? KindWords.kind(of: originText, columns: columns, profiles: profiles)
        let name = self.name ?? Self.sourceName(from: originText)

        var source = SourceConfig(
            name: name, kind: kind?.0 ?? .smoking, format: table.format(for: origin), location: location,
            serviceKeyEnv: serviceKeyEnv, pageSize: 1000,
            fields: FieldMapping(
                name: chosen.nameField, latitude: chosen.pair?.column ?? chosen.latitude?.column,
                longitude: chosen.pair?.column ?? chosen.longitude?.column, address: chosen.address?.column,
                lotAddress: chosen.lotAddress?.column, province: chosen.province?.column, district: chosen.district?.column,
                referenceDate: chosen.referenceDate?.column, extent: kind?.0 == .nonsmoking ? chosen.extent?.column : nil,
                zoneType: kind?.0 == .nonsmoking ? chosen.zoneType?.column : nil, size: kind?.0 == .nonsmoking ? chosen.size?.column : nil),
            concurrency: 4, timeoutSeconds: 30, retries: 3, retryDelaySeconds: 0.5, maxPages: 2_000, maxShrink: 0.5,
            province: region.province?.value)
        source.district = region.district?.value
        source.encoding = encoding
        if case .delimited(_, let shape) = table {
            source.hasHeader = shape.hasHeader
            source.delimiter = shape.delimiter
        }
        source.geocode = GeocodeQuestions(chosen, region: region, profiles: profiles).queries

        // Every row through the refresh's own validator, with the geocoder's questions in
        // place: a row it would ask about is one without a usable position.
        var tally = DiscoveryTally()
        if chosen.name != nil {
            let validator = RecordValidator(source: source, bounds: bounds)
            try table.forEachRecord { fields in tally.count(validator.validate(fields)) }
        }
        // Without an address, only the name is left to ask about, and a place search by name
        // alone is a guess: worth it for a file with no positions at all, not to fill the
        // gaps of one that has them.
        if tally.toGeocode == 0 || (chosen.address == nil && chosen.lotAddress == nil && tally.withPositions > 0) {
            source.geocode = nil
            tally.withoutGeocoding()
        }

        return DiscoveredSource(
            source: source, encodingFound: hasBOM ? "\(encoding.rawValue) with a byte-order mark" : (encoding == .utf8 ? "utf-8" : "cp949 (not valid UTF-8)"),
            bytes: bytes.count, table: table.description, rows: rows, columns: columns, chosen: chosen, region: region,
            kindFound: kind, tally: tally, profiles: profiles)
    }

    /// Which Excel workbook the bytes begin like, or nil: a ZIP archive (Office Open XML, .xlsx)
    /// or an OLE2 compound file (.xls).
    static func workbookKind(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "an Excel workbook (.xlsx: a ZIP archive)" }
        if bytes.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) { return "an Excel workbook (.xls)" }
        return nil
    }

    private var originText: String {
        switch origin {
        case .file(let path): return path
        case .url(let url): return url
        }
    }

    /// The URL without its key: a `serviceKey` in it becomes the environment variable the
    /// source reads the key from, and the odcloud gateway's paging is the fetcher's.
    private var location: SourceConfig.Location {
        switch origin {
        case .file(let path): return .file(path)
        case .url(let url):
            return .url(Self.withoutParameters(url, isOdcloud ? ["servicekey", "page", "perpage", "returntype"] : ["servicekey"]))
        }
    }

    private var isOdcloud: Bool {
        if case .url(let url) = origin { return url.contains("api.odcloud.kr") }
        return false
    }

    private var serviceKeyEnv: String? {
        if case .url(let url) = origin, url.lowercased().contains("servicekey=") || isOdcloud { return "DATA_GO_KR_KEY" }
        return nil
    }

    package static func withoutParameters(_ url: String, _ names: [String]) -> String {
        guard let question = url.firstIndex(of: "?") else { return url }
        let kept = url[url.index(after: question)...].split(separator: "&").filter { parameter in
            let key = parameter.split(separator: "=", maxSplits: 1).first.map { $0.lowercased() } ?? ""
            return !names.contains(key)
        }
        return String(url[..<question]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
    }

    /// A source name from a file's name: `seocho-smoking.csv` is `seocho-smoking`; characters
    /// a source name may not hold become `-`. The release's date goes (`...-20260212`,
    /// `_2024`, `2026-02-12`): it is in every id the source serves, and next year's file is the
    /// same source.
    package static func sourceName(from origin: String) -> String {
        var base = origin.split(separator: "?").first.map(String.init) ?? origin
        base = base.split(separator: "/").last.map(String.init) ?? base
        if let dot = base.lastIndex(of: "."), dot > base.startIndex { base = String(base[..<dot]) }
        let cleaned = String(base.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "-" })
        let undated = withoutDates(cleaned)
        return undated.isEmpty ? (cleaned.isEmpty ? "discovered" : cleaned) : undated
    }

    /// `name` without the words that are dates: a year (19xx, 20xx), a year and month or a
    /// whole date in digits, and the month and day after a year; the words kept joined by `-`.
    static func withoutDates(_ name: String) -> String {
        let words = name.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == "." }).map(String.init)
        func isYear(_ word: String) -> Bool { word.count == 4 && (word.hasPrefix("19") || word.hasPrefix("20")) }
        var kept: [String] = []
        var afterYear = 0
        for word in words {
            let digits = word.allSatisfy(\.isASCII) && word.allSatisfy(\.isNumber)
            if digits && (isYear(word) || ([6, 8].contains(word.count) && isYear(String(word.prefix(4))))) {
                afterYear = word.count == 4 ? 2 : 0
                continue
            }
            if digits && afterYear > 0 && word.count <= 2 {
                afterYear -= 1
                continue
            }
            afterYear = 0
            kept.append(word)
        }
        return kept.joined(separator: "-")
    }
}

/// Why a file could not be read at all (as opposed to read, with something missing).
package enum DiscoveryError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(String)
    case fetch(String)

    package var description: String {
        switch self {
        case .unreadable(let why): return "cannot read the file: \(why)"
        case .fetch(let why): return "cannot fetch it: \(why)"
        }
    }
}
