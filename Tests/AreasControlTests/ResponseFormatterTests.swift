import AreasControl
import AreasProtocol
import Foundation
import Testing
import AreasTestTraits

/// What areasctl prints for the daemon's answers, and its exit status.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ResponseFormatterTests {
    private func render(_ answer: String, _ arguments: [String]) throws -> ResponseFormatter.Output {
        ResponseFormatter.render(Array(answer.utf8), for: try ControlCommand.parse(arguments))
    }

    static let nearAnswer = #"{"ok":true,"count":2,"truncated":false,"areas":[{"id":"yongsan:027a36e0cd0ad58b","kind":"smoking","name":"서울역 광장","lat":37.5546,"lon":126.9706,"distanceMeters":95.2,"address":"서울특별시 용산구 한강대로 405","district":"용산구","source":"yongsan"},{"id":"zones:8b5a1dc2e906d715","kind":"nonsmoking","name":"어린이공원","lat":37.5289,"lon":126.968,"distanceMeters":1215,"address":"서울특별시 용산구 문화로 274","district":"용산구","source":"zones"}]}"#

    @Test func nearPrintsOneAlignedRowPerAreaNearestFirst() throws {
        let output = try render(Self.nearAnswer, ["near", "37.55", "126.97"])
        let lines = output.stdout.split(separator: "\n")
        try #require(lines.count == 3)
        #expect(lines[0].hasPrefix("DISTANCE  KIND"))
        #expect(lines[1].hasPrefix("    95 m  smoking     서울역 광장"))
        #expect(lines[1].hasSuffix("yongsan:027a36e0cd0ad58b"))
        #expect(lines[2].hasPrefix("  1.2 km  nonsmoking  어린이공원"))
        // Hangul counts two columns: the ids line up under ID.
        let idColumn = { (line: Substring) in ResponseFormatter.displayWidth(String(line.prefix(while: { $0 != "y" && $0 != "z" }))) }
        #expect(idColumn(lines[1]) == idColumn(lines[2]))
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty)
    }

    @Test func geoJSONPutsLongitudeFirst() throws {
        let output = try render(Self.nearAnswer, ["near", "37.55", "126.97", "--geojson"])
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(collection["type"] as? String == "FeatureCollection")
        let features = try #require(collection["features"] as? [[String: Any]])
        let coordinates = features.compactMap { ($0["geometry"] as? [String: Any])?["coordinates"] as? [Double] }
        #expect(coordinates == [[126.9706, 37.5546], [126.968, 37.5289]])
        #expect(features.compactMap { ($0["properties"] as? [String: Any])?["id"] as? String } == ["yongsan:027a36e0cd0ad58b", "zones:8b5a1dc2e906d715"])
    }

    @Test func jsonPrintsTheAnswerAsIs() throws {
        let output = try render(Self.nearAnswer, ["near", "37.55", "126.97", "--json"])
        #expect(output.stdout == Self.nearAnswer + "\n")
    }

    @Test func anErrorGoesToStandardErrorWithStatusOne() throws {
        let output = try render(#"{"ok":false,"error":{"code":"not_found","message":"no area with id 'x:1'"}}"#, ["get", "x:1"])
        #expect(output.stdout.isEmpty)
        #expect(output.stderr == "areasctl: not_found: no area with id 'x:1'\n")
        #expect(output.status == 1)
    }

    @Test func truncationIsSaid() throws {
        let answer = #"{"ok":true,"count":1,"truncated":true,"areas":[{"id":"a:1","kind":"smoking","name":"n","lat":37,"lon":127,"address":"","district":"","source":"a"}]}"#
        let output = try render(answer, ["bbox", "36", "126", "38", "128", "--limit", "1"])
        // A note on stderr: what is printed stays the answer alone, for scripts.
        #expect(output.stderr == "note: more areas matched than the 1 shown; narrow the query or raise --limit\n")
        #expect(!output.stdout.contains("more areas"))
    }

    static let twoAreas = #"{"ok":true,"count":2,"truncated":false,"areas":[{"id":"a:1","kind":"smoking","name":"역\t광장","lat":37.5,"lon":127.25,"distanceMeters":12.5,"address":"서울 1","district":"","source":"a"},{"id":"a:2","kind":"nonsmoking","name":"공원","lat":37.6,"lon":127,"distanceMeters":300,"address":"","district":"","source":"a"}]}"#

    @Test func tsvIsHeaderlessWithOneAreaALine() throws {
        let full = try render(Self.twoAreas, ["near", "37.5", "127", "--format", "tsv"])
        #expect(full.stdout == "a:1\t12.5\tsmoking\t37.5\t127.25\t역 광장\t서울 1\na:2\t300.0\tnonsmoking\t37.6\t127\t공원\t\n")
        let ids = try render(#"{"ok":true,"count":1,"truncated":false,"areas":[{"id":"a:1","distanceMeters":12.5}]}"#, ["near", "37.5", "127", "--output", "ids", "--format", "tsv"])
        #expect(ids.stdout == "a:1\t12.5\n")
    }

    @Test func ndjsonIsEachAreaAsTheDaemonSentIt() throws {
        let output = try render(Self.twoAreas, ["near", "37.5", "127", "--format", "ndjson"])
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let answer = try JSONParser.parse(Array(Self.twoAreas.utf8))
        for (line, area) in zip(lines, answer["areas"]?.array ?? []) {
            #expect(try JSONParser.parse(Array(line.utf8)) == area)
        }
    }

    @Test func idsTablesShowOnlyDistanceAndID() throws {
        let output = try render(#"{"ok":true,"count":1,"truncated":false,"areas":[{"id":"a:1","distanceMeters":12.5}]}"#, ["near", "37.5", "127", "--output", "ids"])
        #expect(output.stdout.split(separator: "\n").first?.split(separator: " ", omittingEmptySubsequences: true) == ["DISTANCE", "ID"])
    }

    /// The line and the exit status for each state; `--json` exits the same way.
    @Test(arguments: [
        (#"{"ok":true,"loaded":true,"areas":2853,"dataAgeSeconds":300,"stale":false,"refreshing":false,"lastRefreshSucceeded":true,"healthy":true,"problem":null}"#, "ok: 2853 areas loaded (data 5 min old)\n", "", Int32(0)),
        (#"{"ok":true,"loaded":false,"areas":0,"dataAgeSeconds":null,"stale":true,"refreshing":true,"lastRefreshSucceeded":null,"healthy":false,"problem":"no data loaded yet"}"#, "", "unhealthy: no data loaded yet, refreshing now\n", Int32(1)),
        (#"{"ok":true,"loaded":true,"areas":10,"dataAgeSeconds":300000,"stale":true,"refreshing":false,"lastRefreshSucceeded":false,"healthy":false,"problem":"the data is 3.5 d old, more than twice the refresh interval (1 d)"}"#, "", "unhealthy: the data is 3.5 d old, more than twice the refresh interval (1 d)\n", Int32(1)),
        (#"{"ok":true,"loaded":true,"areas":10,"dataAgeSeconds":30,"stale":false,"refreshing":false,"lastRefreshSucceeded":false,"healthy":false,"problem":"the last refresh did not take every source: zones (failed)"}"#, "", "unhealthy: the last refresh did not take every source: zones (failed)\n", Int32(1)),
    ])
    func healthLineAndStatus(answer: String, out: String, err: String, status: Int32) throws {
        let output = try render(answer, ["health"])
        #expect(output.stdout == out)
        #expect(output.stderr == err)
        #expect(output.status == status)
        #expect(try render(answer, ["health", "--json"]).status == status)
    }

    @Test func refreshPrintsFailuresOnStandardErrorAndExitsOne() throws {
        let answer = #"{"ok":true,"refreshed":true,"report":{"succeeded":false,"sources":[{"name":"a","status":"updated","summary":"a: updated"},{"name":"b","status":"failed","summary":"b: failed, still serving 10 areas"}]}}"#
        let loud = try render(answer, ["refresh"])
        #expect(loud.stdout == "a: updated\n")
        #expect(loud.stderr == "b: failed, still serving 10 areas\n")
        #expect(loud.status == 1)
        let quiet = try render(answer, ["refresh", "--quiet"])
        #expect(quiet.stdout.isEmpty)
        #expect(quiet.stderr == "b: failed, still serving 10 areas\n")
    }

    @Test func anUnreadableAnswerIsSaidSo() throws {
        let output = try render("<html>", ["stats"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("unreadable answer"))
    }
}

/// `stats` for people: the day's upstream requests appear when some were made.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct StatsRequestsTodayTests {
    static func stats(_ requests: Int, geocoder: Int) -> String {
        #"{"ok":true,"version":"0.5.0","areas":3,"byKind":{"smoking":1,"nonsmoking":2},"bySource":{"zones":{"areas":3,"fetchedAt":1796090000,"ageSeconds":60,"lastAttemptAt":1796090000,"lastSuccessAt":1796090000,"lastStatus":"updated","lastError":null,"requestsToday":\#(requests)}},"geocoderRequestsToday":\#(geocoder),"snapshot":{"path":"/x","bytes":10,"ageSeconds":60},"uptimeSeconds":5,"queriesServed":0,"refreshing":false,"lastRefresh":null}"#
    }

    @Test(arguments: [(0, 0), (84, 0), (84, 12)])
    func requestsTodayShowWhenMade(requests: Int, geocoder: Int) throws {
        let output = ResponseFormatter.render(Array(Self.stats(requests, geocoder: geocoder).utf8), for: try ControlCommand.parse(["stats"]), width: nil, now: 1796090060)
        let table = output.stdout.split(separator: "\n")
        let header = try #require(table.first { $0.hasPrefix("SOURCE") })
        let row = try #require(table.first { $0.hasPrefix("zones") })
        #expect(header.contains("REQUESTS TODAY") == (requests > 0))
        if requests > 0 { #expect(row.contains(" \(requests) ")) }
        #expect(output.stdout.contains("geocoder: \(geocoder) requests today") == (geocoder > 0))
    }
}
