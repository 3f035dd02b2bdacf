import AreasCore
import AreasIngest
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// `dailyRequestLimit`: requests counted per source per Korean day, kept across restarts (a
/// new `Refresher` reads the count file, as a restarted daemon does), and none made past the
/// limit. The oracle is the loopback upstream's own count of requests it received.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct RequestQuotaTests {
    @Test(arguments: [1_796_050_800.0, 1_796_050_799.0, 0.0, 951_782_400.0, 1_709_164_800.0, 4_102_444_800.0])
    func theDayIsKoreasAsFoundationSaysIt(time: Double) throws {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "Asia/Seoul")
        try #require(formatter.timeZone.secondsFromGMT() == 9 * 3600, "no Asia/Seoul zone (Tests/run.sh installs tzdata)")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        #expect(RequestQuota.day(at: time) == formatter.string(from: Date(timeIntervalSince1970: time)))
    }

    @Test func aSourceStopsAtItsLimitAcrossRestartsAndStartsAgainTomorrow() async throws {
        // The counts are per Korean day on the real clock: a run that began just before
        // midnight in Seoul would see them reset midway, so it starts after midnight instead.
        let now = Date().timeIntervalSince1970
        let nextMidnight = (((now + 9 * 3600) / 86_400).rounded(.down) + 1) * 86_400 - 9 * 3600
        if nextMidnight - now < 120 { try await Task.sleep(nanoseconds: UInt64((nextMidnight - now + 1) * 1e9)) }
        let pages = try Fixtures.xmlPages()
        let server = try LoopbackHTTPServer { request in
            let page = Int(request.query["pageNo"] ?? "1") ?? 1
            return pages.indices.contains(page - 1) ? .body(status: 200, contentType: "text/xml", pages[page - 1]) : .text(200, Fixtures.headerError("03", "NODATA_ERROR"))
        }
        defer { server.stop() }
        let folder = Fixtures.temporaryDirectory()
        var source = Fixtures.source(url: server.baseURL + "/openapi/x", pageSize: 1000)
        source.dailyRequestLimit = pages.count + 1
        let config = Fixtures.config([source])

        // The first refresh fits within the limit.
        let first = await Refresher(config: config, snapshotPath: folder + "/areas.snapshot").refresh(Catalog())
        #expect(first.report.sources[0].status == .updated)
        let used = server.requestCount
        #expect(used == pages.count)
        // A restart (a new refresher) remembers the count: the second refresh runs out after
        // one request, and says so.
        let second = await Refresher(config: config, snapshotPath: folder + "/areas.snapshot").refresh(first.catalog)
        let report = second.report.sources[0]
        #expect(server.requestCount == pages.count + 1, "requests past the limit were made")
        #expect(report.status == .failed && report.error?.contains("quota reserved") == true, "\(report.summary)")
        #expect(second.catalog.table.count == first.catalog.table.count, "the old data stays")
        #expect(RequestQuota(path: folder + "/areas.snapshot.requests").today()[source.name] == pages.count + 1)
        // Tomorrow in Korea the count starts again.
        let tomorrow = RequestQuota(path: folder + "/areas.snapshot.requests", now: Date().timeIntervalSince1970 + 86_400)
        #expect(tomorrow.today(now: Date().timeIntervalSince1970 + 86_400).isEmpty)
        // A count kept from yesterday is none today, without a request to roll it over.
        let kept = RequestQuota(path: folder + "/areas.snapshot.requests")
        #expect(kept.today()[source.name] == pages.count + 1)
        #expect(kept.today(now: Date().timeIntervalSince1970 + 86_400).isEmpty)
        #expect(tomorrow.take(source.name, limit: 1, now: Date().timeIntervalSince1970 + 86_400))
    }
}
