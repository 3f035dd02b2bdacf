import AreasControl
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
        var areasTimes: [Double] = [], areasMemory: [Double] = []
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
        print("areasd: first near answered \(Measure.format(areasTime, 0)) ms after exec, \(Measure.format(areasRSS, 0)) MiB resident")
        var summary = ["areasd_start_ms": areasTime, "areasd_resident_mib": areasRSS]
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
}
