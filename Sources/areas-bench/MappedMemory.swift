import AreasSystem
import Foundation

/// What /proc says of a process's memory: its resident set split into anonymous memory (its
/// own) and file pages (a mapped snapshot's, shareable), and one mapped file's share.
struct MappedMemory {
    /// Resident KiB in all, and of anonymous memory, from /proc/PID/smaps_rollup.
    static func resident(pid: Int32) -> (totalKiB: Int, anonymousKiB: Int) {
        let fields = numbers(in: read("/proc/\(pid)/smaps_rollup"))
        return (fields["Rss"] ?? 0, fields["Anonymous"] ?? 0)
    }

    /// The mappings of the file with `inode` in process `pid`, summed: resident KiB, the
    /// proportional share (resident pages divided by how many processes map each), and the
    /// resident KiB other processes map too.
    static func file(inode: UInt64, pid: Int32) -> (residentKiB: Int, proportionalKiB: Int, sharedKiB: Int) {
        let mappings = (MemoryMapping.ofProcess(pid) ?? []).filter { $0.inode == inode }
        func kibibytes(_ size: KeyPath<MemoryMapping, Int>) -> Int { mappings.reduce(0) { $0 + $1[keyPath: size] } / 1024 }
        return (kibibytes(\.residentBytes), kibibytes(\.proportionalBytes), kibibytes(\.sharedBytes))
    }

    private static func read(_ path: String) -> String { ProcFile.read(path) ?? "" }

    private static func numbers(in text: String) -> [String: Int] {
        var fields: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, parts[0].hasSuffix(":"), let value = Int(parts[1]) { fields[String(parts[0].dropLast())] = value }
        }
        return fields
    }
}
