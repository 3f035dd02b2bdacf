import AreasCore
import AreasIngest
import AreasServer
import AreasSystem
import AreasTestSupport
import Foundation

/// `areas-bench datasets`: a refresh of N district data sets by id (the portal's document read
/// for each, its newest of three uploads paged) against the same N by their upload's URL, and by
/// id with the columns chosen from the first page (`"fields": "auto"`), alternating in one
/// process against a stand-in portal on loopback; the requests each refresh made. The goal: by
/// id at most 1.1x by URL.
struct DatasetsBenchmark {
    var sets = 25
    var rows = 3_000
    var runs = 3

    init(arguments: inout ArgumentList) throws {
        sets = try arguments.value("--sets", as: { Int($0) }) ?? sets
        rows = try arguments.value("--rows", as: { Int($0) }) ?? rows
        runs = try arguments.value("--runs", as: { Int($0) }) ?? runs
        _ = try arguments.positionals()
    }

    func run() throws {
        guard let result = Daemon.waitFor({ await self.measure() }) else { throw UsageError.wrongArguments("the benchmark did not finish") }
        print(try result.get())
    }

    /// A district's rows as the portal pages them (columns of Yongsan's real upload).
    static func page(set: Int, rows: Int, page: Int, perPage: Int) -> [UInt8] {
        let first = (page - 1) * perPage, last = Swift.min(rows, first + perPage)
        var data: [String] = []
        for r in Swift.max(0, first)..<Swift.max(first, last) {
            let lat = 37.45 + Double((set * 7_919 + r * 104_729) % 20_000) / 100_000
            let lon = 126.85 + Double((set * 6_151 + r * 130_363) % 30_000) / 100_000
            data.append(#"{"자치구명": "구\#(set)", "시설 구분": "철도역", "서울특별시 용산구 설치 위치": "흡연부스 \#(set)-\#(r)", "설치 주체": "구청", "위도": "\#(lat)", "경도": "\#(lon)"}"#)
        }
        return Array(#"{"currentCount": \#(data.count), "data": [\#(data.joined(separator: ","))], "matchCount": \#(rows), "page": \#(page), "perPage": \#(perPage), "totalCount": \#(rows)}"#.utf8)
    }

    /// A data set's document: three uploads, the newest listed second.
    static func document(set: Int) -> [UInt8] {
        let columns = ["자치구명", "시설 구분", "서울특별시 용산구 설치 위치", "설치 주체", "위도", "경도"].map { #""\#($0)": {"type": "string"}"# }.joined(separator: ", ")
        let paths = [("20220301", "a"), ("20250301", "c"), ("20240301", "b")].map { date, tag in
            ##""/\##(set)/v1/uddi:\##(tag)-\##(set)": {"get": {"summary": "구\##(set)_흡연구역_\##(date)", "responses": {"200": {"schema": {"properties": {"data": {"items": {"$ref": "#/definitions/m\##(set)"}}}}}}}}"##
        }.joined(separator: ", ")
        return Array(#"{"swagger": "2.0", "paths": {\#(paths)}, "definitions": {"m\#(set)": {"type": "object", "properties": {\#(columns)}}}}"#.utf8)
    }

    func measure() async -> Result<String, UsageError> {
        let requests = LockedValue(0)
        let rows = self.rows
        let server: LoopbackHTTPServer
        do {
            server = try LoopbackHTTPServer { request in
                requests.withLock { $0 += 1 }
                if request.path == "/oas/docs" {
                    let set = Int((request.query["namespace"] ?? "").split(separator: "/").first ?? "") ?? 0
                    return .body(status: 200, contentType: "application/json", DatasetsBenchmark.document(set: set))
                }
                let parts = request.path.split(separator: "/")
                let set = parts.count > 2 ? Int(parts[1]) ?? 0 : 0
                return .body(status: 200, contentType: "application/json",
                             DatasetsBenchmark.page(set: set, rows: rows, page: Int(request.query["page"] ?? "1") ?? 1, perPage: Int(request.query["perPage"] ?? "1000") ?? 1000))
            }
        } catch {
            return .failure(.wrongArguments("cannot start the stand-in portal: \(error)"))
        }
        defer { server.stop() }
        let fields = #""fields": {"name": "서울특별시 용산구 설치 위치", "latitude": "위도", "longitude": "경도", "district": "자치구명"}"#
        func config(_ source: (Int) -> String) throws -> AreasConfig {
            let sources = (0..<sets).map(source).joined(separator: ",")
            let text = #"{"odcloud": {"oasUrl": "\#(server.baseURL)/oas/docs", "apiUrl": "\#(server.baseURL)/api"}, "sources": [\#(sources)]}"#
            return try AreasConfig.parse(Data(text.utf8), path: "bench.json")
        }
        let configs: [(String, AreasConfig)]
        do {
            func common(_ s: Int) -> String { #""name": "d\#(s)", "kind": "smoking", "format": "odcloud-json", "serviceKeyEnv": "BENCH_KEY", "pageSize": 1000"# }
            configs = [
                ("by URL", try config { #"{\#(common($0)), "url": "\#(server.baseURL)/api/\#($0)/v1/uddi:c-\#($0)", \#(fields)}"# }),
                ("by id", try config { #"{\#(common($0)), "dataset": "\#($0)", \#(fields)}"# }),
                ("by id, fields chosen", try config { #"{\#(common($0)), "dataset": "\#($0)"}"# }),
                ("by id, fields chosen before", try config { #"{\#(common($0)), "dataset": "\#($0)"}"# }),
            ]
        } catch {
            return .failure(.wrongArguments("\(error)"))
        }
        var best = [Double](repeating: .infinity, count: configs.count)
        var made = [Int](repeating: 0, count: configs.count)
        var served = [Int](repeating: 0, count: configs.count)
        var lines = "datasets: \(sets) data sets of \(rows) rows (\((rows + 999) / 1000) pages each), three uploads listed in each document\n"
        for run in 0..<runs {
            for (i, (name, config)) in configs.enumerated() {
                let before = requests.withLock { $0 }
                let start = Measure.clock.now
                let (_, report) = await Refresher(config: config, environment: ["BENCH_KEY": "k"]).refresh(Catalog())
                var milliseconds = (Measure.clock.now - start).milliseconds
                if i == 3 {
                    // The next refresh: the columns chosen before stand while the upload's are the same.
                    let before = requests.withLock { $0 }
                    var again = Refresher(config: config, environment: ["BENCH_KEY": "k"])
                    again.previousRevisions = Dictionary(report.sources.compactMap { r in r.revision.map { (r.name, $0) } }, uniquingKeysWith: { a, _ in a })
                    let next = Measure.clock.now
                    let (_, second) = await again.refresh(Catalog())
                    milliseconds = (Measure.clock.now - next).milliseconds
                    made[i] = requests.withLock { $0 } - before
                    served[i] = second.sources.reduce(0) { $0 + $1.accepted }
                    best[i] = Swift.min(best[i], milliseconds)
                    lines += "  run \(run + 1) \(name): \(Measure.format(milliseconds, 1)) ms, \(made[i]) requests, \(served[i]) areas\n"
                    continue
                }
                best[i] = Swift.min(best[i], milliseconds)
                made[i] = requests.withLock { $0 } - before
                served[i] = report.sources.reduce(0) { $0 + $1.accepted }
                lines += "  run \(run + 1) \(name): \(Measure.format(milliseconds, 1)) ms, \(made[i]) requests, \(served[i]) areas\n"
            }
        }
        for (i, (name, _)) in configs.enumerated() {
            lines += "  best \(name): \(Measure.format(best[i], 1)) ms (\(Measure.format(best[i] / best[0]))x by URL), \(made[i]) requests a refresh, \(served[i]) areas\n"
        }
        lines += Measure.json(["sets": Double(sets), "rows": Double(rows), "url_ms": best[0], "id_ms": best[1], "auto_ms": best[2], "auto_again_ms": best[3],
                               "url_requests": Double(made[0]), "id_requests": Double(made[1]), "auto_requests": Double(made[2]), "auto_again_requests": Double(made[3])])
        return .success(lines)
    }
}
