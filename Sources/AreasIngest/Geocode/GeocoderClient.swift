import AreasCore
import AreasSystem
import Foundation

/// Asks the configured geocoder, within its limits: at most `requestsPerSecond`, at most
/// `maxRequestsPerRefresh` in all, each try bounded by `timeoutSeconds`, transient failures
/// retried `retries` times. A refused key stops all asking for the rest of the refresh.
///
/// One client serves one refresh (or one search): its budget and any refusal start afresh
/// with the next. The pace is the daemon's (`GeocoderPacing`), shared by every client it makes,
/// so refreshes and searches together keep to `requestsPerSecond`.
package actor GeocoderClient {
    package enum Answer: Sendable, Equatable {
        case found(GeoPoint)
        case notFound
        /// The geocoder could not be asked or did not answer: why.
        case unavailable(String)
    }

    package let config: GeocoderConfig
    private let provider: any GeocodeProvider
    private let key: String?
    private let recorded: RecordedGeocoderAnswers?
    private let bounds: GeoBox
    private let pacing: GeocoderPacing
    /// For a search's client: the share of the day's requests searches may make.
    private let searchShare: Int?
    /// Requests sent (or served from a recording) in this refresh.
    package private(set) var requestsMade = 0
    /// Set once the service refuses the key, the budget is spent, or it failed to answer
    /// `unansweredLimit` questions in a row: nothing more is asked.
    package private(set) var stopped: String?
    /// Questions in a row the geocoder did not answer (after their retries).
    private var unansweredInARow = 0
    /// An unreachable geocoder is asked this many questions, not every row's (a district file
    /// of 243 addresses took a minute of retries to learn what the first few said).
    package static let unansweredLimit = 3

    /// Counts requests to the service against its `dailyRequestLimit`.
    private let quota: RequestQuota?

    /// `pacing`: the daemon's (a client of its own when nil); `forSearch`: the client asks for
    /// a search, within the searches' share of the day.
    package init(config: GeocoderConfig, bounds: GeoBox, environment: [String: String], quota: RequestQuota? = nil,
                 pacing: GeocoderPacing? = nil, forSearch: Bool = false) {
        self.quota = quota
        self.pacing = pacing ?? GeocoderPacing()
        self.searchShare = forSearch ? config.searchShare : nil
        self.config = config
        self.bounds = bounds
        switch config.provider {
        case .kakao: provider = KakaoGeocoder(baseURL: config.url)
        case .vworld: provider = VWorldGeocoder(baseURL: config.url)
        }
        var stopped: String?
        var recorded: RecordedGeocoderAnswers?
        if let path = config.recordedAnswers {
            do throws(RecordedGeocoderAnswers.Failure) {
                recorded = try RecordedGeocoderAnswers(path: path)
            } catch {
                stopped = error.description
            }
        }
        self.recorded = recorded
        if recorded == nil, let variable = config.keyEnv {
            let value = environment[variable] ?? ""
            key = value.isEmpty ? nil : value
            if value.isEmpty && stopped == nil { stopped = "the geocoder key variable \(variable) is not set in the environment" }
        } else {
            key = nil
        }
        self.stopped = stopped
    }

    /// The position for `question`, or why there is none.
    package func locate(_ question: GeocodeQuestion) async -> Answer {
        for request in provider.requests(for: question, key: key ?? "") {
            switch await ask(request, question: question) {
            case .found(let latitude, let longitude):
                unansweredInARow = 0
                // A position outside the country answers the wrong question (a namesake abroad).
                guard let point = try? GeoPoint(latitude: latitude, longitude: longitude), bounds.contains(point) else { continue }
                return .found(point)
            case .notFound:
                unansweredInARow = 0
                continue
            case .refused(let why):
                return .unavailable(why)
            case .transient(let why):
                unansweredInARow += 1
                if unansweredInARow >= Self.unansweredLimit, stopped == nil {
                    stopped = "the geocoder did not answer \(unansweredInARow) questions in a row (the last: \(why)); not asked again in this refresh"
                }
                return .unavailable(stopped ?? why)
            }
        }
        return .notFound
    }

    /// One request, paced and retried; a refusal stops the client.
    private func ask(_ request: GeocodeRequest, question: GeocodeQuestion) async -> GeocodeReply {
        var attempt = 0
        while true {
            if let stopped { return .refused(stopped) }
            guard requestsMade < config.maxRequestsPerRefresh else {
                stopped = "this refresh's budget of \(config.maxRequestsPerRefresh) geocoder requests (maxRequestsPerRefresh) is spent"
                return .refused(stopped ?? "")
            }
            requestsMade += 1
            let reply: GeocodeReply
            if recorded == nil, let quota, let share = searchShare, !quota.take(RequestQuota.searchGeocoderName, limit: share) {
                stopped = "the searches' share of the day's geocoder requests (\(share), geocoder.searchDailyLimit) is spent; the rest is kept for refreshes"
                return .refused(stopped ?? "")
            }
            if recorded == nil, let quota, !quota.take(RequestQuota.geocoderName, limit: config.dailyRequestLimit) {
                stopped = "quota reserved: the day's \(config.dailyRequestLimit ?? 0) geocoder requests (dailyRequestLimit) are spent"
                return .refused(stopped ?? "")
            }
            if let recorded {
                // A recording costs the service nothing: no pacing.
                reply = recorded.reply(to: question, request: request, provider: provider)
            } else {
                await pacing.waitForSlot(requestsPerSecond: config.requestsPerSecond)
                do throws(UpstreamError) {
                    let response = try await HTTPClient.get(request.url, headers: request.headers.sorted { $0.key < $1.key }, timeoutSeconds: config.timeoutSeconds, maxBytes: 1 << 20)
                    reply = provider.reply(status: response.status, body: response.body)
                } catch {
                    reply = .transient(error.description)
                }
            }
            switch reply {
            case .refused(let why):
                stopped = why
                return reply
            case .transient where attempt < config.retries:
                attempt += 1
                let delay = min(5, 0.25 * pow(2, Double(attempt - 1))) * Double.random(in: 0.5...1.5)
                try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
            default:
                return reply
            }
        }
    }

}

/// The geocoder's pace for a whole daemon: every client it makes (each refresh's, each
/// search's) takes its turns here, so together they keep to `requestsPerSecond`.
package final class GeocoderPacing: Sendable {
    private let nextSlot = LockedValue(ContinuousClock.now)
    /// Turns handed out, for tests.
    package let turns = LockedValue(0)

    package init() {}

    /// Waits until this request's turn; turns are handed out in order before the wait, so
    /// concurrent askers never share one.
    package func waitForSlot(requestsPerSecond: Double) async {
        let now = ContinuousClock.now
        let slot = nextSlot.withLock { next in
            let slot = max(now, next)
            next = slot + .nanoseconds(Int64(1e9 / requestsPerSecond))
            return slot
        }
        turns.withLock { $0 += 1 }
        if slot > now { try? await Task.sleep(until: slot, clock: .continuous) }
    }
}
