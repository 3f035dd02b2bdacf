import AreasKit
import Foundation
import Glibc
import Synchronization

/// `areas-bench faults`: the real areasd against an upstream that misbehaves mid-refresh, killed
/// with SIGKILL during refreshes and snapshot writes, and writing its snapshot onto a full disk.
/// Prints one summary line per part and a JSON object last.
struct FaultsBenchmark {
    var kills = 200
    var directory = "/tmp/areas-faults-\(getpid())"

    init(arguments: inout ArgumentList) throws {
        kills = try arguments.value("--kills", as: { Int($0) }) ?? kills
        _ = try arguments.positionals()
    }

    /// The upstream: the recorded XML pages, in two alternating variants so every refresh
    /// changes the data, with a fault switched in by name.
    final class Switches: Sendable {
        let mode = Mutex<String>("good")
        let variant = Atomic<Int>(0)
    }

    final class Upstream: Sendable {
        let switches = Switches()
        func setMode(_ value: String) { switches.mode.withLock { $0 = value } }
        func nextVariant() { switches.variant.add(1, ordering: .relaxed) }
        let server: LoopbackHTTPServer

        init(samples: String) throws {
            let pages = (1...3).map { [UInt8](FileManager.default.contents(atPath: "\(samples)/page-\($0).xml") ?? Data()) }
            let switches = self.switches
            let mode = switches
            let variant = switches
            server = try LoopbackHTTPServer { request in
                let page = Int(request.query["pageNo"] ?? "1") ?? 1
                let current = mode.mode.withLock { $0 }
                guard page >= 1 && page <= 3 else { return .text(200, "<response><header><resultCode>03</resultCode><resultMsg>NODATA_ERROR</resultMsg></header></response>") }
                var body = pages[page - 1]
                if variant.variant.load(ordering: .relaxed) % 2 == 1 {
                    // The second variant renames every zone, so the two data sets share no id.
                    body = Array(String(decoding: body, as: UTF8.self).replacingOccurrences(of: "<prhsmkNm>", with: "<prhsmkNm>B ").utf8)
                }
                switch current {
                case "http500": return .text(500, "Internal Server Error")
                case "hang": return page == 2 ? .hang : .body(status: 200, contentType: "text/xml", body)
                case "truncated": return page == 2 ? .body(status: 200, contentType: "text/xml", Array(body.prefix(body.count / 2))) : .body(status: 200, contentType: "text/xml", body)
                case "html": return .text(200, "<!DOCTYPE html><html><body>서비스 점검 중입니다</body></html>", contentType: "text/html")
                case "key-revoked": return .text(200, "<OpenAPI_ServiceResponse><cmmMsgHeader><errMsg>SERVICE ERROR</errMsg><returnAuthMsg>SERVICE_KEY_IS_NOT_REGISTERED_ERROR</returnAuthMsg><returnReasonCode>30</returnReasonCode></cmmMsgHeader></OpenAPI_ServiceResponse>")
                case "quota": return .text(200, "<response><header><resultCode>22</resultCode><resultMsg>LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR</resultMsg></header></response>")
                case "empty-success": return .text(200, "<response><header><resultCode>00</resultCode><resultMsg>NORMAL_SERVICE</resultMsg></header><body><items></items><totalCount>0</totalCount></body></response>")
                case "shrink":
                    // One page of 10% of the rows, claiming to be all of them.
                    let text = String(decoding: body, as: UTF8.self)
                    let items = text.components(separatedBy: "<item>")
                    let kept = items.prefix(1 + (items.count - 1) / 10).joined(separator: "<item>")
                    return page == 1 ? .text(200, kept + "</items><totalCount>100</totalCount></body></response>", contentType: "text/xml")
                        : .text(200, "<response><header><resultCode>03</resultCode><resultMsg>NODATA_ERROR</resultMsg></header></response>")
                case "dies-between-pages": return page == 1 ? .body(status: 200, contentType: "text/xml", body) : .close
                case "never-finishes": return page == 3 ? .truncated(status: 200, contentType: "text/xml", body, sentBytes: 1000) : .body(status: 200, contentType: "text/xml", body)
                default: return .body(status: 200, contentType: "text/xml", body)
                }
            }
        }
    }

    func run() throws {
        let samples = FileManager.default.currentDirectoryPath + "/samples"
        guard FileManager.default.fileExists(atPath: samples + "/nonsmoking-zones/page-1.xml") else {
            throw UsageError.wrongArguments("run from the package folder (samples/ not found)")
        }
        let binDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        let areasd = binDirectory + "/areasd"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let upstream = try Upstream(samples: samples + "/nonsmoking-zones")
        defer { upstream.server.stop() }

        func config(snapshot: String) throws -> String {
            let path = directory + "/areasd-\(UUID().uuidString.prefix(6)).json"
            let text = """
                {"snapshot":"\(snapshot)","refreshIntervalSeconds":1e9,"maxShrink":0.5,"sources":[
                 {"name":"zones","kind":"nonsmoking","format":"data-go-kr-xml","url":"\(upstream.server.baseURL)/x","timeoutSeconds":1,"retries":1,"retryDelaySeconds":0.05},
                 {"name":"yongsan","kind":"smoking","format":"odcloud-json","pages":"\(samples)/yongsan-smoking",
                  "fields":{"name":"서울특별시 용산구 설치 위치","latitude":"위도","longitude":"경도"}}]}
                """
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        @Sendable func ask(_ socket: String, _ request: String) -> JSONValue? {
            guard let client = try? AreasClient(path: socket), let line = try? client.send(Array(request.utf8)) else { return nil }
            return try? JSONParser.parse(line)
        }
        func ids(_ socket: String, source: String) -> Set<String> {
            guard case .object(let m)? = ask(socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"output":"ids","limit":10000}"#),
                  case .array(let list)? = m.first(where: { $0.0 == "areas" })?.1 else { return [] }
            return Set(list.compactMap { item -> String? in
                guard case .object(let a) = item, case .string(let id)? = a.first(where: { $0.0 == "id" })?.1, id.hasPrefix(source + ":") else { return nil }
                return id
            })
        }
        func waitReady(_ socket: String) -> Bool {
            for _ in 0..<400 {
                if case .object(let m)? = ask(socket, #"{"op":"health"}"#), m.contains(where: { $0.0 == "loaded" && $0.1 == .bool(true) }) { return true }
                usleep(25_000)
            }
            return false
        }

        // Part 1: faults mid-refresh, checked through the socket.
        let snapshot = directory + "/faults.snapshot"
        let socket = directory + "/faults.sock"
        let daemon = try Child(areasd, ["--config", try config(snapshot: snapshot), "--socket", socket, "--log-level", "error"])
        guard waitReady(socket) else { throw UsageError.wrongArguments("areasd did not start") }
        let faults = ["http500", "hang", "truncated", "html", "quota", "empty-success", "shrink", "dies-between-pages", "never-finishes", "key-revoked"]
        var survived = 0
        for fault in faults {
            upstream.setMode("good")
            upstream.nextVariant()
            _ = ask(socket, #"{"op":"refresh","wait":true}"#)
            let before = ids(socket, source: "zones")
            let smokingBefore = ids(socket, source: "yongsan")
            upstream.setMode(fault)
            upstream.nextVariant()
            // Ask questions while the bad refresh runs: the daemon must keep answering.
            final class Probe: Sendable {
                let answering = Atomic<Int>(0)
                let stop = Atomic<Bool>(false)
            }
            let probe = Probe()
            let prober = Thread {
                while !probe.stop.load(ordering: .relaxed) {
                    if ask(socket, #"{"op":"near","lat":37.53,"lon":126.97}"#) != nil { probe.answering.add(1, ordering: .relaxed) }
                    usleep(20_000)
                }
            }
            prober.start()
            let answer = ask(socket, #"{"op":"refresh","wait":true}"#)
            probe.stop.store(true, ordering: .relaxed)
            while !prober.isFinished { usleep(5_000) }
            let after = ids(socket, source: "zones")
            let smokingAfter = ids(socket, source: "yongsan")
            var report = ""
            if case .object(let m)? = answer, case .object(let r)? = m.first(where: { $0.0 == "report" })?.1,
               case .array(let sources)? = r.first(where: { $0.0 == "sources" })?.1,
               case .object(let zones)? = sources.first, case .string(let summary)? = zones.first(where: { $0.0 == "summary" })?.1 {
                report = summary
            }
            let kept = after == before && !before.isEmpty
            let others = smokingAfter == smokingBefore && !smokingAfter.isEmpty
            let named = report.contains("failed") || report.contains("held-back")
            let ok = kept && others && named && probe.answering.load(ordering: .relaxed) > 0
            if ok { survived += 1 }
            print("fault \(fault): \(ok ? "survived" : "LOST DATA") (zones kept \(kept), other source served \(others), \(probe.answering.load(ordering: .relaxed)) answers during the refresh); \(report)")
        }
        daemon.stop()
        print("faults: \(survived)/\(faults.count) survived")

        // Part 2: SIGKILL during refreshes and snapshot writes; the snapshot is always whole.
        upstream.setMode("good")
        let killSnapshot = directory + "/kill.snapshot"
        let killConfig = try config(snapshot: killSnapshot)
        var killSurvived = 0
        var random = SplitMix64(seed: 99)
        var seenSets = Set<Int>()
        for i in 0..<kills {
            let killSocket = directory + "/kill-\(i % 2).sock"
            let child = try Child(areasd, ["--config", killConfig, "--socket", killSocket, "--log-level", "error"])
            upstream.nextVariant()
            if waitReady(killSocket) {
                // Start a refresh, then kill at a random moment within it.
                let client = try? AreasClient(path: killSocket)
                _ = try? client.map { try $0.send(Array(#"{"op":"refresh","wait":false}"#.utf8)) }
                usleep(UInt32.random(in: 0...250_000, using: &random))
            }
            kill(child.pid, SIGKILL)
            child.process.waitUntilExit()
            // The file must load and hold one whole data set: one variant's names, never a mix.
            if let loaded = try? SnapshotFile.load(path: killSnapshot) {
                let names = loaded.catalog.sources["zones"]?.areas.map(\.name) ?? []
                let renamed = names.filter { $0.hasPrefix("B ") }.count
                if renamed == 0 || renamed == names.count {
                    killSurvived += 1
                    seenSets.insert(renamed == 0 ? 0 : 1)
                }
            } else if !FileManager.default.fileExists(atPath: killSnapshot) {
                killSurvived += 1  // killed before the first snapshot was ever written
            }
        }
        print("kills: \(killSurvived)/\(kills) survived (snapshot whole each time; both data sets seen: \(seenSets.count == 2))")

        // Part 3: a full disk during a snapshot write: the old snapshot survives, the error is logged.
        var diskResult = "skipped (needs root to mount a tmpfs)"
        let mountPoint = directory + "/small"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mounted = getuid() == 0 && (try? runTool("/bin/mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", mountPoint])) == 0
        if mounted {
            defer { _ = try? runTool("/bin/umount", [mountPoint]) }
            let fullSnapshot = mountPoint + "/areas.snapshot"
            let fullSocket = directory + "/full.sock"
            let log = directory + "/full.log"
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let child = Process()
            child.executableURL = URL(fileURLWithPath: areasd)
            child.arguments = ["--config", try config(snapshot: fullSnapshot), "--socket", fullSocket]
            child.standardError = FileHandle(forWritingAtPath: log)
            try child.run()
            _ = waitReady(fullSocket)
            let first = try? SnapshotFile.load(path: fullSnapshot)
            // Fill most of what is left, then refresh with changed data.
            let filler = mountPoint + "/filler"
            // Leave room for half a snapshot.
            var fs = statvfs()
            statvfs(mountPoint, &fs)
            let free = Int(fs.f_bavail) * Int(fs.f_frsize)
            let size = (try? FileManager.default.attributesOfItem(atPath: fullSnapshot)[.size] as? Int) ?? 0
            _ = FileManager.default.createFile(atPath: filler, contents: Data(count: max(0, free - size / 2)))
            upstream.nextVariant()
            _ = ask(fullSocket, #"{"op":"refresh","wait":true}"#)
            let second = try? SnapshotFile.load(path: fullSnapshot)
            let stillServing = ask(fullSocket, #"{"op":"health"}"#) != nil
            kill(child.processIdentifier, SIGTERM)
            child.waitUntilExit()
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            let logged = text.contains("cannot write snapshot") && text.contains("No space left on device")
            let intact = first != nil && second?.catalog == first?.catalog
            diskResult = intact && logged && stillServing ? "survived (old snapshot intact, error logged, still serving)" : "FAILED (intact \(intact), logged \(logged), serving \(stillServing))"
        }
        print("disk full: \(diskResult)")
        print("{\"faults_survived\":\(survived),\"faults_tried\":\(faults.count),\"kills_survived\":\(killSurvived),\"kills_tried\":\(kills),\"disk_full\":\"\(diskResult.split(separator: " ").first ?? "")\"}")
    }

    private func runTool(_ path: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
