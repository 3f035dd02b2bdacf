import AreasCore
import AreasIngest
import AreasProtocol
import AreasTestSupport
import Foundation
import Glibc
import Testing
import AreasTestTraits

/// A real areasd on the overlapping samples (`config/areasd.overlap.json`: the national XML
/// zones and Yongsan's odcloud booths, re-published by the district's own file, the city-wide
/// merge and the standard CSV), judged against what `samples/generate.py` planted
/// (`samples/overlap/expected.json`): every planted pair one area, every planted neighbour
/// apart, nothing lost, ids kept, dates right; the same after a restart and on a follower;
/// with merging off, every record its own area.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct MergedSourcesTests {
    /// The daemons this test starts, killed when it ends however it ends.
    private let daemons = StartedDaemons()

    struct Record: Decodable {
        var source: String
        var name: String
        var lat: String
        var lon: String

        func id() throws -> String {
            RecordValidator.id(source: source, name: name, coordinate: try GeoPoint(latitude: try #require(Double(lat)), longitude: try #require(Double(lon))))
        }
    }

    struct Expected: Decodable {
        var pairs: [[Record]]
        var apart: [[Record]]
        var accepted: [String: Int]
        var merged: [String: Int]
        var unreadableDates: [String: Int]
        var referenceDates: [String: [String]]
    }

    static func expected() throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: Data(Fixtures.bytes("samples/overlap/expected.json")))
    }

    /// Records the overlap config's sources accept: the XML zones and Yongsan's booths as the
    /// default samples count them, the rest as planted.
    static func recordCount(_ expected: Expected) -> Int {
        SampleCounts.nonSmokingZones + SampleCounts.yongsan + expected.accepted.values.reduce(0, +)
    }

    static func area(_ socket: String, id: String) throws -> JSONValue {
        let answer = try #require(DaemonQuestions.ask(socket, Request.get(id: id)))
        return try #require(answer["areas"]?.array.first, "get \(id): \(answer)")
    }

    /// The distance between two answered records' positions, on a sphere of the mean radius.
    static func haversine(_ a: JSONValue, _ b: JSONValue) -> Double {
        let (la, lb) = ((a["lat"]?.double ?? 0) * .pi / 180, (b["lat"]?.double ?? 0) * .pi / 180)
        let dLon = ((b["lon"]?.double ?? 0) - (a["lon"]?.double ?? 0)) * .pi / 180
        let h = pow(sin((lb - la) / 2), 2) + cos(la) * cos(lb) * pow(sin(dLon / 2), 2)
        return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
    }

    @Test func everyPlantedPairIsOneAreaAndNothingIsLost() throws {
        let expected = try Self.expected()
        let daemon = try SampleDaemon(bundled: "config/areasd.overlap.json")
        let merged = expected.merged.values.reduce(0, +)
        let stats = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"stats"}"#))
        #expect(stats["areas"]?.double.map(Int.init) == Self.recordCount(expected) - merged, "\(stats)")

        for pair in expected.pairs {
            let (first, second) = (try pair[0].id(), try pair[1].id())
            let area = try Self.area(daemon.socket, id: first)
            // The earliest source's record leads; the later one's id answers with that area.
            #expect(area["id"]?.string == first)
            #expect(try Self.area(daemon.socket, id: second)["id"]?.string == first, "\(pair[1].name) belongs to \(pair[0].name)")
            let records = area["records"]?.array.compactMap { $0["id"]?.string } ?? []
            #expect(records.contains(first) && records.contains(second))
            #expect(area["sources"]?.array.compactMap(\.string).contains(pair[1].source) == true)
            // Why the later record was folded in: its distance from the first (haversine here)
            // within the merge distance, and the name test it passed.
            let all = area["records"]?.array ?? []
            #expect(all.first?["mergeReason"] == nil, "the first record leads")
            if let lead = all.first, let later = all.first(where: { $0["id"]?.string == second }) {
                let reason = try #require(later["mergeReason"], "\(later)")
                let meters = Self.haversine(lead, later)
                #expect(abs((reason["meters"]?.double ?? -1) - meters) < 0.5 && meters <= 15, "\(reason) against \(meters) m")
                #expect(["the same name, white space aside", "the same name once punctuation, letter case and a leading province or district are set aside",
                         "one name contains the other"].contains(reason["names"]?.string ?? ""), "\(reason)")
            }
        }
        for pair in expected.apart {
            #expect(try Self.area(daemon.socket, id: try pair[0].id())["id"] != Self.area(daemon.socket, id: try pair[1].id())["id"],
                    "\(pair[0].name) and \(pair[1].name) are two places")
        }

        // Every record is in exactly one area's records: all areas, each merged one asked for
        // its records.
        let all = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"limit":10000}"#))
        let areas = try #require(all["areas"]?.array)
        var recordIDs: [String] = []
        for area in areas {
            let id = try #require(area["id"]?.string)
            if area["sources"] == nil {
                recordIDs.append(id)
            } else {
                recordIDs += try Self.area(daemon.socket, id: id)["records"]?.array.compactMap { $0["id"]?.string } ?? []
            }
        }
        #expect(recordIDs.count == Self.recordCount(expected))
        #expect(Set(recordIDs).count == recordIDs.count)

        // No place twice: no two served areas of one kind from different sources within 15 m
        // name the same place.
        struct Served { var kind: String, name: String, district: String, source: String, point: GeoPoint }
        let served = try areas.map { a in
            Served(kind: a["kind"]?.string ?? "", name: a["name"]?.string ?? "", district: a["district"]?.string ?? "", source: a["source"]?.string ?? "",
                   point: try GeoPoint(latitude: try #require(a["lat"]?.double), longitude: try #require(a["lon"]?.double)))
        }.sorted { $0.point.latitude < $1.point.latitude }
        for (i, a) in served.enumerated() {
            for b in served[(i + 1)...] {
                if b.point.latitude - a.point.latitude > 0.0002 { break }
                guard a.kind == b.kind, a.source != b.source, Geodesy.distance(a.point, b.point) <= 15 else { continue }
                #expect(!PlaceName.samePlace(PlaceName.key(a.name, province: "서울특별시", district: a.district),
                                             PlaceName.key(b.name, province: "서울특별시", district: b.district)), "\(a.name) served twice: \(b.name)")
            }
        }

        // What each source had folded in, and its dates, as the refresh reports them.
        let report = try #require(stats["lastRefresh"]?["sources"]?.array)
        for source in report {
            let name = try #require(source["name"]?.string)
            #expect(source["merged"]?.double.map(Int.init) == expected.merged[name] ?? 0, "\(name): \(source)")
            #expect(source["unreadableDates"]?.double.map(Int.init) == expected.unreadableDates[name] ?? 0, "\(name)")
        }
        let pair = try #require(expected.pairs.first { $0[1].source == "seoul-citywide" })
        let records = try Self.area(daemon.socket, id: try pair[0].id())["records"]?.array ?? []
        for record in records {
            let source = try #require(record["source"]?.string)
            #expect(record["referenceDate"]?.string == expected.referenceDates[source]?.first, "\(source)")
        }
        daemon.stop()
    }

    /// `sources` over the socket and `GET /v1/sources`: each source's counts and dates as
    /// planted, and each district's areas as the served areas themselves count them.
    @Test func theSourcesReportSaysWhatEachSourceGave() throws {
        let expected = try Self.expected()
        let (daemon, address) = try SampleDaemon.withHTTP(bundled: "config/areasd.overlap.json")
        let answer = try #require(DaemonQuestions.ask(daemon.socket, Request.sources))
        let sources = try #require(answer["sources"]?.array)
        #expect(sources.compactMap { $0["name"]?.string } == ["nonsmoking-zones", "yongsan", "yongsan-district", "seoul-citywide", "seoul-standard"])
        for source in sources {
            let name = try #require(source["name"]?.string)
            let accepted = expected.accepted[name] ?? (name == "yongsan" ? SampleCounts.yongsan : SampleCounts.nonSmokingZones)
            let merged = expected.merged[name] ?? 0
            #expect(source["accepted"]?.double.map(Int.init) == accepted, "\(name)")
            #expect(source["merged"]?.double.map(Int.init) == merged, "\(name)")
            #expect(source["areas"]?.double.map(Int.init) == accepted - merged, "\(name)")
            #expect(source["lastStatus"]?.string == "updated")
            let dates = expected.referenceDates[name]
            #expect(source["referenceDates"]?["oldest"]?.string == dates?.first && source["referenceDates"]?["newest"]?.string == dates?.last, "\(name): \(source)")
        }
        #expect(sources[0]["rows"]?.double == Double(SampleCounts.nonSmokingZoneRows))

        // Each district's counts, against the served areas counted one by one.
        let all = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"limit":10000}"#))
        var counted: [String: (smoking: Int, nonsmoking: Int)] = [:]
        for area in all["areas"]?.array ?? [] {
            let key = (area["district"]?.string ?? "")
            if area["kind"]?.string == "smoking" { counted[key, default: (0, 0)].smoking += 1 } else { counted[key, default: (0, 0)].nonsmoking += 1 }
        }
        let districts = try #require(answer["districts"]?.array)
        let yongsan = try #require(districts.first { $0["district"]?.string == "용산구" })
        #expect(yongsan["smoking"]?.double.map(Int.init) == counted["용산구"]?.smoking)
        #expect(yongsan["nonsmoking"]?.double.map(Int.init) == counted["용산구"]?.nonsmoking)
        #expect(districts.reduce(0) { $0 + Int(($1["smoking"]?.double ?? 0) + ($1["nonsmoking"]?.double ?? 0)) } == all["count"]?.double.map(Int.init))

        // The same dates in stats and in the metrics (midnight UTC of each day).
        let stats = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"stats"}"#))
        #expect(stats["bySource"]?["seoul-citywide"]?["referenceDates"]?["oldest"]?.string == "2024-03-15")
        let metrics = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"metrics"}"#)?["metrics"]?.string)
        let citywide = try #require(ReferenceDate(parsing: "2024-03-15"))
        #expect(metrics.contains(#"areas_source_reference_date_seconds{bound="newest",source="seoul-citywide"} \#(Int(citywide.secondsSince1970))"#), "\(metrics)")

        let http = try HTTPTestClient(address).get("/v1/sources")
        #expect(http.status == 200)
        #expect(try JSONParser.parse(http.body) == answer)
        daemon.stop()
    }

    @Test func aRestartAndAFollowerServeTheMergedAreasAsTheyWere() throws {
        let expected = try Self.expected()
        let daemon = try SampleDaemon(bundled: "config/areasd.overlap.json")
        let questions = [#"{"op":"near","lat":37.5292,"lon":126.9644,"k":12,"kind":"smoking"}"#,
                         #"{"op":"bbox","south":37.5,"west":126.9,"north":37.6,"east":127.1,"limit":10000}"#]
        let before = questions.map { DaemonQuestions.ask(daemon.socket, $0) }
        let merged = try expected.pairs.prefix(20).map { try Self.area(daemon.socket, id: try $0[1].id()) }
        daemon.stop()

        let (process, log) = try daemons.start(["--config", daemon.config, "--socket", daemon.socket])
        #expect(DaemonQuestions.waitUntilLoaded(daemon.socket))
        #expect(questions.map { DaemonQuestions.ask(daemon.socket, $0) } == before)
        #expect(try expected.pairs.prefix(20).map { try Self.area(daemon.socket, id: try $0[1].id()) } == merged)

        // A follower of the leader's file serves the leader's areas as they are.
        let follower = try FollowerTests.Follower(follow: #""file": "\#(daemon.folder)/areas.snapshot""#)
        #expect(DaemonQuestions.waitUntilLoaded(follower.socket))
        #expect(questions.map { DaemonQuestions.ask(follower.socket, $0) } == before)
        #expect(try expected.pairs.prefix(20).map { try Self.area(follower.socket, id: try $0[1].id()) } == merged)
        kill(process.processIdentifier, SIGTERM)
        #expect(process.waitUntilExit(seconds: 20))
        let restartLog = String(decoding: log.readToEnd(), as: UTF8.self)
        #expect(restartLog.contains("(format \(SnapshotFile.version), served in place)"), "\(restartLog)")
    }

    /// The default samples have no overlapping records: merging on (the default) and off
    /// answer them alike, as the build before merging did (but for when each daemon first saw
    /// its areas: `firstSeen`).
    @Test func dataWithoutOverlapsIsServedAsBefore() throws {
        let merging = try SampleDaemon()
        let off = try SampleDaemon(extra: #""merge": {"meters": 0}"#)
        for question in [#"{"op":"near","lat":37.53,"lon":126.97,"k":50}"#, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"limit":10000}"#,
                         #"{"op":"check","lat":37.528916,"lon":126.967984}"#, #"{"op":"get","id":"yongsan:1f91a67d36b1ef67"}"#] {
            let a = try #require(DaemonQuestions.ask(merging.socket, question))
            #expect(a.withoutFirstSeen == DaemonQuestions.ask(off.socket, question)?.withoutFirstSeen, "\(question)")
        }
        #expect(DaemonQuestions.ask(merging.socket, #"{"op":"stats"}"#)?["areas"]?.double == Double(SampleCounts.total))
        merging.stop()
        off.stop()
    }

    @Test func withMergingOffEveryRecordIsItsOwnArea() throws {
        let expected = try Self.expected()
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = try Fixtures.sampleConfig(in: folder, from: "config/areasd.overlap.json")
        let text = try String(contentsOfFile: config, encoding: .utf8)
        #expect(text.contains(#""meters": 15"#))
        try text.replacingOccurrences(of: #""meters": 15"#, with: #""meters": 0"#).write(toFile: config, atomically: true, encoding: .utf8)
        let socket = folder + "/areasd.sock"
        let (process, log) = try daemons.start(["--config", config, "--socket", socket])
        defer {
            kill(process.processIdentifier, SIGTERM)
            _ = process.waitUntilExit(seconds: 20)
            _ = log.readToEnd()
        }
        #expect(DaemonQuestions.waitUntilLoaded(socket))
        let all = try #require(DaemonQuestions.ask(socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"limit":10000}"#))
        let areas = try #require(all["areas"]?.array)
        #expect(areas.count == Self.recordCount(expected))
        #expect(areas.allSatisfy { $0["sources"] == nil })
        for pair in expected.pairs.prefix(30) {
            let id = try pair[1].id()
            let area = try Self.area(socket, id: id)
            #expect(area["id"]?.string == id)
            #expect(area["records"]?.array.count == 1)
        }
    }
}
