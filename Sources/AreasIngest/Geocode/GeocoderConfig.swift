/// The service that turns addresses into positions, and how hard it may be asked.
package struct GeocoderConfig: Sendable, Equatable {
    package enum Provider: String, Sendable, CaseIterable {
        /// Kakao Local: address search, then place (keyword) search.
        case kakao
        /// V-World geocoder 2.0: a road address, then a lot (parcel) address.
        case vworld

        /// The service's real endpoint.
        package var defaultURL: String {
            switch self {
            case .kakao: return "https://dapi.kakao.com"
            case .vworld: return "https://api.vworld.kr/req/address"
            }
        }
    }

    package var provider: Provider
    /// Where requests go: the provider's endpoint, or a stand-in speaking its protocol.
    package var url: String
    /// A file of recorded answers (request to body) to serve instead of the network, so the
    /// bundled samples run offline with no key.
    package var recordedAnswers: String?
    /// The environment variable holding the key; the key itself is never stored.
    package var keyEnv: String?
    package var requestsPerSecond: Double
    /// Requests one refresh may make in all; rows past it wait for the next refresh.
    package var maxRequestsPerRefresh: Int
    /// Requests a day (in Korea) the key may make, counted across refreshes and restarts.
    package var dailyRequestLimit: Int?
    /// Of those, the most that searches may make (`geocoder.searchDailyLimit`): anonymous
    /// searches for unknown text never spend what the refreshes need. By default a tenth of
    /// the day's limit, or 1,000 without one.
    package var searchDailyLimit: Int?
    /// The searches' share as it applies.
    package var searchShare: Int { searchDailyLimit ?? dailyRequestLimit.map { Swift.max(1, $0 / 10) } ?? 1_000 }
    package var timeoutSeconds: Double
    /// Tries after the first, for a time-out, 429 or 5xx.
    package var retries: Int

    package init(provider: Provider, url: String? = nil, recordedAnswers: String? = nil, keyEnv: String? = nil,
                requestsPerSecond: Double = 10, maxRequestsPerRefresh: Int = 5_000, timeoutSeconds: Double = 10, retries: Int = 2) {
        self.provider = provider
        self.url = url ?? provider.defaultURL
        self.recordedAnswers = recordedAnswers
        self.keyEnv = keyEnv
        self.requestsPerSecond = requestsPerSecond
        self.maxRequestsPerRefresh = maxRequestsPerRefresh
        self.timeoutSeconds = timeoutSeconds
        self.retries = retries
    }
}
