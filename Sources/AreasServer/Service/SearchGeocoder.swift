import AreasCore
import AreasIngest
import AreasSystem
import Dispatch

/// The geocoder as search's last resort: a text that no area and no region holds is asked of
/// it as an address, then as a place name, once: what it says, found or not, is remembered for
/// the daemon's life, so a repeated search costs no request. Its requests keep the daemon's
/// pace (`GeocoderPacing`, shared with the refreshes) and count against the day's limit within
/// the searches' share of it (`geocoder.searchDailyLimit`). A search waits for it at most
/// `waitSeconds`, and waits off the work turns (the connection's `whileWaiting`), so a slow
/// geocoder never holds up other questions; at most `maximumWaiting` searches wait at once,
/// the rest are answered at once without it. A question not answered in time is answered
/// without it, saying so, and its answer is kept for the next asking.
final class SearchGeocoder: Sendable {
    enum Outcome: Equatable {
        case found(GeoPoint)
        case notFound
        /// Asked, not answered yet.
        case pending
        case unavailable(String)
    }

    /// One question to the geocoder, which any number of searches may wait for.
    private final class Lookup: @unchecked Sendable {
        let done = DispatchGroup()
        var outcome: Outcome = .pending
    }

    /// How long a search waits for the geocoder.
    static let waitSeconds = 1.5
    /// The most questions asked at once; past them a search is answered without the geocoder.
    static let maximumPending = 8
    /// The most texts remembered (the oldest forgotten first).
    static let maximumRemembered = 10_000
    /// The most searches waiting for the geocoder at once.
    static let maximumWaiting = 32

    /// The lookups by text (in the order they were asked, to forget the oldest), and how many
    /// are still waiting for the geocoder.
    private let known = LockedValue<(lookups: [String: Lookup], order: [String], inFlight: Int, waiting: Int)>(([:], [], 0, 0))
    /// The pace of every request the daemon makes to the geocoder.
    let pacing: GeocoderPacing

    init(pacing: GeocoderPacing) { self.pacing = pacing }
    /// Requests made to the geocoder, for tests and metrics.
    let requests = LockedValue<Int>(0)
    /// Searches waiting for the geocoder now.
    var waitingCount: Int { known.withLock { $0.waiting } }

    /// What the geocoder says of `text`, waiting at most `waitSeconds` through `whileWaiting`
    /// (which gives up the caller's work turn meanwhile).
    func locate(_ text: String, config: AreasConfig, environment: [String: String], quota: RequestQuota,
                whileWaiting: (_ wait: () -> Void) -> Void = { $0() }) -> Outcome {
        guard let geocoder = config.geocoder else { return .unavailable("no geocoder is configured") }
        let key = RegionName.compact(text)
        var start = false
        let lookup: Lookup? = known.withLock { known in
            if let lookup = known.lookups[key] { return lookup }
            guard known.inFlight < Self.maximumPending else { return nil }
            known.inFlight += 1
            let lookup = Lookup()
            lookup.done.enter()
            known.lookups[key] = lookup
            known.order.append(key)
            if known.order.count > Self.maximumRemembered { known.lookups[known.order.removeFirst()] = nil }
            start = true
            return lookup
        }
        guard let lookup else { return .unavailable("the geocoder is busy with other searches; ask again in a moment") }
        if start {
            let pacing = self.pacing
            Task {
                let client = GeocoderClient(config: geocoder, bounds: config.bounds, environment: environment, quota: quota, pacing: pacing, forSearch: true)
                var outcome = Outcome.notFound
                for question in [GeocodeQuestion(.address, text), GeocodeQuestion(.place, text)] {
                    self.requests.withLock { $0 += 1 }
                    switch await client.locate(question) {
                    case .found(let point): outcome = .found(point)
                    case .notFound: continue
                    case .unavailable(let why): outcome = .unavailable(why)
                    }
                    break
                }
                lookup.outcome = outcome
                self.known.withLock { known in
                    known.inFlight -= 1
                    // A failure is not remembered: the next search asks again.
                    if case .unavailable = outcome { known.lookups[key] = nil }
                }
                lookup.done.leave()
            }
        }
        let mayWait = known.withLock { known in
            guard known.waiting < Self.maximumWaiting else { return false }
            known.waiting += 1
            return true
        }
        guard mayWait else { return lookup.done.wait(timeout: .now()) == .success ? lookup.outcome : .pending }
        var answered = false
        whileWaiting { answered = lookup.done.wait(timeout: .now() + Self.waitSeconds) == .success }
        known.withLock { $0.waiting -= 1 }
        return answered ? lookup.outcome : .pending
    }
}
