/// The service that turns addresses into positions, and how hard it may be asked.
public struct GeocoderConfig: Sendable, Equatable {
    public enum Provider: String, Sendable, CaseIterable {
        /// Kakao Local: address search, then place (keyword) search.
        case kakao
        /// V-World geocoder 2.0: a road address, then a lot (parcel) address.
        case vworld

        /// The service's real endpoint.
        public var defaultURL: String {
            switch self {
            case .kakao: return "https://dapi.kakao.com"
            case .vworld: return "https://api.vworld.kr/req/address"
            }
        }
    }

    public var provider: Provider
    /// Where requests go: the provider's endpoint, or a stand-in speaking its protocol.
    public var url: String
    /// A file of recorded answers (request to body) to serve instead of the network, so the
    /// bundled samples run offline with no key.
    public var recordedAnswers: String?
    /// The environment variable holding the key; the key itself is never stored.
    public var keyEnv: String?
    public var requestsPerSecond: Double
    /// Requests one refresh may make in all; rows past it wait for the next refresh.
    public var maxRequestsPerRefresh: Int
    /// Requests a day (in Korea) the key may make, counted across refreshes and restarts.
    public var dailyRequestLimit: Int?
    public var timeoutSeconds: Double
    /// Tries after the first, for a time-out, 429 or 5xx.
    public var retries: Int

    public init(provider: Provider, url: String? = nil, recordedAnswers: String? = nil, keyEnv: String? = nil,
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
