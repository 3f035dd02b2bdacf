import AreasSystem
import Foundation
import Glibc

/// `areas-bench cli`: what one areasctl call costs as a whole process (exec, start-up, one
/// question over the socket, exit), beside `redis-cli ping` against a redis-server on a Unix
/// socket, with `/bin/true` as the floor any process pays. Runs are interleaved so both
/// programs meet the same machine; the figure that matters is the ratio of medians.
struct CLIStartupBenchmark {
    let runs: Int
    let areasctl: String
    let areasd: String

    init(arguments: inout ArgumentList) throws {
        runs = try arguments.value("--runs", as: { Int($0) }) ?? 300
        areasctl = try BuiltBeside.program("areasctl", given: try arguments.value("--areasctl"))
        areasd = try BuiltBeside.program("areasd", given: try arguments.value("--areasd"))
        guard runs > 0 else { throw UsageError.invalidValue("--runs", String(runs)) }
    }

    /// One program to time: its arguments (the first is the path) and what each run cost.
    final class Subject {
        let label: String
        let argv: [String]
        var wallMicroseconds: [Double] = []
        var cpuMicroseconds: [Double] = []
        init(_ label: String, _ argv: [String]) { self.label = label; self.argv = argv }
    }

    func run() throws {
        let directory = "/tmp/areas-bench-cli-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try _ = BenchData.writeDaemonFiles(areas: BenchData.areas(count: 10_000), directory: directory)
        let socket = directory + "/areasd.sock"
        let daemon = try Child(areasd, ["--config", directory + "/areasd.json", "--socket", socket, "--log-level", "error"])
        defer { daemon.stop() }
        guard DaemonHarness.waitReady(socket) else { throw UsageError.wrongArguments("areasd did not start") }

        var subjects = [
            Subject("/bin/true", ["/bin/true"]),
            Subject("areasctl health", [areasctl, "--socket", socket, "health"]),
            Subject("areasctl near -k 10", [areasctl, "--socket", socket, "near", "37.53", "126.97", "-k", "10"]),
        ]
        var redis: Child?
        if let redisServer = Self.find("redis-server"), let redisCLI = Self.find("redis-cli") {
            let redisSocket = directory + "/redis.sock"
            redis = try Child(redisServer, ["--port", "0", "--unixsocket", redisSocket, "--save", "", "--appendonly", "no"])
            while !FileManager.default.fileExists(atPath: redisSocket) { usleep(10_000) }
            subjects.insert(Subject("redis-cli ping", [redisCLI, "-s", redisSocket, "ping"]), at: 1)
        } else {
            print("note: redis-server or redis-cli is not installed (apt-get install redis-server); timing areasctl alone")
        }
        defer { redis?.stop() }

        print("== \(runs) runs of each, interleaved; areasctl: \(areasctl) ==")
        for subject in subjects { _ = try Self.spawnAndWait(subject.argv) }  // warm the page cache
        for _ in 0..<runs {
            for subject in subjects {
                let cost = try Self.spawnAndWait(subject.argv)
                subject.wallMicroseconds.append(cost.wall)
                subject.cpuMicroseconds.append(cost.cpu)
            }
        }
        var summary: [String: Double] = [:]
        for subject in subjects {
            let median = Measure.percentile(subject.wallMicroseconds, 0.5)
            let cpu = Measure.percentile(subject.cpuMicroseconds, 0.5)
            print("\(subject.label.padding(toLength: 22, withPad: " ", startingAt: 0)) median \(Measure.format(median / 1000, 2)) ms, p90 \(Measure.format(Measure.percentile(subject.wallMicroseconds, 0.9) / 1000, 2)) ms, CPU \(Measure.format(cpu / 1000, 2)) ms")
            summary[subject.label.replacingOccurrences(of: " ", with: "_") + "_median_ms"] = median / 1000
        }
        if let reference = subjects.first(where: { $0.label == "redis-cli ping" }) {
            let base = Measure.percentile(reference.wallMicroseconds, 0.5)
            for subject in subjects where subject.label.hasPrefix("areasctl") {
                let ratio = Measure.percentile(subject.wallMicroseconds, 0.5) / base
                print("\(subject.label) / redis-cli ping: \(Measure.format(ratio))x (target at most 1.5x)")
                summary[subject.label.replacingOccurrences(of: " ", with: "_") + "_ratio"] = ratio
            }
        }
        print(Measure.json(summary))
    }

    static func find(_ name: String) -> String? {
        ["/usr/bin/", "/usr/local/bin/", "/usr/sbin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts `argv` with stdout and stderr on /dev/null and waits for it: wall time from
    /// spawn to reaped, and the child's user plus system CPU, in microseconds.
    static func spawnAndWait(_ argv: [String]) throws -> (wall: Double, cpu: Double) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let started = Measure.clock.now
        let result = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard result == 0 else { throw UsageError.wrongArguments("cannot start \(argv[0]): \(String(cString: strerror(result)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let wall = (Measure.clock.now - started).milliseconds * 1000
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
        guard status == 0 else { throw UsageError.wrongArguments("\(argv.joined(separator: " ")) exited with status \(status)") }
        return (wall, cpu)
    }
}
