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

extension AreasConfig {
    static func parseOdcloud(_ o: ConfigObject) throws(ConfigError) -> OdcloudConfig {
        var odcloud = OdcloudConfig()
        odcloud.oasURL = try o.url(ConfigKeys.Odcloud.oasUrl) ?? odcloud.oasURL
        odcloud.apiURL = try o.url(ConfigKeys.Odcloud.apiUrl) ?? odcloud.apiURL
        return odcloud
    }
}
