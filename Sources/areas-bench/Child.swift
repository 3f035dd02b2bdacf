import AreasSystem
import AreasTestSupport
import Foundation
import Glibc

/// A child process started by the benchmark and stopped when it is done.
final class Child {
    let process = Process()

    init(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// Resident memory from /proc, in bytes.
    var residentBytes: Int { statusBytes("VmRSS") }

    /// The most resident memory the process has had (VmHWM), in bytes, since it started or
    /// since `resetPeakResident()`.
    var peakResidentBytes: Int { statusBytes("VmHWM") }

    /// The process's children now (the daemon's fetch worker while it runs).
    var children: [Int32] { ProcessChildren.of(pid) }

    /// A size `/proc/PID/status` gives in kB, in bytes.
    private func statusBytes(_ field: String) -> Int { Self.statusBytes(field, of: pid) }

    /// The pages a process holds that no other maps (`Private_Clean` plus `Private_Dirty` in
    /// `/proc/PID/smaps_rollup`), in bytes; 0 once it has gone.
    static func privateBytes(of pid: Int32) -> Int {
        let text = ProcFile.read("/proc/\(pid)/smaps_rollup") ?? ""
        return text.split(separator: "\n").filter { $0.hasPrefix("Private_Clean:") || $0.hasPrefix("Private_Dirty:") }
            .reduce(0) { $0 + (Int($1.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024 }
    }

    /// A size `/proc/PID/status` of any process gives in kB, in bytes (0 once it has gone).
    static func statusBytes(_ field: String, of pid: Int32) -> Int {
        let status = ProcFile.read("/proc/\(pid)/status") ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// Starts the peak over from the present resident memory.
    func resetPeakResident() {
        try? "5".write(toFile: "/proc/\(pid)/clear_refs", atomically: false, encoding: .utf8)
    }

    /// Resident memory by what backs it (`/proc/PID/smaps_rollup`), in bytes: anonymous (the
    /// heap, stacks, allocator arenas) and file-backed (the mapped snapshot, the binary).
    var residentByBacking: (anonymous: Int, file: Int) {
        let text = ProcFile.read("/proc/\(pid)/smaps_rollup") ?? ""
        func field(_ name: String) -> Int {
            let line = text.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        let rss = field("Rss"), anonymous = field("Anonymous")
        return (anonymous, max(0, rss - anonymous))
    }

    /// Resident bytes by mapped file (`/proc/PID/smaps`), largest first: which libraries and
    /// files the process holds in memory.
    var residentByFile: [(file: String, bytes: Int)] {
        var totals: [String: Int] = [:]
        for mapping in MemoryMapping.ofProcess(pid) ?? [] where mapping.isFile {
            totals[String(mapping.name.split(separator: "/").last ?? ""), default: 0] += mapping.residentBytes
        }
        return totals.map { ($0.key, $0.value) }.sorted { $0.bytes > $1.bytes }
    }

    /// User plus system CPU seconds used so far.
    var cpuSeconds: Double {
        let stat = ProcFile.read("/proc/\(pid)/stat") ?? ""
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticks
    }

    func stop() {
        if process.isRunning {
            kill(pid, SIGTERM)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

/// The programs built beside this one.
enum BuiltBeside {
    /// The path of `name` (areasd, areasctl) in areas-bench's own build folder, or `given`;
    /// an error naming the build to run when it is not there.
    static func program(_ name: String, given: String? = nil) throws -> String {
        let path = given ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/" + name
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw UsageError.wrongArguments("\(name) is not built next to areas-bench (\(path)); run swift build -c release --static-swift-stdlib first")
        }
        return path
    }
}
