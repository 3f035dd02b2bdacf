import Foundation
import Synchronization
import Testing
@testable import AreasCore
@testable import AreasIngest
@testable import AreasSystem
@testable import AreasTestSupport
import AreasTestTraits

/// The fetcher and the refresh against a real HTTP server on loopback that serves the recorded
/// pages, with faults injected per request.
@Suite(.offThePool, .timeLimit(.minutes(5)))
final class FetchTests {
    /// Serves the recorded XML pages by `pageNo`; `fault` may replace any answer.
    final class Upstream {
        final class Log: Sendable {
            let attempts = LockedValue<[Int: Int]>([:])
            let keys = LockedValue<[String]>([])
        }
        let log = Log()
        let server: LoopbackHTTPServer

        init(fault: @escaping @Sendable (_ page: Int, _ attempt: Int) -> LoopbackHTTPServer.Reply? = { _, _ in nil }) throws {
            let log = self.log
            let pages = try Fixtures.xmlPages()
            server = try LoopbackHTTPServer { request in
                let page = Int(request.query["pageNo"] ?? request.query["page"] ?? "1") ?? 1
                let attempt = log.attempts.withLock { counts -> Int in
                    counts[page, default: 0] += 1
                    return counts[page, default: 0]
                }
                if let key = request.query["serviceKey"] { log.keys.withLock { $0.append(key) } }
                if let reply = fault(page, attempt) { return reply }
                let body = pages.indices.contains(page - 1) ? pages[page - 1] : []
                return body.isEmpty ? .text(200, Fixtures.headerError("03", "NODATA_ERROR")) : .body(status: 200, contentType: "text/xml", body)
            }
        }

        var url: String { server.baseURL + "/openapi/tn_pubr_public_prhsmk_zn_api" }
        var keys: [String] { log.keys.withLock { $0 } }
        func attemptsFor(_ page: Int) -> Int { log.attempts.withLock { $0[page] ?? 0 } }
        deinit { server.stop() }
    }

    private func refresh(_ upstream: Upstream, previous: Catalog = Catalog(), force: Bool = false, retries: Int = 3,
                         timeout: Double = 60, env: [String: String] = [:], keyEnv: String? = nil) async -> (Catalog, SourceReport) {
        let source = Fixtures.source(url: upstream.url, keyEnv: keyEnv, timeout: timeout, retries: retries)
        let (catalog, report) = await Refresher(config: Fixtures.config([source]), environment: env).refresh(previous, force: force)
        return (catalog, report.sources[0])
    }

    /// The good data, fetched once from a clean upstream.
    private func goodCatalog() async throws -> Catalog {
        let (catalog, report) = await refresh(try Upstream())
        #expect(report.status == .updated)
        return catalog
    }

    @Test(.tags(.concurrent)) func cleanRefreshTakesEveryPage() async throws {
        let upstream = try Upstream()
        let (catalog, report) = await refresh(upstream)
        #expect(report.status == .updated, Comment(rawValue: report.summary))
        #expect(report.pages == 3)
        #expect(report.received == 2750)
        // Oracle: decode each recorded page directly and validate by hand.
        var expected = Set<String>()
        var rejected = 0
        let validator = RecordValidator(source: Fixtures.source(url: upstream.url), bounds: SyntheticPoints.korea)
        for n in 1...3 {
            for record in try DataGoKrXMLDecoder().decode(Fixtures.xmlPage(n)).records {
                if case .accepted(let area, _) = validator.validate(record) { expected.insert(area.id) } else { rejected += 1 }
            }
        }
        let got = catalog.areas(of: "zones")
        #expect(Set(got.map(\.id)) == expected)
        #expect(got.count == expected.count)
        #expect((report.rejected.values.reduce(0, +)) == rejected)
        #expect(report.duplicates == (2750 - rejected - expected.count))
        #expect(report.repaired > 0)
        #expect(report.added == got.count)
        #expect(([1, 2, 3, 4].map(upstream.attemptsFor)) == ([1, 1, 1, 0]), "stops at the total")

        // A second refresh of the same data changes nothing and keeps every id.
        let (again, second) = await refresh(upstream, previous: catalog)
        #expect((second.added + second.removed + second.changed) == 0)
        #expect((Set(again.areas(of: "zones").map(\.id))) == expected)
    }

    /// Pages are validated in page order as they come, one page held at a time. Page 3 here
    /// repeats page 2's places at other addresses, so which comes first decides which keeps the
    /// plain id: with page 2 answering after page 3, every id is still the one page order gives
    /// (a clean upstream serving the same pages at once), with the same counts.
    @Test func pagesArrivingOutOfOrderAreTakenInPageOrder() async throws {
        let second = try Fixtures.xmlPage(2)
        let moved = Array(String(decoding: second, as: UTF8.self).replacingOccurrences(of: "<rdnmadr>", with: "<rdnmadr>별관 ").utf8)
        let answered = LockedValue<[Int]>([])
        func upstream(slowPage: Int?) throws -> Upstream {
            try Upstream(fault: { page, _ in
                // The slow page is answered only once page 3 has been (10 s at most).
                let deadline = MonotonicClock.seconds + 10
                while page == slowPage, !answered.withLock({ $0.contains(3) }), MonotonicClock.seconds < deadline { usleep(5_000) }
                if page == slowPage { usleep(50_000) }
                answered.withLock { $0.append(page) }
                return page == 3 ? .body(status: 200, contentType: "text/xml", moved) : nil
            })
        }
        let (catalog, report) = await refresh(try upstream(slowPage: 2))
        let order = answered.withLock { $0 }
        #expect((order.firstIndex(of: 3) ?? .max) < (order.firstIndex(of: 2) ?? .max), "page 3 answered first: \(order)")
        let (inOrder, inOrderReport) = await refresh(try upstream(slowPage: nil))
        #expect(report.status == .updated && inOrderReport.status == .updated)
        let areas = catalog.areas(of: "zones")
        let same = areas.elementsEqual(inOrder.areas(of: "zones"))
        #expect(same, "the areas differ from the pages taken in order")
        #expect(report.received == inOrderReport.received && report.duplicates == inOrderReport.duplicates && report.rejected == inOrderReport.rejected)
        // Page 2's rows kept their plain ids; page 3's, at other addresses, took the row-marked ones.
        let plain = Set(try DataGoKrXMLDecoder().decode(second).records.compactMap { record -> String? in
            guard case .accepted(let area, _) = RecordValidator(source: Fixtures.source(url: ""), bounds: SyntheticPoints.korea).validate(record) else { return nil }
            return area.id
        })
        let kept = Dictionary(areas.map { ($0.id, $0.roadAddress) }, uniquingKeysWith: { a, _ in a })
        #expect(!plain.isEmpty && plain.allSatisfy { kept[$0].map { !$0.hasPrefix("별관") } ?? false })
    }

    /// The back-off: the first delay doubled for each try before, times a factor from 0.5 to
    /// 1.5 drawn for each wait; and through a real upstream, no wait shorter than that allows.
    @Test func retriesBackOffDoublingWithJitter() async throws {
        for attempt in 1...5 {
            let nominal = 0.25 * pow(2, Double(attempt - 1))
            #expect(PageFetcher.retryDelay(first: 0.25, attempt: attempt, jitter: 1) == nominal)
            let drawn = (0..<2_000).map { _ in PageFetcher.retryDelay(first: 0.25, attempt: attempt) }
            #expect(drawn.allSatisfy { $0 >= nominal * 0.5 && $0 <= nominal * 1.5 }, "attempt \(attempt)")
            #expect((drawn.min() ?? 0) < nominal * 0.6 && (drawn.max() ?? 0) > nominal * 1.4, "attempt \(attempt): jittered across the range")
        }
        let arrivals = LockedValue<[Double]>([])
        let server = try LoopbackHTTPServer { _ in
            arrivals.withLock { $0.append(MonotonicClock.seconds) }
            return .text(500, "Internal Server Error")
        }
        defer { server.stop() }
        var source = Fixtures.source(url: server.baseURL + "/x", retries: 3)
        source.retryDelaySeconds = 0.2
        let (_, report) = await Refresher(config: Fixtures.config([source])).refresh(Catalog())
        #expect(report.sources[0].status == .failed)
        let times = arrivals.withLock { $0 }
        try #require(times.count == 4, "one try and three retries: \(times.count)")
        for retry in 1...3 {
            let gap = times[retry] - times[retry - 1]
            #expect(gap >= 0.2 * pow(2, Double(retry - 1)) * 0.5 - 0.005, "retry \(retry) came \(gap) s after the try before")
        }
    }

    @Test func serverErrorIsRetriedThenSucceeds() async throws {
        let upstream = try Upstream { page, attempt in page == 2 && attempt == 1 ? .text(500, "Internal Server Error") : nil }
        let (catalog, report) = await refresh(upstream)
        #expect(report.status == .updated, Comment(rawValue: report.summary))
        #expect(report.retries == 1)
        #expect(upstream.attemptsFor(2) == 2)
        let good = try await goodCatalog()
        #expect((catalog.sources["zones"]?.range.count) == (good.sources["zones"]?.range.count))
    }

    @Test func quotaCodeInBothEnvelopesIsRetried() async throws {
        let upstream = try Upstream { page, attempt in
            switch (page, attempt) {
            case (1, 1): return .text(200, Fixtures.gatewayError("22", "LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR"))
            case (3, 1): return .text(200, Fixtures.headerError("22", "LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR"))
            default: return nil
            }
        }
        let (_, report) = await refresh(upstream)
        #expect(report.status == .updated, Comment(rawValue: report.summary))
        #expect(report.retries == 2)
    }

    @Test func faultsThatOutlastRetriesKeepThePreviousData() async throws {
        let previous = try await goodCatalog()
        let faults: [(String, LoopbackHTTPServer.Reply, String)] = [
            ("cut short", .truncated(status: 200, contentType: "text/xml", try Fixtures.xmlPage(2), sentBytes: 300_000), "request failed"),
            ("truncated XML", .body(status: 200, contentType: "text/xml", Array(try Fixtures.xmlPage(2).prefix(300_000))), "malformed page"),
            ("html", .text(200, "<!DOCTYPE html><html><body>점검 중</body></html>", contentType: "text/html"), "malformed page"),
            ("empty body", .text(200, ""), "malformed page: empty body"),
            ("reset", .close, "request failed"),
            ("503", .text(503, "Service Unavailable"), "HTTP 503"),
        ]
        for (name, reply, message) in faults {
            let upstream = try Upstream { page, _ in page == 2 ? reply : nil }
            let (catalog, report) = await refresh(upstream, previous: previous, retries: 2)
            #expect(report.status == .failed, Comment(rawValue: name))
            #expect(upstream.attemptsFor(2) == 3, "\(name): tried, then retried twice")
            #expect(report.error?.contains("page 2") == true && report.error?.contains(message) == true, "\(name): \(report.error ?? "")")
            #expect(catalog == previous, "\(name): the last good data stays")
            #expect(report.serving == previous.areaCount)
        }
    }

    @Test func hungConnectionTimesOut() async throws {
        let previous = try await goodCatalog()
        let upstream = try Upstream { page, _ in page == 3 ? .hang : nil }
        let (catalog, report) = await refresh(upstream, previous: previous, retries: 1, timeout: 0.5)
        #expect(report.status == .failed)
        #expect(report.error?.contains("timed out") == true, Comment(rawValue: report.error ?? ""))
        #expect(catalog == previous)
    }

    @Test func permanentCodesFailAtOnceNamingTheCode() async throws {
        let previous = try await goodCatalog()
        let secret = "abc+def/ghi=="
        let upstream = try Upstream { page, _ in page == 1 ? .text(200, Fixtures.gatewayError("30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")) : nil }
        let (catalog, report) = await refresh(upstream, previous: previous, env: ["AREAS_TEST_KEY": secret], keyEnv: "AREAS_TEST_KEY")
        #expect(report.status == .failed)
        #expect(upstream.attemptsFor(1) == 1, "no retry for a permanent code")
        #expect(report.error?.contains("result code 30 (service key not registered)") == true, Comment(rawValue: report.error ?? ""))
        #expect(!(report.summary.contains(secret) || report.summary.contains("abc")), "the key never appears")
        #expect(catalog == previous)
        // The key arrived intact: encoded once, decoded once by the server.
        #expect(upstream.keys == [secret])
    }

    @Test func missingKeyVariableFailsTheSource() async throws {
        let (_, report) = await refresh(try Upstream(), env: [:], keyEnv: "AREAS_ABSENT_KEY")
        #expect(report.status == .failed)
        #expect(report.error?.contains("AREAS_ABSENT_KEY is not set") == true, Comment(rawValue: report.error ?? ""))
    }

    @Test func odcloudPermanentErrorWithStatus400() async throws {
        let server = try LoopbackHTTPServer { _ in .text(400, #"{"code": -4, "msg": "등록되지 않은 인증키 입니다."}"#, contentType: "application/json") }
        defer { server.stop() }
        let source = Fixtures.source(name: "yongsan", kind: .smoking, format: .odcloudJSON, url: server.baseURL + "/api/15073796/v1/uddi:x",
                                     fields: FieldMapping(name: "설치 위치", latitude: "위도", longitude: "경도"))
        let (_, report) = await Refresher(config: Fixtures.config([source])).refresh(Catalog())
        #expect(report.sources[0].status == .failed)
        #expect(report.sources[0].error?.contains("odcloud code -4 (unregistered service key)") == true, Comment(rawValue: report.sources[0].error ?? ""))
        #expect(server.requestCount == 1)

        let missing = try LoopbackHTTPServer { _ in .text(404, "not found service") }
        defer { missing.stop() }
        var gone = source
        gone.location = .url(missing.baseURL + "/api/nothing")
        let (_, notFound) = await Refresher(config: Fixtures.config([gone])).refresh(Catalog())
        #expect(notFound.sources[0].error?.contains("HTTP 404") == true, Comment(rawValue: notFound.sources[0].error ?? ""))
        #expect(missing.requestCount == 1)
    }

    @Test func emptySuccessAndShrinkAreHeldBackUnlessForced() async throws {
        let previous = try await goodCatalog()
        let empty = try Upstream { _, _ in .text(200, "<response><header><resultCode>00</resultCode><resultMsg>NORMAL_SERVICE</resultMsg></header><body><items></items><totalCount>0</totalCount></body></response>") }
        let (kept, report) = await refresh(empty, previous: previous)
        #expect(report.status == .heldBack)
        #expect(kept == previous)
        let (forced, forcedReport) = await refresh(empty, previous: previous, force: true)
        #expect(forcedReport.status == .updated)
        #expect(forced.areaCount == 0)

        // Only the last page: about a quarter of the data, a shrink beyond 50%.
        let lastPage = try Fixtures.xmlPage(3)
        let shrunk = try Upstream { page, _ in
            page == 1 ? .body(status: 200, contentType: "text/xml", lastPage) : .text(200, Fixtures.headerError("03", "NODATA_ERROR"))
        }
        let (stillKept, shrinkReport) = await refresh(shrunk, previous: previous)
        #expect(shrinkReport.status == .heldBack)
        #expect(shrinkReport.error?.contains("shrank") == true)
        #expect(stillKept == previous)
    }

    @Test func overlappingPagesAndALyingTotal() async throws {
        // Every page repeats the first page's last 100 rows; the total claims a billion rows.
        let pages = try Fixtures.xmlPages()
        let page1 = try DataGoKrXMLDecoder().decode(pages[0])
        let server = try LoopbackHTTPServer { request in
            let page = Int(request.query["pageNo"] ?? "1") ?? 1
            guard page <= 3 else { return .text(200, Fixtures.headerError("03", "NODATA_ERROR")) }
            var text = String(decoding: pages[page - 1], as: UTF8.self)
            text = text.replacingOccurrences(of: "<totalCount>2750</totalCount>", with: "<totalCount>1000000000</totalCount>")
            if page > 1 {
                let repeated = page1.records.suffix(100).map { "<item>" + $0.map { "<\($0.key)>\($0.value)</\($0.key)>" }.joined() + "</item>" }.joined()
                text = text.replacingOccurrences(of: "<items>", with: "<items>" + repeated)
            }
            return .text(200, text, contentType: "text/xml")
        }
        defer { server.stop() }
        let source = Fixtures.source(url: server.baseURL + "/x", maxPages: 10)
        let (catalog, report) = await Refresher(config: Fixtures.config([source])).refresh(Catalog())
        let clean = try await goodCatalog()
        #expect(report.sources[0].status == .updated, Comment(rawValue: report.sources[0].summary))
        #expect(report.sources[0].pages == 3, "stops at the first empty page")
        #expect((Set(catalog.areas(of: "zones").map(\.id))) == (Set(clean.areas(of: "zones").map(\.id))))
    }

    /// An upstream whose every page has rows, under a total of 50 pages: maxPages stops it.
    @Test func maxPagesBoundsTheRequests() async throws {
        let page = String(decoding: try Fixtures.xmlPage(1), as: UTF8.self)
            .replacingOccurrences(of: "<totalCount>2750</totalCount>", with: "<totalCount>50000</totalCount>")
        let server = try LoopbackHTTPServer { _ in .text(200, page, contentType: "text/xml") }
        defer { server.stop() }
        let source = Fixtures.source(url: server.baseURL + "/x", maxPages: 6)
        let (_, report) = await Refresher(config: Fixtures.config([source])).refresh(Catalog())
        #expect(report.sources[0].pages == 6)
        #expect(server.requestCount == 6)
    }

    @Test func recordedPagesNeedNoNetwork() async throws {
        let config = try AreasConfig.load(path: Fixtures.samplesConfig)
        // Nothing in the sample config names a host: every source reads recorded pages or a
        // file, and the geocoder answers from its recording.
        for source in config.sources {
            if case .url(let url) = source.location { Issue.record("\(source.name) fetches \(url)") }
        }
        if let geocoder = config.geocoder { #expect(geocoder.recordedAnswers != nil, "the geocoder would ask \(geocoder.url)") }
        let (catalog, report) = await Refresher(config: config, snapshotPath: Fixtures.temporaryDirectory() + "/areas.snapshot").refresh(Catalog())
        #expect(report.succeeded, Comment(rawValue: report.sources.map(\.summary).joined(separator: "\n")))
        #expect(Set(catalog.sources.keys) == Set(SampleCounts.sourceNames))
        #expect((catalog.sources["yongsan"]?.range.count) == SampleCounts.yongsan)
        let anyang = report.sources.first { $0.name == "anyang" }
        #expect((anyang?.duplicates) == 10, "two overlapping pages of 5 rows")
        #expect((anyang?.rejected["missing coordinates"]) == 1)
        #expect((catalog.sources["anyang"]?.range.count) == SampleCounts.anyang)
    }
}
