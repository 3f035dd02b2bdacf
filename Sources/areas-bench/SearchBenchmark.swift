import AreasControl
import AreasCore
import AreasIngest
import AreasProtocol
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc

/// `areas-bench search`: `search` over the socket of a real areasd serving areas whose names and
/// addresses are shaped as the data's (districts, stations, parks, schools, exits, road and lot
/// addresses), beside `near` (k 10) asked on the same connection in the same run: median and
/// p99 of each, one question at a time. Then the index's bytes per area, and building the
/// whole index with the search index against without it, interleaved.
struct SearchBenchmark {
    var scales = [80_000, 1_000_000]
    var queries = 2_000
    var runs = 3
    /// Only the build, not the daemon's answers.
    var buildOnly = false
    let areasd: String

    init(arguments: inout ArgumentList) throws {
        if let points = try arguments.value("--points") {
            scales = points.split(separator: ",").compactMap { Int($0) }
            guard !scales.isEmpty else { throw UsageError.invalidValue("--points", points) }
        }
        if let value = try arguments.value("--queries") {
            guard let n = Int(value), n > 0 else { throw UsageError.invalidValue("--queries", value) }
            queries = n
        }
        buildOnly = arguments.flag("--build-only")
        areasd = try BuiltBeside.program("areasd", given: try arguments.value("--areasd"))
        _ = try arguments.positionals()
    }

    /// Areas named and addressed as districts publish them: `용산구 서울역 광장 3번출구`,
    /// `강남구 역삼초등학교 정문`, with road and lot addresses in their district.
    static func areas(count: Int, seed: UInt64) -> [Area] {
        var random = SplitMix64(seed: seed)
        let syllables = Array("가나다라마바사아자차카타파하강남북동서신한중용산역삼성수원광명안양부천인천대구울산포항경주청주전주목포여수순천제주해운우정문화평화")
        // A vocabulary of place words of two or three syllables, as many as a city has.
        var words: [String] = []
        for _ in 0..<4_000 {
            let length = Int.random(in: 2...3, using: &random)
            words.append(String((0..<length).map { _ in syllables[Int.random(in: 0..<syllables.count, using: &random)] }))
        }
        let districts = ["종로구", "중구", "용산구", "성동구", "광진구", "동대문구", "마포구", "서초구", "강남구", "송파구", "해운대구", "수영구", "달서구", "수성구",
                         "남동구", "분당구", "수원시 장안구", "전주시 완산구", "청주시 상당구", "제주시"]
        let kinds = ["역 광장", "역", "공원", "어린이공원", "초등학교", "중학교", "어린이집", "주민센터", "버스정류장", "광장", "지하상가", "병원"]
        let details = ["", " 정문", " 후문", " 앞", " 1번출구", " 3번출구", " 5번출구", " 8번출구", " 흡연부스", " 놀이터"]
        let roads = ["로", "길", "대로"]
        let points = SyntheticPoints.clustered(count: count, seed: seed)
        return points.enumerated().map { i, p in
            let district = districts[Int.random(in: 0..<districts.count, using: &random)]
            let word = words[Int.random(in: 0..<words.count, using: &random)]
            let name = "\(district) \(word)\(kinds[Int.random(in: 0..<kinds.count, using: &random)])\(details[Int.random(in: 0..<details.count, using: &random)])"
            let road = "\(words[Int.random(in: 0..<words.count, using: &random)])\(roads[Int.random(in: 0..<roads.count, using: &random)])"
            let town = words[Int.random(in: 0..<words.count, using: &random)] + "동"
            return Area(id: "b:" + String(i, radix: 36), kind: i % 8 == 0 ? .smoking : .nonsmoking, name: name, coordinate: p,
                        roadAddress: "서울특별시 \(district) \(road) \(Int.random(in: 1...400, using: &random))",
                        lotAddress: "서울특별시 \(district) \(town) \(Int.random(in: 1...999, using: &random))-\(Int.random(in: 1...30, using: &random))",
                        province: "서울특별시", district: district, source: "bench")
        }.sorted { $0.id < $1.id }
    }

    /// The questions: whole names, one word of a name, a district and a word, an address's
    /// road and number, a town; half of them with a position.
    static func questions(_ areas: [Area], count: Int, seed: UInt64) -> [Request] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { i in
            let area = areas[Int.random(in: 0..<areas.count, using: &random)]
            let words = area.name.split(separator: " ").map(String.init)
            let q: String
            switch i % 5 {
            case 0: q = area.name
            case 1: q = words[words.count > 2 ? Int.random(in: 1..<words.count, using: &random) : words.count - 1]
            case 2: q = words[0] + " " + String(words[words.count - 1].prefix(3))
            case 3: q = area.roadAddress.split(separator: " ").suffix(2).joined(separator: " ")
            default: q = String(area.lotAddress.split(separator: " ")[2])
            }
            return .search(text: q, point: i % 2 == 0 ? area.coordinate : nil, kind: .all, region: Region(), limit: nil)
        }
    }

    func run() throws {
        var summary: [String: Double] = [:]
        for points in scales {
            let areas = Self.areas(count: points, seed: 47)
            print("== \(points) areas ==")
            try build(areas, points: points, into: &summary)
            if !buildOnly { try serve(areas, points: points, into: &summary) }
        }
        print("summary: " + summary.sorted { $0.key < $1.key }.map { "\($0.key)=\(Measure.format($0.value, 3))" }.joined(separator: " "))
    }

    /// What a refresh does once its sources are decoded, with and without the search index,
    /// interleaved: the index built, then the snapshot written and mapped. (Fetching and
    /// decoding the sources, which come before and take most of a real refresh, are left out,
    /// so the ratio is the most the search index can add.) And the search index's size.
    private func build(_ areas: [Area], points: Int, into summary: inout [String: Double]) throws {
        let catalog = Catalog(areas: areas, fetchedAt: ["bench": Date().timeIntervalSince1970])
        let directory = NSTemporaryDirectory() + "areas-bench-build-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var with: [Double] = [], without: [Double] = [], indexWith: [Double] = [], indexWithout: [Double] = []
        var bytes = 0
        for _ in 0..<runs {
            for searchable in [false, true] {
                let start = MonotonicClock.seconds
                let index = AreaIndex(sortedTable: catalog.table, searchable: searchable)
                let built = MonotonicClock.seconds
                _ = try SnapshotFile.writeMapped(catalog, index: index, to: directory + "/areas.snapshot")
                let seconds = MonotonicClock.seconds - start
                if searchable {
                    with.append(seconds); indexWith.append(built - start); bytes = index.search.byteCount
                } else {
                    without.append(seconds); indexWithout.append(built - start)
                }
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let (a, b) = (median(with), median(without))
        print("  index built and snapshot written with search \(Measure.format(a * 1000, 0)) ms, without \(Measure.format(b * 1000, 0)) ms: \(Measure.format(a / b))x "
              + "(the index alone \(Measure.format(median(indexWith) * 1000, 0)) against \(Measure.format(median(indexWithout) * 1000, 0)) ms; median of \(runs), interleaved); "
              + "search index \(bytes / 1_048_576) MiB, \(bytes / points) bytes an area")
        summary["n\(points)_build_and_write_with_vs_without"] = a / b
        summary["n\(points)_search_bytes_per_area"] = Double(bytes / points)
    }

    /// Search and near over one connection to a real daemon, one question at a time.
    private func serve(_ areas: [Area], points: Int, into summary: inout [String: Double]) throws {
        let directory = NSTemporaryDirectory() + "areas-bench-search-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = try BenchData.writeDaemonFiles(areas: areas, directory: directory)
        let socket = directory + "/areasd.sock"
        let daemon = try Child(areasd, ["--config", config, "--socket", socket, "--log-level", "error"])
        defer { daemon.stop() }
        guard DaemonHarness.waitReady(socket) else { throw UsageError.wrongArguments("areasd did not start on \(config)") }
        let client = try AreasClient(path: socket, timeoutSeconds: 30)
        let searches = Self.questions(areas, count: queries, seed: 4747).map(\.line)
        var random = SplitMix64(seed: 99)
        let nears = (0..<queries).map { _ -> [UInt8] in
            Request.near(point: areas[Int.random(in: 0..<areas.count, using: &random)].coordinate, k: 10, maxMeters: nil, kind: .all,
                         region: Region(), output: .full).line
        }
        // Warm both paths, then alternate them so that both see the same machine.
        for line in searches.prefix(100) + nears.prefix(100) { _ = try client.send(line) }
        var searchTimes: [Double] = [], nearTimes: [Double] = []
        var found = 0, refused = 0
        for (search, near) in zip(searches, nears) {
            var start = MonotonicClock.seconds
            let answer = try client.send(search)
            searchTimes.append(MonotonicClock.seconds - start)
            if answer.starts(with: Array(#"{"ok":true,"count":0"#.utf8)) { } else if answer.starts(with: Array(#"{"ok":true"#.utf8)) { found += 1 } else { refused += 1 }
            start = MonotonicClock.seconds
            _ = try client.send(near)
            nearTimes.append(MonotonicClock.seconds - start)
        }
        let (sm, sp) = (Measure.percentile(searchTimes, 0.5) * 1e6, Measure.percentile(searchTimes, 0.99) * 1e6)
        let (nm, np) = (Measure.percentile(nearTimes, 0.5) * 1e6, Measure.percentile(nearTimes, 0.99) * 1e6)
        print("  search over the socket: median \(Measure.format(sm, 0)) µs, p99 \(Measure.format(sp, 0)) µs (\(found) of \(queries) found something, \(refused) refused); "
              + "near k 10 on the same connection: median \(Measure.format(nm, 0)) µs, p99 \(Measure.format(np, 0)) µs; search/near \(Measure.format(sm / nm))x median, \(Measure.format(sp / np))x p99")
        summary["n\(points)_search_median_us"] = sm
        summary["n\(points)_search_p99_us"] = sp
        summary["n\(points)_search_vs_near_median"] = sm / nm
    }
}
