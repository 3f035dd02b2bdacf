import AreasCore

/// The wire format of an upstream source.
package enum SourceFormat: String, Sendable, CaseIterable {
    /// The nationwide non-smoking zone API on data.go.kr, XML pages.
    case dataGoKrXML = "data-go-kr-xml"
    /// A district smoking-area data set on the odcloud gateway, JSON pages.
    case odcloudJSON = "odcloud-json"
    /// A published CSV file (the portal's "file data"), read whole.
    case csv
    /// A JSON file of row objects, read whole.
    case jsonRows = "json-rows"
    /// A GeoJSON FeatureCollection file: points, polygons and lines with their properties.
    case geojson

    /// Whether the whole data set is one file rather than numbered pages.
    package var isSingleFile: Bool { self == .csv || self == .jsonRows || self == .geojson }
}

/// Which upstream columns hold the values every area needs.
package struct FieldMapping: Sendable, Equatable {
    /// The name's column, or columns joined as a template (`{설치위치} {설치위치 상세}`: booths
    /// at one address told apart by a detail column).
    package var name: String
    /// Optional only for a source that geocodes rows without a position.
    package var latitude: String?
    package var longitude: String?
    package var address: String?
    package var lotAddress: String?
    package var province: String?
    package var district: String?
    /// The date the publisher states its data for, as configured (checked to be a column of
    /// the file); see `referenceDateColumn` for the one read.
    package var referenceDate: String?
    /// The zone's extent in words (금연구역범위상세), its type (금연구역구분) and its size in m²
    /// (금연구역면적), from which its footprint is drawn (`FootprintPolicy`).
    package var extent: String?
    package var zoneType: String?
    package var size: String?
    /// The keys filled by the format's own columns rather than by the config (`lotAddress` of
    /// the XML API when the config maps it not): a page without such a column leaves them
    /// empty, where a column the config names must be there.
    package var formatDefaults: Set<String> = []

    /// The standard column names of the nationwide non-smoking zone data set, all of them the
    /// format's own (a page may lack any).
    package static let dataGoKrStandard: FieldMapping = {
        var mapping = FieldMapping(
            name: "prhsmkNm", latitude: "latitude", longitude: "longitude", address: "rdnmadr",
            lotAddress: "lnmadr", province: "ctprvnNm", district: "signguNm", referenceDate: "referenceDate")
        mapping.formatDefaults = ["name", "latitude", "longitude", "address", "lotAddress", "province", "district", "referenceDate"]
        return mapping
    }()

    /// The column of the standard data sets' (and most district files') reference date.
    package static let standardReferenceDate = "데이터기준일자"

    /// `name` as a template, when it joins columns.
    package var nameTemplate: GeocodeTemplate? { name.contains("{") ? try? GeocodeTemplate(name) : nil }

    /// The columns the name is read from.
    package var nameColumns: [String] { nameTemplate?.columns ?? [name] }

    /// The column a reference date is read from: the configured one, else the standard data's
    /// `데이터기준일자` when the source has one (a source without it states no date).
    package var referenceDateColumn: String { referenceDate ?? Self.standardReferenceDate }

    package init(name: String, latitude: String?, longitude: String?, address: String? = nil,
                lotAddress: String? = nil, province: String? = nil, district: String? = nil, referenceDate: String? = nil,
                extent: String? = nil, zoneType: String? = nil, size: String? = nil) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.lotAddress = lotAddress
        self.province = province
        self.district = district
        self.referenceDate = referenceDate
        self.extent = extent
        self.zoneType = zoneType
        self.size = size
    }

    /// The columns a zone's footprint is drawn from: those mapped, else the standard data's
    /// (the XML API's names for `format`'s XML, the files' names otherwise); a size left
    /// unmapped outside the XML API is read from `footprint.sizeField`, then `금연구역면적`.
    package func zoneColumns(_ format: SourceFormat) -> ZoneColumns {
        let standard = format == .dataGoKrXML ? ZoneColumns.dataGoKrXML : ZoneColumns.standardFile
        return ZoneColumns(extent: extent ?? standard.extent, zoneType: zoneType ?? standard.zoneType,
                           size: size ?? (format == .dataGoKrXML ? standard.size : nil))
    }
}

/// One upstream data set and how to fetch and read it.
package struct SourceConfig: Sendable, Equatable {
    package var name: String
    package var kind: AreaKind
    package var format: SourceFormat
    /// Where pages come from: an HTTP endpoint, or a directory of recorded pages.
    package var location: Location
    /// The environment variable that holds the service key; the key itself is never stored.
    package var serviceKeyEnv: String?
    package var pageSize: Int
    package var fields: FieldMapping
    /// Requests in flight at once.
    package var concurrency: Int
    package var timeoutSeconds: Double
    /// Tries after the first, for transient failures.
    package var retries: Int
    /// The first back-off, doubled on each try, with jitter.
    package var retryDelaySeconds: Double
    /// Guards against a total count that lies.
    package var maxPages: Int
    /// A fetch that shrinks the source by more than this fraction is held back unless forced.
    package var maxShrink: Double
    /// The province every record of this source belongs to, when the data set has no column for it.
    package var province: String?
    /// The district every record belongs to, likewise.
    package var district: String? = nil
    /// How a file's bytes become text (`csv`, `json-rows`).
    package var encoding: TextEncoding = .auto
    /// Whether a CSV file's first row names its columns; without one, columns are named by number.
    package var hasHeader = true
    package var delimiter = UInt8(ascii: ",")
    /// What to ask the geocoder for a row without a usable position; nil rejects such rows.
    package var geocode: GeocodeQueries? = nil
    /// A page or file larger than this is refused.
    package var maxPageBytes = Self.defaultMaxPageBytes
    package static let defaultMaxPageBytes = 32 << 20
    /// Requests a day (in Korea) this source's key may make, counted across restarts.
    package var dailyRequestLimit: Int?

    /// Reads this source's pages or file.
    package var decoder: any PageDecoder {
        switch format {
        case .dataGoKrXML: return DataGoKrXMLDecoder()
        case .odcloudJSON: return OdcloudJSONDecoder()
        case .csv: return CSVDecoder(encoding: encoding, hasHeader: hasHeader, delimiter: delimiter)
        case .jsonRows: return JSONRowsDecoder(encoding: encoding)
        case .geojson: return GeoJSONDecoder()
        }
    }

    /// Every value given; the loader (`load(path:)`) is where the documented defaults are applied.
    package init(name: String, kind: AreaKind, format: SourceFormat, location: Location, serviceKeyEnv: String?, pageSize: Int, fields: FieldMapping, concurrency: Int, timeoutSeconds: Double, retries: Int, retryDelaySeconds: Double, maxPages: Int, maxShrink: Double, province: String?) {
        self.name = name
        self.kind = kind
        self.format = format
        self.location = location
        self.serviceKeyEnv = serviceKeyEnv
        self.pageSize = pageSize
        self.fields = fields
        self.concurrency = concurrency
        self.timeoutSeconds = timeoutSeconds
        self.retries = retries
        self.retryDelaySeconds = retryDelaySeconds
        self.maxPages = maxPages
        self.maxShrink = maxShrink
        self.province = province
    }

    package enum Location: Sendable, Equatable {
        case url(String)
        case recordedPages(directory: String)
        /// One local file holding the whole data set.
        case file(String)
        /// A portal data set by its id (`odcloud-json`): its newest upload, found in the portal's
        /// document at each refresh.
        case dataset(String)
    }

    /// Whether the fields are chosen at each refresh from the upload's columns and first page
    /// (`"fields": "auto"`, or none given for a `dataset` source), as `--discover` chooses them.
    package var choosesFields = false
}
