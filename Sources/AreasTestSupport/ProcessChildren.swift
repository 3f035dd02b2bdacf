import Foundation

/// The processes a process has started, read from `/proc`: each of its threads lists the
/// children it started, so a daemon's worker spawned from any thread is found.
package enum ProcessChildren {
    package static func of(_ pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
        }
    }
}
