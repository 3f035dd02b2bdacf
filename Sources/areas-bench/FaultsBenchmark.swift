import AreasControl
import AreasIngest
import AreasProtocol
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc
import Synchronization

/// `areas-bench faults`: the real areasd against an upstream that misbehaves mid-refresh, killed
/// with SIGKILL during refreshes and snapshot writes, and writing its snapshot onto a full disk.
/// Prints one summary line per part and a JSON object last.
struct FaultsBenchmark {
    var kills = 200
    let directory = "/tmp/areas-faults-\(getpid())"

    init(arguments: inout ArgumentList) throws {
        kills = try arguments.value("--kills", as: { Int($0) }) ?? kills
        _ = try arguments.positionals()
    }

    func run() throws {
        let harness = try DaemonHarness(directory: directory)
        defer { harness.close() }
        let upstream = harness.upstream
        let areasd = harness.areasd
        func config(snapshot: String) throws -> String { try harness.config(snapshot: snapshot) }
        let ask: @Sendable (String, String) -> JSONValue? = DaemonHarness.ask
        let askRequest: @Sendable (String, Request) -> JSONValue? = DaemonHarness.ask
        let waitReady = DaemonHarness.waitReady
        func ids(_ socket: String, source: String) -> Set<String> {
            guard case .object(let m)? = ask(socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"output":"ids","limit":10000}"#),
                  case .array(let list)? = m.first(where: { $0.0 == "areas" })?.1 else { return [] }
            return Set(list.compactMap { item -> String? in
                guard case .object(let a) = item, case .string(let id)? = a.first(where: { $0.0 == "id" })?.1, id.hasPrefix(source + ":") else { return nil }
                return id
            })
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
            _ = askRequest(socket, Request.refresh(wait: true, force: false))
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
            let answer = askRequest(socket, Request.refresh(wait: true, force: false))
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
                _ = try? client.map { try $0.send(Request.refresh(wait: false, force: false).line) }
                usleep(UInt32.random(in: 0...250_000, using: &random))
            }
            kill(child.pid, SIGKILL)
            child.process.waitUntilExit()
            // The file must load and hold one whole data set: one variant's names, never a mix.
            if let loaded = try? SnapshotFile.load(path: killSnapshot) {
                let names = loaded.catalog.areas(of: "zones").map(\.name)
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
            _ = askRequest(fullSocket, Request.refresh(wait: true, force: false))
            let second = try? SnapshotFile.load(path: fullSnapshot)
            let stillServing = askRequest(fullSocket, Request.health) != nil
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
