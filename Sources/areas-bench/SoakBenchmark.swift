import AreasCore
import AreasProtocol
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc
import Synchronization

/// `areas-bench soak [--seconds 600]`: mixed load from many connections for a long time, a
/// refresh every 10 s, and a misbehaving client every second (a slow reader, half a line,
/// garbage, a client that hangs up mid-answer). Prints resident memory and open descriptors
/// over time; any failed query fails the run.
struct SoakBenchmark {
    var seconds = 600.0
    var connections = 16

    init(arguments: inout ArgumentList) throws {
        seconds = try arguments.value("--seconds", as: { Double($0) }) ?? seconds
        connections = try arguments.value("--connections", as: { Int($0) }) ?? connections
        _ = try arguments.positionals()
    }

    final class Flags: Sendable {
        let stop = Atomic<Bool>(false)
        let refreshes = Atomic<Int>(0)
        let misbehaved = Atomic<Int>(0)
    }

    func run() throws {
        let harness = try DaemonHarness(directory: "/tmp/areas-soak-\(getpid())")
        defer { harness.close() }
        let socket = harness.directory + "/soak.sock"
        let daemon = try Child(harness.areasd, ["--config", try harness.config(snapshot: harness.directory + "/soak.snapshot"),
                                                "--socket", socket, "--log-level", "error"])
        guard DaemonHarness.waitReady(socket) else { throw UsageError.wrongArguments("areasd did not start") }
        let flags = Flags()
        let upstream = harness.upstream

        // Questions near the data the daemon serves.
        var random = SplitMix64(seed: 5)
        let seoul = try GeoBox(south: 37.45, west: 126.85, north: 37.65, east: 127.1)
        let centers = (0..<2000).map { _ in SyntheticPoints.point(in: seoul, using: &random) }
        let queries: [BenchQuery] = centers.enumerated().map { i, p in
            switch i % 4 {
            case 0: return .near(p, k: 10, redisRadius: 0)
            case 1: return .radius(p, meters: 1000)
            case 2: return .bbox(p, widthMeters: 3000, heightMeters: 3000)
            default: return .near(p, k: 1, redisRadius: 0)
            }
        }

        let refresher = Thread {
            while !flags.stop.load(ordering: .relaxed) {
                for _ in 0..<100 where !flags.stop.load(ordering: .relaxed) { usleep(100_000) }
                upstream.nextVariant()
                if DaemonHarness.ask(socket, Request.refresh(wait: true, force: false)) != nil { flags.refreshes.add(1, ordering: .relaxed) }
            }
        }
        refresher.start()
        let misbehaver = Thread {
            var round = 0
            while !flags.stop.load(ordering: .relaxed) {
                usleep(1_000_000)
                guard let fd = try? Sockets.connectUnix(path: socket) else { continue }
                switch round % 4 {
                case 0:  // slow reader: many requests, reads a little, hangs up
                    try? fd.writeAll(Array(String(repeating: #"{"op":"radius","lat":37.53,"lon":126.97,"meters":5000}"# + "\n", count: 500).utf8))
                    var byte: UInt8 = 0
                    for _ in 0..<10 { _ = read(fd.rawValue, &byte, 1); usleep(20_000) }
                case 1:  // half a line, then silence
                    try? fd.writeAll(Array(#"{"op":"near","lat":37.5"#.utf8))
                    usleep(300_000)
                case 2:  // garbage
                    var junk = [UInt8](repeating: 0, count: 4096)
                    for i in junk.indices { junk[i] = UInt8.random(in: 0...255) }
                    junk.append(10)
                    try? fd.writeAll(junk)
                default:  // hangs up mid-answer
                    try? fd.writeAll(Array(#"{"op":"bbox","south":33,"west":124,"north":39,"east":132}"#.utf8) + [10])
                }
                fd.close()
                flags.misbehaved.add(1, ordering: .relaxed)
                round += 1
            }
        }
        misbehaver.start()

        final class Samples: Sendable { let rows = LockedValue<[(Double, Int, Int)]>([]) }
        let samples = Samples()
        let pid = daemon.pid
        let sampler = Thread {
            let start = Date()
            while !flags.stop.load(ordering: .relaxed) {
                let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
                let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
                let rss = Int(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }?.split(separator: " ").dropFirst().first ?? "") ?? 0
                samples.rows.withLock { $0.append((Date().timeIntervalSince(start), rss / 1024, fds)) }
                for _ in 0..<100 where !flags.stop.load(ordering: .relaxed) { usleep(100_000) }
            }
        }
        sampler.start()

        let load = LoadGenerator(socket: socket, wire: AreasWire(output: "ids", bboxLimit: 1000), connections: connections, pipeline: 4, seconds: seconds)
        let result = load.run(queries)
        flags.stop.store(true, ordering: .relaxed)
        for thread in [refresher, misbehaver, sampler] { while !thread.isFinished { usleep(50_000) } }
        daemon.stop()

        let rows = samples.rows.withLock { $0 }
        print("   time   RSS MiB   open fds")
        for (t, rss, fds) in rows { print(String(format: "%6.0f s  %8d  %9d", t, rss, fds)) }
        let warm = rows.first { $0.0 >= min(60, seconds / 5) } ?? rows.first
        let last = rows.last
        let growth = Double((last?.1 ?? 0) - (warm?.1 ?? 0))
        let fdGrowth = (last?.2 ?? 0) - (warm?.2 ?? 0)
        print("soak: \(Int(seconds)) s, \(result.answered) answers, \(result.failed) failed, \(flags.refreshes.load(ordering: .relaxed)) refreshes, \(flags.misbehaved.load(ordering: .relaxed)) misbehaving clients; RSS \(warm?.1 ?? 0) -> \(last?.1 ?? 0) MiB after warm-up, fds \(warm?.2 ?? 0) -> \(last?.2 ?? 0)")
        print("{\"seconds\":\(Int(seconds)),\"answers\":\(result.answered),\"failed\":\(result.failed),\"refreshes\":\(flags.refreshes.load(ordering: .relaxed)),\"misbehaving_clients\":\(flags.misbehaved.load(ordering: .relaxed)),\"rss_growth_mib\":\(Int(growth)),\"fd_growth\":\(fdGrowth)}")
        if result.failed > 0 { exit(1) }
    }
}
