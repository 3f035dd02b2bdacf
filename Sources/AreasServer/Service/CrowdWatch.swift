import AreasCore
import AreasIngest
import AreasSystem
import Foundation

/// The city's people density around its hotspots: what it last said of each, and the asking.
///
/// The city is asked only about a hotspot a question touched (`touch`), at most once per
/// `maxAgeSeconds` each, within `dailyRequestLimit` a Korean day (counted with the daemon's
/// other requests, across restarts), and the day's requests are spread over the day: a
/// bucket refilled at `dailyRequestLimit` a day, holding at most an hour's, lends each
/// request. Without it a busy night would spend a day's 1,000 requests in two hours
/// (`areas-bench crowd`); with it the hotspots asked about most keep fresh levels all day.
///
/// Asking never holds an answer: a question starts a request and is answered at once with
/// what is known. A request that fails, for whatever reason,
/// keeps the last good level (with its age) and counts its outcome. A refused key stops all
/// asking until a restart; another refusal (a key past the city's own quota) until midnight in
/// Korea. The key goes only into the request's path: never into a log line, an answer or a
/// metric.
package final class CrowdWatch: Sendable {
    package let config: CrowdConfig
    package let hotspots: CrowdHotspots
    private let key: String?
    private let quota: RequestQuota
    private let logger: Logger
    /// Called after a reading changed (answers to the same question now differ).
    private let onChange: @Sendable () -> Void
    private let clock: @Sendable () -> Double
    private let book: LockedValue<Book>
    /// Which areas of the served data set lie in which hotspot, made once per data set.
    private let kept = LockedValue<(version: String, members: CrowdMembers)?>(nil)

    /// What a key may hold unescaped in the request's path: URLs' unreserved characters.
    private static let keyCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The name the city's requests are counted under in the day's quota.
    package static let quotaName = "crowd"

    /// Per hotspot: the last good reading, the last request's start and outcome, whether one is
    /// in flight; the outcomes counted since start; why asking stopped, and until when; the
    /// requests the bucket holds, as of when.
    struct Book {
        var known: [CrowdView.Known?]
        var askedAt: [Double?]
        var lastOutcome: [(outcome: CrowdOutcome, said: String)?]
        var inFlight: [Bool]
        var outcomes = [Int](repeating: 0, count: CrowdOutcome.allCases.count)
        var stopped: (reason: String, until: Double)?
        var tokens: Double
        var tokensAt: Double
    }

    /// The most requests the bucket holds: an hour's share of the day's (at least 10, or the
    /// whole day's when that is fewer).
    static func bucketSize(_ config: CrowdConfig) -> Double {
        Swift.max(Double(config.dailyRequestLimit) / 24, Double(Swift.min(config.dailyRequestLimit, 10)))
    }

    package init(config: CrowdConfig, hotspots: CrowdHotspots, environment: [String: String], quota: RequestQuota, logger: Logger,
                 clock: @escaping @Sendable () -> Double = { WallClock.coarseSeconds }, onChange: @escaping @Sendable () -> Void) {
        self.config = config
        self.hotspots = hotspots
        self.quota = quota
        self.logger = logger
        self.clock = clock
        self.onChange = onChange
        let count = hotspots.count
        var book = Book(known: Array(repeating: nil, count: count), askedAt: Array(repeating: nil, count: count),
                        lastOutcome: Array(repeating: nil, count: count), inFlight: Array(repeating: false, count: count),
                        tokens: Self.bucketSize(config), tokensAt: clock())
        let value = config.keyEnv.flatMap { environment[$0] }.flatMap { $0.isEmpty ? nil : $0 }
        key = value
        if config.recordedAnswers == nil && value == nil {
            book.stopped = ("the key variable \(config.keyEnv ?? "") is not set in the environment", .infinity)
        }
        self.book = LockedValue(book)
    }

    /// A question asked at `point`: the hotspot holding it is asked about, when it is due.
    @inline(__always)
    package func touch(_ point: GeoPoint) {
        if let hotspot = hotspots.hotspot(holding: point) { ask(about: hotspot) }
    }

    /// The most hotspots one map view asks about: those nearest its middle.
    package static let viewHotspots = 12
    /// The name a map view's requests are counted under, besides `quotaName`: views may spend
    /// half the day's requests, so that the questions asked from a place keep the rest.
    package static let viewQuotaName = "crowd-views"

    /// A map's view (`/v1/crowd` with a box): the hotspots whose box overlaps it count as asked
    /// about, the `viewHotspots` nearest its middle, within the views' half of the day.
    package func touch(view: GeoBox) {
        let middle = (latitude: (view.south + view.north) / 2, longitude: (view.west + view.east) / 2)
        func distance(_ box: GeoBox) -> Double {
            let dy = (box.south + box.north) / 2 - middle.latitude, dx = ((box.west + box.east) / 2 - middle.longitude) * 0.8
            return dy * dy + dx * dx
        }
        let inView = hotspots.boxes.indices.filter { hotspots.boxes[$0].intersects(view) }
            .sorted { (distance(hotspots.boxes[$0]), $0) < (distance(hotspots.boxes[$1]), $1) }
        for hotspot in inView.prefix(Self.viewHotspots) { ask(about: hotspot, forView: true) }
    }

    /// Whether a reading `ageSeconds` old is past `staleAfterSeconds`.
    package func isStale(ageSeconds: Double) -> Bool { ageSeconds > config.staleAfterSeconds }

    /// Asks the city about `hotspot` in the background, unless it was asked within
    /// `maxAgeSeconds`, is being asked, asking has stopped, or the day's requests (for a
    /// `forView` ask: the views' half of them) are spent.
    package func ask(about hotspot: Int, forView: Bool = false) {
        let now = clock()
        let viewLimit = config.dailyRequestLimit / 2
        if forView && config.recordedAnswers == nil && (quota.today(now: now)[Self.viewQuotaName] ?? 0) >= viewLimit { return }
        let due: Bool = book.withLock { book in
            if let stopped = book.stopped, now < stopped.until { return false }
            book.stopped = nil
            guard !book.inFlight[hotspot], now - (book.askedAt[hotspot] ?? -.infinity) >= config.maxAgeSeconds else { return false }
            // A recording costs the city nothing: no bucket. Once the day's requests are spent,
            // the next due request says so (quota_spent) instead of waiting for the bucket.
            if config.recordedAnswers == nil && (quota.today(now: now)[Self.quotaName] ?? 0) < config.dailyRequestLimit {
                book.tokens = Swift.min(Self.bucketSize(config), book.tokens + Swift.max(0, now - book.tokensAt) * Double(config.dailyRequestLimit) / 86_400)
                book.tokensAt = now
                guard book.tokens >= 1 else { return false }
                book.tokens -= 1
            }
            book.inFlight[hotspot] = true
            book.askedAt[hotspot] = now
            return true
        }
        guard due else { return }
        if config.recordedAnswers == nil, !quota.take(Self.quotaName, limit: config.dailyRequestLimit, now: now) {
            let said = "the day's \(config.dailyRequestLimit) requests to the city (crowd.dailyRequestLimit) are spent; asking again after midnight in Korea"
            record(hotspot, .failed(.quotaSpent, said), stopUntil: Self.nextKoreanMidnight(after: now))
            return
        }
        if forView && config.recordedAnswers == nil { _ = quota.take(Self.viewQuotaName, limit: nil, now: now) }
        Task.detached { [self] in
            let answer = await self.answer(about: hotspot)
            var stopUntil: Double?
            if case .failed(.badKey, _) = answer { stopUntil = .infinity }
            if case .failed(.refused, _) = answer { stopUntil = Self.nextKoreanMidnight(after: clock()) }
            record(hotspot, answer, stopUntil: stopUntil)
        }
    }

    /// What the city (or its recording) says of `hotspot` now.
    private func answer(about hotspot: Int) async -> CityDataAnswer.Reading {
        let code = hotspots.codes[hotspot]
        let name = hotspots.names[hotspot]
        if let folder = config.recordedAnswers {
            let path = folder + "/" + code + ".json"
            let bytes: [UInt8]
            do throws(WholeFile.ReadFailure) {
                guard let read = try WholeFile.read(path, limit: CityDataAnswer.maximumBytes) else {
                    return .failed(.noData, "no recorded answer at \(path)")
                }
                bytes = read
            } catch {
                return .failed(.unreachable, "cannot read \(path): \(error)")
            }
            return CityDataAnswer.read(RecordedCityAnswer.replayed(bytes, now: clock()), code: code, name: name, now: clock())
        }
        // The key is the path's first segment: anything in it a path cannot hold is escaped.
        let escapedKey = (key ?? "").addingPercentEncoding(withAllowedCharacters: Self.keyCharacters) ?? ""
        let base = config.url.hasSuffix("/") ? String(config.url.dropLast()) : config.url
        let url = base + "/" + escapedKey + "/json/citydata_ppltn/1/5/" + code
        do throws(UpstreamError) {
            let response = try await HTTPClient.get(url, timeoutSeconds: config.timeoutSeconds, maxBytes: CityDataAnswer.maximumBytes)
            guard response.status == 200 else { return .failed(.httpError, "HTTP \(response.status)") }
            return CityDataAnswer.read(response.body, code: code, name: name, now: clock())
        } catch {
            return .failed(CrowdOutcome(error), error.description)
        }
    }

    private func record(_ hotspot: Int, _ answer: CityDataAnswer.Reading, stopUntil: Double?) {
        let changed: Bool = book.withLock { book in
            book.inFlight[hotspot] = false
            switch answer {
            case .reading(let reading):
                book.outcomes[CrowdOutcome.ok.index] += 1
                book.lastOutcome[hotspot] = (.ok, "")
                guard book.known[hotspot]?.reading != reading else { return false }
                book.known[hotspot] = CrowdView.Known(reading: reading, written: Answers.readingMembers(place: hotspots.names[hotspot], reading: reading))
                return true
            case .failed(let outcome, let said):
                book.outcomes[outcome.index] += 1
                book.lastOutcome[hotspot] = (outcome, said)
                if let stopUntil { book.stopped = (said, stopUntil) }
                return false
            }
        }
        if case .failed(let outcome, let said) = answer {
            logger.warning("crowd: \(hotspots.codes[hotspot]) \(hotspots.names[hotspot]): \(outcome.rawValue): \(said)"
                           + (stopUntil == .infinity ? "; asking no more until a restart" : stopUntil != nil ? "; asking no more until midnight in Korea" : "; the last good level is kept"))
        }
        if changed { onChange() }
    }

    /// What answers show, as of now.
    package func view(for state: ServingState) -> CrowdView {
        let members = members(of: state)
        let known = book.withLock { $0.known }
        return CrowdView(watch: self, members: members, known: known)
    }

    /// Which served areas lie in which hotspot: made on the first question after a new data
    /// set, by a box search per hotspot (a few thousand point tests, not one per area).
    private func members(of state: ServingState) -> CrowdMembers {
        kept.withLock { kept in
            if let kept, kept.version == state.version { return kept.members }
            let members = CrowdMembers(index: state.index, hotspots: hotspots)
            kept = (state.version, members)
            return members
        }
    }

    /// Every hotspot's state, for `/v1/crowd` and the metrics.
    package struct Status: Sendable {
        package var readings: [CrowdReading?]
        package var askedAt: [Double?]
        package var lastOutcome: [(outcome: CrowdOutcome, said: String)?]
        package var outcomes: [Int]
        package var stopped: String?
        /// Requests started and not yet ended.
        package var inFlight: Int
        package var requestsToday: Int
        package var now: Double
    }

    package var status: Status {
        let now = clock()
        let requestsToday = quota.today(now: now)[Self.quotaName] ?? 0
        return book.withLock { book in
            Status(readings: book.known.map { $0?.reading }, askedAt: book.askedAt, lastOutcome: book.lastOutcome, outcomes: book.outcomes,
                   stopped: book.stopped.flatMap { now < $0.until ? $0.reason : nil }, inFlight: book.inFlight.filter { $0 }.count,
                   requestsToday: requestsToday, now: now)
        }
    }

    package var now: Double { clock() }

    /// What the hotspots hold in memory: their shapes, and which of `state`'s areas lie in them.
    package func byteCount(serving state: ServingState) -> Int {
        hotspots.shapes.byteCount + members(of: state).byteCount
    }

    static func nextKoreanMidnight(after time: Double) -> Double {
        let offset = Double(CrowdReading.koreanOffset)
        return ((time + offset) / 86_400).rounded(.down) * 86_400 + 86_400 - offset
    }
}

extension CrowdOutcome {
    /// Its place in `allCases`, for counting.
    package var index: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

/// Which served areas lie inside which hotspot: a bit per area says whether it is in one, and
/// a table names the hotspot of those that are (a few in a hundred), so an answer's areas
/// outside every hotspot cost one bit test each.
package struct CrowdMembers: Sendable {
    private let bits: [UInt64]
    private let hotspotOf: [Int32: UInt16]

    package var count: Int { hotspotOf.count }
    package var byteCount: Int { bits.count * 8 + hotspotOf.capacity * 8 }

    init(index: AreaIndex, hotspots: CrowdHotspots) {
        var bits = [UInt64](repeating: 0, count: (index.areas.count + 63) / 64)
        var hotspotOf: [Int32: UInt16] = [:]
        index.areas.withBuffers { areas in
            for hotspot in 0..<hotspots.count {
                guard let matches = try? index.areas(in: hotspots.boxes[hotspot]) else { continue }
                for match in matches where hotspotOf[Int32(match.position)] == nil {
                    guard hotspots.hotspot(holding: areas.records[match.position].coordinate) == hotspot else { continue }
                    hotspotOf[Int32(match.position)] = UInt16(hotspot)
                    bits[match.position >> 6] |= 1 << UInt64(match.position & 63)
                }
            }
        }
        self.bits = bits
        self.hotspotOf = hotspotOf
    }

    /// The hotspot area `position` lies in, or nil.
    @inline(__always)
    package func hotspot(ofArea position: Int) -> Int? {
        guard position >> 6 < bits.count, bits[position >> 6] & (1 << UInt64(position & 63)) != 0 else { return nil }
        return hotspotOf[Int32(position)].map(Int.init)
    }
}

/// What an answer shows of the crowds: the readings as of the view, and where the areas are.
package struct CrowdView: Sendable {
    /// A hotspot's last reading, and its members but the age as answers write them.
    package struct Known: Sendable {
        package let reading: CrowdReading
        package let written: [UInt8]
    }

    package let watch: CrowdWatch
    package let members: CrowdMembers
    package let known: [Known?]

    /// The reading of the hotspot area `position` lies in.
    @inline(__always)
    package func reading(ofArea position: Int) -> Known? {
        guard let hotspot = members.hotspot(ofArea: position) else { return nil }
        return known[hotspot]
    }

    /// The reading of the hotspot holding `point`.
    package func reading(at point: GeoPoint) -> Known? {
        guard let hotspot = watch.hotspots.hotspot(holding: point) else { return nil }
        return known[hotspot]
    }
}
