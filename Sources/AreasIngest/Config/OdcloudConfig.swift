/// Where the data portal describes its data sets and serves their uploads (top-level
/// `odcloud`): the Swagger document per data set, and the API the uploads are paged from.
package struct OdcloudConfig: Sendable, Equatable {
    package static let defaultOASURL = "https://infuser.odcloud.kr/oas/docs"
    package static let defaultAPIURL = "https://api.odcloud.kr/api"

    /// `GET {oasURL}?namespace={dataset}/v1` answers the data set's document; no key is sent.
    package var oasURL = OdcloudConfig.defaultOASURL
    /// An upload's rows are paged from `{apiURL}{path}`, the path the document lists.
    package var apiURL = OdcloudConfig.defaultAPIURL

    package init() {}
}

/// The shape of `odcloud` in a config file.
struct RawOdcloud: Decodable {
    var oasUrl: String?
    var apiUrl: String?
}

extension AreasConfig {
    static func parseOdcloud(_ raw: RawOdcloud, path: String) throws(ConfigError) -> OdcloudConfig {
        let check = ValueCheck(path: path)
        var odcloud = OdcloudConfig()
        if let url = raw.oasUrl { odcloud.oasURL = try check.httpURL(url, "odcloud.oasUrl") }
        if let url = raw.apiUrl { odcloud.apiURL = try check.httpURL(url, "odcloud.apiUrl") }
        return odcloud
    }
}
