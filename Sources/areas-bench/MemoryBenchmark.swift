import AreasControl
import AreasCore
import AreasIngest
import AreasProtocol
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc

/// `areas-bench memory`: a real areasd that starts with no snapshot and refreshes from a
/// loopback server's paged XML (the nationwide zones API, four fifths of the areas) and JSON
/// (odcloud smoking areas, the rest), beside redis-server holding the same points (GEOADD) in
/// the same run: the daemon's resident memory serving after its first refresh, its peak during
/// that refresh (VmHWM), and the same for a forced second refresh; `stats`' breakdown by part.
struct MemoryBenchmark {
    var scales = [10_000, 100_000, 1_000_000]
    let areasd: String
    let pageSize = 1_000

    init(arguments: inout ArgumentList) throws {
        if let points = try arguments.value("--points") {
            scales = points.split(separator: ",").compactMap { Int($0) }
            guard !scales.isEmpty, scales.allSatisfy({ $0 >= 10 }) else { throw UsageError.invalidValue("--points", points) }
        }
        areasd = try BuiltBeside.program("areasd", given: try arguments.value("--areasd"))
        _ = try arguments.positionals()
    }

    func run() throws {
        let redis = try RedisConnection.program()
        guard let sample = FileManager.default.contents(atPath: "samples/nonsmoking-zones/page-1.xml") else {
            throw UsageError.wrongArguments("run from the package folder: samples/nonsmoking-zones/page-1.xml not found")
        }
        let template = try DataGoKrXMLDecoder().decode([UInt8](sample)).records.filter { row in
            row.contains { $0.key == "latitude" && Double($0.value) != nil }
        }
        var summary: [String: Double] = [:]
        for n in scales {
            let zones = n * 4 / 5
            let xml = IngestBenchmark.pages(zones: zones, pageSize: pageSize, template: template)
            let smoking = Self.jsonPages(count: n - zones, pageSize: pageSize)
            let server = try LoopbackHTTPServer { request in
                if request.path.hasPrefix("/json") {
                    let page = Int(request.query["page"] ?? "1") ?? 1
                    return .body(status: 200, contentType: "application/json", smoking.page(page))
                }
                let page = Int(request.query["pageNo"] ?? "1") ?? 1
                guard page >= 1, page <= xml.count else {
                    return .text(200, "<response><header><resultCode>03</resultCode><resultMsg>NODATA_ERROR</resultMsg></header></response>")
                }
                return .body(status: 200, contentType: "text/xml", xml[page - 1])
            }
            defer { server.stop() }
            let directory = NSTemporaryDirectory() + "areas-bench-memory-\(getpid())-\(n)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let config = directory + "/areasd.json"
            try """
                {"snapshot":"\(directory)/areas.snapshot","refreshIntervalSeconds":1e9,"sources":[
                 {"name":"zones","kind":"nonsmoking","format":"data-go-kr-xml","url":"\(server.baseURL)/xml","pageSize":\(pageSize),"maxPages":\(xml.count + 10)},
                 {"name":"booths","kind":"smoking","format":"odcloud-json","url":"\(server.baseURL)/json","pageSize":\(pageSize),"maxPages":\(smoking.count + 10),
                  "fields":{"name":"설치 위치","latitude":"위도","longitude":"경도"}}]}
                """.write(toFile: config, atomically: true, encoding: .utf8)
            print("== \(n) areas: \(zones) zones in \(xml.count) XML pages, \(n - zones) smoking areas in \(smoking.count) JSON pages ==")
            let socket = directory + "/areasd.sock"
            let started = Measure.clock.now
            let daemon = try Child(areasd, ["--config", config, "--socket", socket, "--log-level", "error"])
            defer { daemon.stop() }
            var together = WorkerSampler(daemon)
            guard DaemonQuestions.waitUntilLoaded(socket, seconds: 900) else { throw UsageError.wrongArguments("areasd did not load its first refresh") }
            let refreshSeconds = (Measure.clock.now - started).milliseconds / 1000
            let firstPeak = daemon.peakResidentBytes
            let firstTogether = together.stop()
            // What the daemon holds once the refresh's work is done and it serves.
            usleep(500_000)
            let serving = daemon.residentBytes, backing = daemon.residentByBacking
            let files = daemon.residentByFile
            let parts = SocketBenchmark.memoryParts(socket: socket)

            let ids = smoking.points.indices.map { "z:\($0)" } + (0..<zones).map { "x:\($0)" }
            let points = zip(ids, smoking.points + SyntheticPoints.clustered(count: zones, seed: 4)).map { (id: $0, coordinate: $1) }
            let (redisServer, _) = try RedisConnection.serving(points, program: redis, directory: directory)
            defer { redisServer.stop() }
            let redisResident = redisServer.residentBytes

            daemon.resetPeakResident()
            together = WorkerSampler(daemon)
            let again = Measure.clock.now
            _ = DaemonQuestions.ask(socket, Request.refresh(wait: true, force: true))
            let secondSeconds = (Measure.clock.now - again).milliseconds / 1000
            let secondPeak = daemon.peakResidentBytes
            let secondTogether = together.stop()
            usleep(500_000)
            let servingAgain = daemon.residentBytes
            // And once questions have read the data: 20,000 near, radius and bbox questions
            // with full answers around the areas, on one connection.
            var random = SplitMix64(seed: 52)
            let client = try AreasClient(path: socket, timeoutSeconds: 30)
            for i in 0..<20_000 {
                let at = points[Int.random(in: 0..<points.count, using: &random)].coordinate
                let line = switch i % 3 {
                case 0: #"{"op":"near","lat":\#(at.latitude),"lon":\#(at.longitude),"k":10}"#
                case 1: #"{"op":"radius","lat":\#(at.latitude),"lon":\#(at.longitude),"meters":300,"limit":50}"#
                default: #"{"op":"bbox","south":\#(at.latitude - 0.002),"west":\#(at.longitude - 0.002),"north":\#(at.latitude + 0.002),"east":\#(at.longitude + 0.002),"limit":50}"#
                }
                _ = try client.send(Array(line.utf8))
            }
            let underQuestions = daemon.residentBytes
            let workersLeft = daemon.children.count
            let filesUnderQuestions = daemon.residentByFile
            // And at rest, as between a city's bursts: no question for a few seconds.
            usleep(2_500_000)
            let atRest = daemon.residentBytes
            let partsUnderQuestions = SocketBenchmark.memoryParts(socket: socket)

            func mib(_ bytes: Int) -> String { Measure.format(Double(bytes) / 1_048_576, 1) }
            func ratio(_ bytes: Int) -> Double { Double(bytes) / Double(max(redisResident, 1)) }
            print("first refresh \(Measure.format(refreshSeconds, 1)) s: serving \(mib(serving)) MiB resident (\(mib(backing.anonymous)) anonymous, \(mib(backing.file)) mapped files), "
                  + "\(Measure.format(ratio(serving)))x redis-server's \(mib(redisResident)) MiB; peak \(mib(firstPeak)) MiB, \(Measure.format(ratio(firstPeak)))x")
            print("second refresh (forced) \(Measure.format(secondSeconds, 1)) s: peak \(mib(secondPeak)) MiB, \(Measure.format(ratio(secondPeak)))x; serving after it \(mib(servingAgain)) MiB, \(Measure.format(ratio(servingAgain)))x")
            print("after 20,000 questions: \(mib(underQuestions)) MiB, \(Measure.format(ratio(underQuestions)))x; at rest 2.5 s later: \(mib(atRest)) MiB, "
                  + "\(Measure.format(ratio(atRest)))x; \(workersLeft) fetch worker(s) running")
            for (which, sampled) in [("first", firstTogether), ("second", secondTogether)] {
                print("\(which) refresh with its fetch worker, sampled every 10 ms: the worker held at most \(mib(sampled.worker)) MiB of its own; "
                      + "daemon and worker together at most \(mib(sampled.together)) MiB, \(Measure.format(ratio(sampled.together)))x")
                summary["n\(n)_\(which)_refresh_peak_with_worker_vs_redis"] = ratio(max(sampled.together, which == "first" ? firstPeak : secondPeak))
                summary["n\(n)_\(which)_refresh_worker_peak_mib"] = Double(sampled.worker) / 1_048_576
            }
            for (when, resident) in [("after the first refresh", files), ("after 20,000 questions", filesUnderQuestions)] {
                print("resident by file \(when): " + resident.prefix(10).map { "\($0.file) \(Measure.format(Double($0.bytes) / 1_048_576, 1))" }.joined(separator: ", ") + " (MiB)")
            }
            print("stats memory: " + parts.sorted { $0.key < $1.key }.map { "\($0.key) \(mib($0.value))" }.joined(separator: ", ") + " (MiB)")
            // The breakdown against the resident size the same answer gives, and the one this
            // process reads of the daemon.
            for (when, memory, measured) in [("serving after the first refresh", parts, serving), ("after 20,000 questions", partsUnderQuestions, underQuestions)] {
                let accounted = memory["accountedBytes", default: 0], resident = memory["residentBytes", default: 0]
                let byPart = memory.filter { $0.key.hasPrefix("residentParts.") }.sorted { $0.value > $1.value }
                    .map { "\($0.key.dropFirst("residentParts.".count)) \(mib($0.value))" }
                print("resident by part, \(when): " + (byPart + ["other files \(mib(memory["otherFileBytes", default: 0]))", "other heap \(mib(memory["heapOtherBytes", default: 0]))",
                      "allocator free space and stacks \(mib(memory["anonymousUnallocatedBytes", default: 0]))"]).joined(separator: ", ")
                      + " (MiB); \(mib(accounted)) MiB accounted for of \(mib(resident)) MiB resident (\(Measure.format(Double(accounted) / Double(max(resident, 1)), 3))), \(mib(measured)) MiB read from /proc")
                summary["n\(n)_accounted_vs_resident_" + (when.hasPrefix("after") ? "questions" : "serving")] = Double(accounted) / Double(max(resident, 1))
            }
            summary["n\(n)_serving_vs_redis"] = ratio(serving)
            summary["n\(n)_first_refresh_peak_vs_redis"] = ratio(firstPeak)
            summary["n\(n)_second_refresh_peak_vs_redis"] = ratio(secondPeak)
            summary["n\(n)_serving_after_second_vs_redis"] = ratio(servingAgain)
            summary["n\(n)_serving_after_questions_vs_redis"] = ratio(underQuestions)
            summary["n\(n)_at_rest_after_questions_vs_redis"] = ratio(atRest)
            summary["n\(n)_redis_resident_mib"] = Double(redisResident) / 1_048_576
        }
        print("summary: " + summary.sorted { $0.key < $1.key }.map { "\($0.key)=\(Measure.format($0.value, 3))" }.joined(separator: " "))
    }

    /// Smoking areas as the odcloud API pages them, in the Yongsan sample's columns.
    struct JSONPages: Sendable {
        let pages: [[UInt8]]
        let points: [GeoPoint]
        var count: Int { pages.count }

        /// Page `number` (from 1); past the last, an empty page, as the API answers.
        func page(_ number: Int) -> [UInt8] {
            number >= 1 && number <= pages.count ? pages[number - 1]
                : Array(#"{"page":\#(number),"perPage":1000,"totalCount":\#(points.count),"currentCount":0,"matchCount":\#(points.count),"data":[]}"#.utf8)
        }
    }

    static func jsonPages(count: Int, pageSize: Int) -> JSONPages {
        let points = SyntheticPoints.clustered(count: count, seed: 9)
        let places = ["서울역 광장", "용산역 광장", "이태원역", "삼각지역", "녹사평역", "한강진역"]
        var pages: [[UInt8]] = []
        for start in stride(from: 0, to: count, by: pageSize) {
            let rows = (start..<min(start + pageSize, count)).map { i in
                #"{"설치 위치":"서울특별시 용산구 \#(places[i % places.count]) \#(i)번 부스","설치 주체":"용산구청","시설 구분":"공원","시설형태":"부스형","자치구명":"용산구","위도":"\#(points[i].latitude)","경도":"\#(points[i].longitude)"}"#
            }
            pages.append(Array(#"{"page":\#(start / pageSize + 1),"perPage":\#(pageSize),"totalCount":\#(count),"currentCount":\#(rows.count),"matchCount":\#(count),"data":[\#(rows.joined(separator: ","))]}"#.utf8))
        }
        return JSONPages(pages: pages, points: points)
    }
}

/// The daemon's fetch worker during a refresh, every 10 ms: the most memory of its own the worker
/// held (its private pages: the libraries' pages it shares with the daemon are counted once, in
/// the daemon), and the daemon's resident memory plus that at the same moment. The daemon's
/// VmHWM alone leaves the worker out; the sum at each sample is a lower bound of the two
/// together.
struct WorkerSampler {
    private let samples: LockedValue<(worker: Int, together: Int, stopped: Bool)>
    private let finished = DispatchSemaphore(value: 0)

    init(_ daemon: Child) {
        let samples = LockedValue((worker: 0, together: 0, stopped: false))
        self.samples = samples
        let pid = daemon.pid, finished = finished
        Thread.detachNewThread {
            while !samples.withLock({ $0.stopped }) {
                let workers = ProcessChildren.of(pid)
                let own = workers.map(Child.privateBytes(of:))
                let worker = own.max() ?? 0
                let together = Child.statusBytes("VmRSS", of: pid) + own.reduce(0, +)
                samples.withLock {
                    $0.worker = max($0.worker, worker)
                    $0.together = max($0.together, together)
                }
                usleep(10_000)
            }
            finished.signal()
        }
    }

    /// Ends the sampling: the worker's peak and the largest sum seen.
    mutating func stop() -> (worker: Int, together: Int) {
        samples.withLock { $0.stopped = true }
        finished.wait()
        return samples.withLock { ($0.worker, $0.together) }
    }
}
