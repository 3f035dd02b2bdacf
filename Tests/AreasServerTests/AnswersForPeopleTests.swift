import AreasCore
import AreasProtocol
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// What the daemon says where an answer could mislead: a point outside the data's bounds, a
/// region the data lacks (over the socket and HTTP alike), standing on a smoking area, a
/// refresh that changed nothing. Through a real daemon on the samples.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct AnswersForPeopleTests {
    @Test func aPointOutsideTheBoundsIsSaidNotAnsweredFromAfar() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        for request in [#"{"op":"near","lat":0,"lon":0}"#, #"{"op":"radius","lat":35.68,"lon":139.77,"meters":500}"#,
                        #"{"op":"check","lat":0,"lon":0}"#, #"{"op":"along","path":[[0,0],[1,1]],"meters":50}"#] {
            let answer = try #require(DaemonQuestions.ask(daemon.socket, request))
            #expect(answer["error"]?["code"]?.string == "bad_request", "\(answer)")
            #expect(answer["error"]?["message"]?.string?.contains("lies outside the data's bounds (latitude 33 to 39, longitude 124 to 132)") == true, "\(answer)")
        }
        let response = try HTTPTestClient(address).get("/v1/near?lat=0&lon=0")
        #expect(response.status == 400)
        #expect(response.text.contains("outside the data's bounds"))
        // A route that enters the bounds is answered.
        #expect(DaemonQuestions.ask(daemon.socket, #"{"op":"along","path":[[33.0,123.0],[37.55,126.97]],"meters":50}"#)?["ok"]?.bool == true)
    }

    @Test func aRegionTheDataLacksIsNamedOverHTTP() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        for (query, note) in [("province=서울툭별시", "the data has no province '서울툭별시' (did you mean 서울특별시?); it has: "),
                              ("district=용상구", "the data has no district '용상구' (did you mean 용산구?); it has: ")] {
            let target = "/v1/near?lat=37.53&lon=126.97&" + (query.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? query)
            let body = try JSONParser.parse(try HTTPTestClient(address).get(target).body)
            #expect(body["count"]?.double == 0)
            #expect(body["note"]?.string?.hasPrefix(note) == true, "\(body)")
            #expect(body["note"]?.string?.contains(", ,") == false, "no empty names")
            #expect(body["unknownRegion"]?.bool == true, "\(body)")
        }
        // A name that plainly stands for one the data has is answered, and says how it was read.
        for typed in ["용산", "Yongsan"] {
            let target = "/v1/near?lat=37.53&lon=126.97&k=5&output=ids&district=" + (typed.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? typed)
            let body = try JSONParser.parse(try HTTPTestClient(address).get(target).body)
            let named = try JSONParser.parse(try HTTPTestClient(address).get("/v1/near?lat=37.53&lon=126.97&k=5&output=ids&district=%EC%9A%A9%EC%82%B0%EA%B5%AC").body)
            #expect(body["count"]?.double == 5 && body["areas"] == named["areas"], "\(body)")
            #expect(body["note"]?.string == "district '\(typed)' read as 용산구" && body["unknownRegion"] == nil, "\(body)")
        }
    }

    /// `sources` adds up (every row read is accepted, a repeat or rejected) and lists the
    /// sources in the order `stats` does, the config's.
    @Test func sourcesAddUpAndComeInTheConfigsOrder() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        let sources = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"sources"}"#)?["sources"]?.array)
        var repeats = 0
        for source in sources {
            let rows = try #require(source["rows"]?.double), accepted = try #require(source["accepted"]?.double)
            let duplicates = try #require(source["duplicates"]?.double)
            guard case .object(let reasons)? = source["rejected"] else { Issue.record("no rejected counts: \(source)"); continue }
            let rejected = reasons.compactMap(\.1.double).reduce(0, +)
            #expect(rows == accepted + duplicates + rejected, "\(source)")
            repeats += Int(duplicates)
        }
        #expect(repeats > 0, "the samples repeat rows")
        let order = sources.compactMap { $0["name"]?.string }
        #expect(order == SampleCounts.sourceNames)
        let stats = try Binaries.run("areasctl", ["--socket", daemon.socket, "stats"], environment: ["COLUMNS": "200"]).stdout
        let listed = order.compactMap { name in stats.range(of: "\n" + name + " ").map { stats.distance(from: stats.startIndex, to: $0.lowerBound) } }
        #expect(listed.count == order.count && listed == listed.sorted(), "stats lists the sources in the config's order:\n\(stats)")
        let table = try Binaries.run("areasctl", ["--socket", daemon.socket, "sources"], environment: ["COLUMNS": "200"]).stdout
        #expect(table.hasPrefix("SOURCE") && table.split(separator: "\n").first?.contains("DUPLICATES") == true, "\(table)")
        // The districts' counts say what they count by (the map's shading counts by position).
        #expect(table.contains("by the district each record states (stating none: the one its position lies in):\nPROVINCE"), "\(table)")
    }

    @Test func aRomanisedProvinceNameFindsItsAreas() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        let socket = daemon.socket
        let roman = try #require(DaemonQuestions.ask(socket, #"{"op":"near","lat":37.53,"lon":126.97,"k":5,"province":"Seoul","output":"ids"}"#))
        let hangul = try #require(DaemonQuestions.ask(socket, #"{"op":"near","lat":37.53,"lon":126.97,"k":5,"province":"서울특별시","output":"ids"}"#))
        #expect(roman["count"]?.double == 5)
        #expect(roman["areas"] == hangul["areas"])
        #expect(roman["note"] == nil)
    }

    /// On a smoking area's own position: no direction, which would mean nothing.
    @Test func standingOnASmokingAreaIsHere() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        let socket = daemon.socket
        let booth = try #require(DaemonQuestions.ask(socket, #"{"op":"near","lat":37.53,"lon":126.97,"k":1,"kind":"smoking"}"#)?["areas"]?.array.first)
        let lat = try #require(booth["lat"]?.double), lon = try #require(booth["lon"]?.double), name = try #require(booth["name"]?.string)
        let check = try #require(DaemonQuestions.ask(socket, #"{"op":"check","lat":\#(lat),"lon":\#(lon)}"#))
        #expect(check["summary"]?.string?.hasSuffix("Nearest smoking area: here, \(name).") == true, "\(check)")
        let nearest = try #require(check["nearestSmoking"])
        #expect(nearest["distanceMeters"]?.double == 0)
        #expect(nearest["bearingDegrees"] == .null && nearest["direction"] == .null, "\(nearest)")
        // areasctl's last line gives the distance alone.
        let run = try Binaries.run("areasctl", ["--socket", socket, "check", "\(lat)", "\(lon)"])
        let last = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("nearest smoking area: 0 m  "), "\(run.stdout)")
    }

    /// A source fetched again with the same areas is "unchanged" in the JSON as in the summary.
    @Test func anUnchangedSourceSaysSoInTheReport() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        let socket = daemon.socket
        // The first joins the start's refresh if it is still finishing (its data already
        // served); the second is a refresh of its own, of sources fetched a moment ago.
        _ = DaemonQuestions.ask(socket, #"{"op":"refresh","wait":true}"#)
        let report = try #require(DaemonQuestions.ask(socket, #"{"op":"refresh","wait":true}"#)?["report"])
        for source in report["sources"]?.array ?? [] {
            let summary = source["summary"]?.string ?? ""
            #expect(source["status"]?.string == (summary.contains(": unchanged") ? "unchanged" : "updated"), "\(summary)")
        }
        #expect(report["sources"]?.array.contains { $0["status"]?.string == "unchanged" } == true)
        #expect(report["succeeded"]?.bool == true)
    }
}
