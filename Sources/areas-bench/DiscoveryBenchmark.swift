import AreasCore
import AreasIngest
import AreasSystem
import Foundation
import Glibc

/// `areas-bench discover`: `areasd --discover` on the standard non-smoking CSV at 100,000
/// rows in CP949, beside the refresh's own decoding of the same file (read, CP949 to UTF-8,
/// every row into named cells), each a process of its own measured by the kernel (wall time,
/// peak resident memory from `wait4`), runs alternating. The budget: 2 s and 200 MiB.
struct DiscoveryBenchmark {
    var rows = 100_000
    var runs = 3
    /// The child's part: decode this file as a refresh does, and exit.
    var decodeOnly: String?

    init(arguments: inout ArgumentList) throws {
        rows = try arguments.value("--rows", as: { Int($0) }) ?? rows
        runs = try arguments.value("--runs", as: { Int($0) }) ?? runs
        decodeOnly = try arguments.value("--decode-child")
        _ = try arguments.positionals()
    }

    func run() throws {
        if let decodeOnly {
            let bytes = try FileTransport.read(decodeOnly, maxBytes: 1 << 30)
            let page = try CSVDecoder(encoding: .cp949).decode(bytes)
            print(page.records.count)
            return
        }
        let areasd = try BuiltBeside.program("areasd")
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).path
        var files = DistrictFilesBenchmark()
        files.rows = rows
        let csv = try files.standardCSV()
        let path = NSTemporaryDirectory() + "areas-bench-discover-\(getpid()).csv"
        try Data(csv).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        print("standard CSV: \(rows) rows, \(Measure.format(Double(csv.count) / 1e6)) MB of CP949")
        var discover: [Measured] = []
        var decode: [Measured] = []
        for _ in 0..<runs {
            let found = try Measured.run(areasd, ["--discover", path, "--name", "standard"])
            guard found.status == 0 else { throw UsageError.wrongArguments("areasd --discover exited \(found.status)") }
            discover.append(found)
            decode.append(try Measured.run(me, ["discover", "--decode-child", path]))
            print("  discover \(Measure.format(found.milliseconds, 0)) ms, peak \(Measure.format(found.peakMiB, 1)) MiB; the refresh's decoding \(Measure.format(decode.last!.milliseconds, 0)) ms, peak \(Measure.format(decode.last!.peakMiB, 1)) MiB")
        }
        let best = (discover.map(\.milliseconds).min() ?? 0, discover.map(\.peakMiB).min() ?? 0)
        let reference = (decode.map(\.milliseconds).min() ?? 0, decode.map(\.peakMiB).min() ?? 0)
        print("  best of \(runs): discover \(Measure.format(best.0, 0)) ms (\(Measure.format(best.0 / reference.0))x the refresh's decoding), peak \(Measure.format(best.1, 1)) MiB (\(Measure.format(best.1 / reference.1))x); budget 2000 ms and 200 MiB: \(best.0 <= 2000 && best.1 <= 200 ? "within" : "OVER")")
        print(Measure.json(["rows": Double(rows), "discover_ms": best.0, "discover_peak_mib": best.1, "decode_ms": reference.0, "decode_peak_mib": reference.1]))
    }

    /// One process to its end: its exit status, wall time and peak resident memory.
    struct Measured {
        var status: Int32
        var milliseconds: Double
        var peakMiB: Double

        static func run(_ path: String, _ arguments: [String]) throws -> Measured {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let argv = ([path] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            let start = Measure.clock.now
            let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
            guard spawned == 0 else { throw UsageError.wrongArguments("cannot start \(path): errno \(spawned)") }
            var status: Int32 = 0
            var usage = rusage()
            while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
            let milliseconds = (Measure.clock.now - start).milliseconds
            let exited = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            return Measured(status: exited, milliseconds: milliseconds, peakMiB: Double(usage.ru_maxrss) / 1024)
        }
    }
}
