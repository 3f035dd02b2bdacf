import AreasCore

extension ConfigKeys {
    /// One entry of `sources`.
    package enum Source {
        package static let name = ConfigKey("name", .text, .absent("required"), "unique; letters, digits, `-`, `_`, `.`; prefixes every id of the source (`name:hash`)")
        package static let kind = ConfigKey("kind", .choice(AreaKind.allCases.map(\.rawValue)), .absent("required"), "what the source's areas are")
        package static let format = ConfigKey("format", .choice(SourceFormat.allCases.map(\.rawValue)), .absent("required"),
                                      "`data-go-kr-xml` (nationwide non-smoking zones), `odcloud-json` (district APIs), `csv`, `json-rows` (an array of row objects, or `{\"data\":[...]}`), `geojson` (a FeatureCollection: points, polygons with holes, lines; `fields` name `properties` members, the position is the geometry's; a polygon or line is the zone's footprint itself, widened by a distance its `extent` words state, a line by 10 m when they state none)")
        package static let url = ConfigKey("url", .url, .absent("one of `url`, `pages`, `file`, `dataset`"), "the HTTP(S) endpoint (for a file format: the file, one GET)")
        package static let pages = ConfigKey("pages", .path, .absent(""), "a folder of recorded pages, read in page order (`page-1.xml`, ...)")
        package static let file = ConfigKey("file", .path, .absent(""), "the local file of a `csv`, `json-rows` or `geojson` source")
        package static let dataset = ConfigKey("dataset", .text, .absent(""),
                                       "an `odcloud-json` source by the portal's data set id (`15073796` in `data.go.kr/data/15073796/...`): at each refresh the portal's document (`odcloud`) names its uploads, the newest by the date in its title is paged, and `sources` names it (`revision`: `uddi`, `title`, `date`); a document that cannot be read keeps the last good areas and names the upload still served")
        package static let encoding = ConfigKey("encoding", .choice(["auto", "utf-8", "cp949", "euc-kr"]), .text("auto"),
                                        "`auto` is UTF-8 if valid, else CP949; a byte-order mark is dropped")
        package static let header = ConfigKey("header", .flag, .flag(true), "whether a CSV's first row names its columns (else they are `\"1\"`, `\"2\"`, ...)")
        package static let delimiter = ConfigKey("delimiter", .text, .text(","), "a CSV's separator, one character")
        package static let geocode = ConfigKey("geocode", .object(Geocode.section), .absent("none"),
                                       "for rows without a usable position (a `csv` or `json-rows` source): `query` goes to address search, then `keyword` to place search; `fields.latitude`/`longitude` are then optional")
        package static let maxPageBytes = ConfigKey.count("maxPageBytes", 32 << 20, in: 1_024...(1 << 30), "a larger page or file is refused (transient)")
        package static let dailyRequestLimit = ConfigKey("dailyRequestLimit", .count(1...100_000_000), .absent("none"),
                                                 "requests a day (in Korea) this source may make, counted across restarts; past it `quota reserved`")
        package static let serviceKeyEnv = ConfigKey("serviceKeyEnv", .environmentName, .absent("none"),
                                             "the environment variable holding the service key; the key is never stored in a file nor logged")
        package static let pageSize = ConfigKey.count("pageSize", 1_000, in: 1...100_000, "rows per page")
        package static let fields = ConfigKey("fields", .objectOrAuto(Fields.section), .absent("standard for `data-go-kr-xml`, chosen at each refresh for a `dataset`; else required"),
                                      "the columns the source's rows are read from; `\"auto\"` for a source by `dataset`: chosen as `--discover` chooses them, from the upload's first page, at every refresh")
        package static let concurrency = ConfigKey.count("concurrency", 4, in: 1...64, "requests in flight at once")
        package static let timeoutSeconds = ConfigKey.number("timeoutSeconds", 30, in: 0.1...600, "seconds per request, end to end")
        package static let retries = ConfigKey.count("retries", 3, in: 0...20, "tries after the first for transient failures")
        package static let retryDelaySeconds = ConfigKey.number("retryDelaySeconds", 0.5, in: 0.001...60, "the first back-off, doubled each try, with jitter")
        package static let maxPages = ConfigKey.count("maxPages", 2_000, in: 1...1_000_000, "a guard against a total count that lies")
        package static let maxShrink = ConfigKey("maxShrink", .number(0...1), .absent("the top-level `maxShrink`"), "this source held back when it shrinks by more than this fraction")
        package static let province = ConfigKey("province", .text, .absent("none"), "the province of every record, for data sets without that column")
        package static let district = ConfigKey("district", .text, .absent("none"), "the district of every record, for data sets without that column")

        package static let section = ConfigSection("sources[]", [
            name, kind, format, url, pages, file, dataset, encoding, header, delimiter, geocode, maxPageBytes, dailyRequestLimit,
            serviceKeyEnv, pageSize, fields, concurrency, timeoutSeconds, retries, retryDelaySeconds, maxPages, maxShrink, province, district,
        ])
    }

    /// A source's `fields`: the column each value is read from. CSV headers match with runs
    /// of spaces as one.
    package enum Fields {
        package static let name = ConfigKey("name", .text, .absent("required"), "the name's column, or columns joined: `\"{설치위치} {설치위치 상세}\"`")
        package static let latitude = ConfigKey("latitude", .text, .absent("required unless geocoded or GeoJSON"), "the latitude's column")
        package static let longitude = ConfigKey("longitude", .text, .absent("required unless geocoded or GeoJSON"), "the longitude's column")
        package static let address = ConfigKey("address", .text, .absent("none"), "the road address's column")
        package static let lotAddress = ConfigKey("lotAddress", .text, .absent("none"), "the lot address's column")
        package static let province = ConfigKey("province", .text, .absent("none"), "the province's column")
        package static let district = ConfigKey("district", .text, .absent("none"), "the district's column")
        package static let referenceDate = ConfigKey("referenceDate", .text, .absent("`데이터기준일자` when present"), "the column of the date the data is stated for")
        package static let extent = ConfigKey("extent", .text, .absent("`금연구역범위상세`; `prhsmkScopeDesc` for `data-go-kr-xml`"), "a zone's extent in words")
        package static let zoneType = ConfigKey("zoneType", .text, .absent("`금연구역구분`; `prhsmkSe` for `data-go-kr-xml`"), "a zone's type")
        package static let size = ConfigKey("size", .text, .absent("`금연구역면적`; `prhsmkAr` for `data-go-kr-xml`"), "a zone's size in m²")
        package static let section = ConfigSection("sources[].fields", [name, latitude, longitude, address, lotAddress, province, district, referenceDate, extent, zoneType, size])
    }

    /// A source's `geocode`: templates of the row's columns.
    package enum Geocode {
        package static let query = ConfigKey("query", .text, .absent("required"), "the address search's text: `\"{시도명} {시군구명} {소재지도로명주소}\"`")
        package static let keyword = ConfigKey("keyword", .text, .absent("none"), "the place search's text, asked when the address finds nothing: `\"{설치위치}\"`")
        package static let section = ConfigSection("sources[].geocode", [query, keyword])
    }
}
