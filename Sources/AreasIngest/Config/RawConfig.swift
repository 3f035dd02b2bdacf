/// A config file's shape, every key optional, so validation can name what is wrong.
struct RawConfig: Decodable {
    var socket: String?
    var socketMode: String?
    var socketGroup: String?
    var snapshot: String?
    var bounds: RawBounds?
    var refreshIntervalSeconds: Double?
    var maxShrink: Double?
    var maxResults: Int?
    var maxConnections: Int?
    var idleTimeoutSeconds: Double?
    var requestTimeoutSeconds: Double?
    var maxOutputBytes: Int?
    var adminUids: [UInt32]?
    var logLevel: String?
    var footprint: RawFootprint?
    var regions: RawRegions?
    var merge: RawMerge?
    var provinceAliases: [String: String]?
    var geocoder: RawGeocoder?
    var crowd: RawCrowd?
    var positions: String?
    var overrides: String?
    var refreshTimeoutSeconds: Double?
    var startReadySeconds: Double?
    var http: RawHTTP?
    var follow: RawFollow?
    var odcloud: RawOdcloud?
    var sources: [RawSource]?
}

struct RawMerge: Decodable {
    var meters: Double?
}

struct RawRegions: Decodable {
    var folder: String?
    var toleranceMeters: Double?
}

struct RawFootprint: Decodable {
    var minMeters: Double?
    var maxMeters: Double?
    var sizeField: String?
}

struct RawBounds: Decodable {
    var south: Double
    var west: Double
    var north: Double
    var east: Double
}

struct RawSource: Decodable {
    var name: String?
    var kind: String?
    var format: String?
    var url: String?
    var pages: String?
    var file: String?
    var dataset: String?
    var encoding: String?
    var header: Bool?
    var delimiter: String?
    var geocode: RawGeocode?
    var maxPageBytes: Int?
    var dailyRequestLimit: Int?
    var serviceKeyEnv: String?
    var pageSize: Int?
    var fields: RawFieldsChoice?
    var concurrency: Int?
    var timeoutSeconds: Double?
    var retries: Int?
    var retryDelaySeconds: Double?
    var maxPages: Int?
    var maxShrink: Double?
    var province: String?
    var district: String?
}

/// `fields`: the columns mapped, or `"auto"` (chosen at each refresh).
enum RawFieldsChoice: Decodable {
    case auto
    case mapped(RawFields)

    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            guard text == "auto" else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)': give \"auto\" or an object mapping name, latitude and longitude"))
            }
            self = .auto
        } else {
            self = .mapped(try RawFields(from: decoder))
        }
    }
}

struct RawFields: Decodable {
    var name: String?
    var latitude: String?
    var longitude: String?
    var address: String?
    var lotAddress: String?
    var province: String?
    var district: String?
    var referenceDate: String?
    var extent: String?
    var zoneType: String?
    var size: String?
}

struct RawGeocode: Decodable {
    var query: String?
    var keyword: String?
}

struct RawGeocoder: Decodable {
    var provider: String?
    var url: String?
    var recorded: String?
    var keyEnv: String?
    var requestsPerSecond: Double?
    var maxRequestsPerRefresh: Int?
    var dailyRequestLimit: Int?
    var searchDailyLimit: Int?
    var timeoutSeconds: Double?
    var retries: Int?
}
