import AreasControl
import AreasCore
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc

/// `areas-bench connections`: what many connections cost the daemon. For each count of idle
/// connections, resident memory and threads with them open, then the latency of an active
/// client among them and areasd's CPU per answer; then clients that ask for large answers and
/// never read, and memory after they leave. `--areasd PATH` measures another build, for
/// interleaved runs against it.
struct ConnectionsBenchmark {
    var idle = [1_000, 10_000]
    var points = 100_000
    var seconds = 5.0
    var slowReaders = 1_000
    var areasd: String

    init(arguments: inout ArgumentList) throws {
        idle = try arguments.value("--idle", as: { $0.split(separator: ",").compactMap { Int($0) } }) ?? idle
        points = try arguments.value("--points", as: { Int($0) }) ?? points
        seconds = try arguments.value("--seconds", as: { Double($0) }) ?? seconds
        slowReaders = try arguments.value("--slow-readers", as: { Int($0) }) ?? slowReaders
        areasd = try BuiltBeside.program("areasd", given: try arguments.value("--areasd"))
        _ = try arguments.positionals()
    }

    func run() throws {
        guard let available = DescriptorLimit.raiseToHardLimit(), available > (idle.max() ?? 0) + 100 else {
            throw UsageError.wrongArguments("the descriptor limit is below the connections asked for; raise ulimit -Hn")
        }
        let directory = "/tmp/areas-connections-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let maxConnections = max((idle.max() ?? 0), slowReaders) + 200
        let config = try BenchData.writeDaemonFiles(areas: BenchData.areas(count: points), directory: directory,
                                                    maxConnections: maxConnections, extra: #""idleTimeoutSeconds":600"#)
        let socket = directory + "/areasd.sock"
        let daemon = try Child(areasd, ["--config", config, "--socket", socket, "--log-level", "error"])
        defer { daemon.stop() }
        guard DaemonQuestions.waitUntilLoaded(socket, seconds: 60) else { throw UsageError.wrongArguments("areasd did not start") }
        var summary: [String: Double] = [:]
        let base = daemon.residentBytes
        print("areasd \(areasd): \(points) areas, \(base / 1_048_576) MiB resident, \(Self.threads(daemon.pid)) threads")
        let queries = BenchData.areas(count: points).prefix(5_000).map { BenchQuery.near($0.coordinate, k: 10, redisRadius: 0) }

        for count in [0] + idle {
            var held: [FileDescriptor] = []
            for _ in 0..<count {
                guard let fd = try? Sockets.connectUnix(path: socket, timeoutSeconds: 5) else { break }
                held.append(fd)
            }
            usleep(500_000)
            let resident = daemon.residentBytes
            let cpuBefore = daemon.cpuSeconds
            let active = LoadGenerator(socket: socket, wire: AreasWire(output: "ids", bboxLimit: 100), connections: 1, pipeline: 1, seconds: seconds).run(queries)
            let cpu = (daemon.cpuSeconds - cpuBefore) / Double(max(active.answered, 1)) * 1e6
            print("\(count) idle: \(resident / 1_048_576) MiB resident (+\((resident - base) / 1024 / max(count, 1)) KiB a connection), \(Self.threads(daemon.pid)) threads; an active client: p50 \(Measure.format(active.percentile(0.5), 0)) µs, p99 \(Measure.format(active.percentile(0.99), 0)) µs, \(Measure.format(cpu, 1)) µs of areasd CPU an answer")
            summary["idle\(count)_rss_mib"] = Double(resident) / 1_048_576
            summary["idle\(count)_p99_us"] = active.percentile(0.99)
            summary["idle\(count)_cpu_per_answer_us"] = cpu
            held.forEach { $0.close() }
            usleep(500_000)
        }

        // Clients that ask for the largest answer the daemon gives (every area within reach,
        // up to maxResults, in full) and never read it.
        if slowReaders > 0 {
            let request = Array(#"{"op":"radius","lat":36.5,"lon":127.8,"meters":2000000}"#.utf8) + [10]
            var held: [FileDescriptor] = []
            for _ in 0..<slowReaders {
                guard let fd = try? Sockets.connectUnix(path: socket, timeoutSeconds: 5) else { break }
                _ = try? fd.writeAll(request)
                held.append(fd)
            }
            var peak = 0
            var timeline: [String] = []
            for _ in 0..<20 {
                usleep(500_000)
                peak = max(peak, daemon.residentBytes)
                timeline.append("\(daemon.residentBytes / 1_048_576)")
            }
            print("resident MiB every 0.5 s: \(timeline.joined(separator: " "))")
            let open = held.filter { fd in
                var entry = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
                return poll(&entry, 1, 0) == 0 || entry.revents & Int16(POLLHUP) == 0
            }.count
            held.forEach { $0.close() }
            var after = 0
            var afterTimeline: [String] = []
            for _ in 0..<6 {
                usleep(500_000)
                after = daemon.residentBytes
                afterTimeline.append("\(after / 1_048_576)")
            }
            print("after they left, every 0.5 s: \(afterTimeline.joined(separator: " "))")
            let answer = DaemonQuestions.ask(socket, #"{"op":"near","lat":37.5,"lon":127,"k":1}"#)?["ok"]?.bool == true
            print("\(slowReaders) clients asking for every area and never reading: peak \(peak / 1_048_576) MiB resident, \(open) connections still open; \(after / 1_048_576) MiB 3 s after they left; others answered: \(answer)")
            summary["slow_readers_peak_rss_mib"] = Double(peak) / 1_048_576
            summary["slow_readers_after_rss_mib"] = Double(after) / 1_048_576
            summary["slow_readers_left_open"] = Double(open)
        }
        summary["base_rss_mib"] = Double(base) / 1_048_576
        print(Measure.json(summary))
    }

    static func threads(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("Threads:") }.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0
    }
}
