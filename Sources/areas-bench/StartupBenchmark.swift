import AreasControl
import AreasTestSupport
import AreasSystem
import Foundation
import Glibc

/// `areas-bench startup`: from exec to the first answered question, and resident memory right
/// after, for areasd loading its snapshot of N areas beside redis-server loading an RDB of the
/// same points and answering PING. Runs interleaved; medians.
struct StartupBenchmark {
    var points = 1_000_000
    var runs = 3
    let areasd: String

    init(arguments: inout ArgumentList) throws {
        points = try arguments.value("--points", as: { Int($0) }) ?? points
        runs = try arguments.value("--runs", as: { Int($0) }) ?? runs
        areasd = try BuiltBeside.program("areasd")
        guard points > 0, runs > 0 else { throw UsageError.wrongArguments("--points and --runs must be positive") }
    }

    func run() throws {
        let directory = "/tmp/areas-bench-startup-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let areas = BenchData.areas(count: points)
        try _ = BenchData.writeDaemonFiles(areas: areas, directory: directory)
        let snapshotBytes = (try? FileManager.default.attributesOfItem(atPath: directory + "/areas.snapshot")[.size] as? Int) ?? 0

        let redis = CLIStartupBenchmark.find("redis-server")
        if let redis {
            // The same points in an RDB file, written by redis itself.
            let socket = directory + "/redis-load.sock"
            let loader = try Child(redis, ["--port", "0", "--unixsocket", socket, "--dir", directory, "--dbfilename", "areas.rdb", "--save", "", "--appendonly", "no"])
            while !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
            let connection = try RedisConnection(path: socket)
            var batch: [[String]] = []
            for chunk in stride(from: 0, to: areas.count, by: 1000) {
                var command = ["GEOADD", "areas"]
                for area in areas[chunk..<min(chunk + 1000, areas.count)] { command += ["\(area.coordinate.longitude)", "\(area.coordinate.latitude)", area.id] }
                batch.append(command)
                if batch.count == 50 { _ = try connection.send(batch); batch = [] }
            }
            if !batch.isEmpty { _ = try connection.send(batch) }
            _ = try connection.send([["SAVE"]])
            loader.stop()
        } else {
            print("note: redis-server is not installed (apt-get install redis-server); timing areasd alone")
        }

        print("== \(points) areas: areasd snapshot \(snapshotBytes / 1_048_576) MiB; \(runs) runs each, interleaved ==")
        var areasTimes: [Double] = [], areasMemory: [Double] = [], areasAnonymous: [Double] = []
        var redisTimes: [Double] = [], redisMemory: [Double] = []
        for run in 0..<runs {
            let socket = directory + "/areasd-\(run).sock"
            let started = Measure.clock.now
            let daemon = try Child(areasd, ["--config", directory + "/areasd.json", "--socket", socket, "--log-level", "error"])
            let question = Array(#"{"op":"near","lat":37.53,"lon":126.97,"k":10}"#.utf8)
            while (Measure.clock.now - started) < .seconds(120) {
                if let client = try? AreasClient(path: socket), let line = try? client.send(question), line.starts(with: Array(#"{"ok":true"#.utf8)) { break }
                usleep(1_000)
            }
            areasTimes.append((Measure.clock.now - started).milliseconds)
            areasMemory.append(Double(daemon.residentBytes) / 1_048_576)
            let resident = MappedMemory.resident(pid: daemon.pid)
            areasAnonymous.append(Double(resident.anonymousKiB) / 1024)
            daemon.stop()

            if let redis {
                let socket = directory + "/redis-\(run).sock"
                let started = Measure.clock.now
                let server = try Child(redis, ["--port", "0", "--unixsocket", socket, "--dir", directory, "--dbfilename", "areas.rdb", "--save", "", "--appendonly", "no"])
                while (Measure.clock.now - started) < .seconds(120) {
                    if FileManager.default.fileExists(atPath: socket), let connection = try? RedisConnection(path: socket),
                       let reply = try? connection.send([["PING"]]), reply.first?.starts(with: Array("+PONG".utf8)) == true { break }
                    usleep(1_000)
                }
                redisTimes.append((Measure.clock.now - started).milliseconds)
                redisMemory.append(Double(server.residentBytes) / 1_048_576)
                server.stop()
            }
        }
        let areasTime = Measure.percentile(areasTimes, 0.5), areasRSS = Measure.percentile(areasMemory, 0.5)
        let anonymous = Measure.percentile(areasAnonymous, 0.5)
        print("areasd: first near answered \(Measure.format(areasTime, 0)) ms after exec, \(Measure.format(areasRSS, 0)) MiB resident"
              + " (\(Measure.format(anonymous, 0)) MiB its own, the rest pages of the mapped snapshot)")
        var summary = ["areasd_start_ms": areasTime, "areasd_resident_mib": areasRSS, "areasd_anonymous_mib": anonymous]
        for (key, value) in try sharedPages(directory: directory) { summary[key] = value }
        if !redisTimes.isEmpty {
            let redisTime = Measure.percentile(redisTimes, 0.5), redisRSS = Measure.percentile(redisMemory, 0.5)
            print("redis-server: PING answered \(Measure.format(redisTime, 0)) ms after exec (RDB loaded), \(Measure.format(redisRSS, 0)) MiB resident")
            print("areasd / redis: start \(Measure.format(areasTime / redisTime))x, resident \(Measure.format(areasRSS / redisRSS))x")
            summary["redis_start_ms"] = redisTime
            summary["redis_resident_mib"] = redisRSS
            summary["start_ratio"] = areasTime / redisTime
            summary["resident_ratio"] = areasRSS / redisRSS
        }
        print(Measure.json(summary))
    }

    /// A leader and a follower of its snapshot file on one host, each asked the same 2,000
    /// questions: how much of the mapped snapshot each holds, and how much of that is shared.
    private func sharedPages(directory: String) throws -> [String: Double] {
        let follower = directory + "/follower.json"
        try #"{"snapshot":"\#(directory)/follower.snapshot","follow":{"file":"\#(directory)/areas.snapshot","intervalSeconds":3600}}"#
            .write(toFile: follower, atomically: true, encoding: .utf8)
        let daemons = try [("leader", directory + "/areasd.json"), ("follower", follower)].map { name, config in
            (name, try Child(areasd, ["--config", config, "--socket", "\(directory)/\(name).sock", "--log-level", "error"]))
        }
        defer { for (_, daemon) in daemons { daemon.stop() } }
        var random = SplitMix64(seed: 11)
        let questions = (0..<2_000).map { _ in
            let point = SyntheticPoints.point(in: SyntheticPoints.korea, using: &random)
            return Array(#"{"op":"near","lat":\#(point.latitude),"lon":\#(point.longitude),"k":10}"#.utf8)
        }
        for (name, _) in daemons {
            let started = Measure.clock.now
            var client: AreasClient?
            while client == nil, (Measure.clock.now - started) < .seconds(120) {
                if let candidate = try? AreasClient(path: "\(directory)/\(name).sock"),
                   let line = try? candidate.send(questions[0]), line.starts(with: Array(#"{"ok":true"#.utf8)) { client = candidate } else { usleep(10_000) }
            }
            guard let client else { throw UsageError.wrongArguments("the \(name) did not answer within 120 s") }
            for question in questions { _ = try client.send(question) }
        }
        let inode = try FileSystem.status(of: directory + "/areas.snapshot")?.inode ?? 0
        guard try FileSystem.status(of: directory + "/follower.snapshot")?.inode == inode else {
            print("note: the follower's snapshot is a copy, not a second name of the leader's: no pages to share")
            return [:]
        }
        var summary: [String: Double] = [:]
        print("two daemons mapping one snapshot file (inode \(inode)), after 2,000 near questions each:")
        for (name, daemon) in daemons {
            let mapping = MappedMemory.file(inode: inode, pid: daemon.pid)
            print("  \(name): \(mapping.residentKiB / 1024) MiB of the file resident, \(mapping.sharedKiB / 1024) MiB of it shared, proportional share \(mapping.proportionalKiB / 1024) MiB")
            summary["\(name)_mapped_resident_mib"] = Double(mapping.residentKiB) / 1024
            summary["\(name)_mapped_shared_mib"] = Double(mapping.sharedKiB) / 1024
        }
        return summary
    }
}
