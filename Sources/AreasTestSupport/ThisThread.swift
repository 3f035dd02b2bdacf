import Foundation

/// What the calling thread alone has used, from the kernel's counters for one thread: the tests
/// running beside it add to the process's counters, never to these.
package enum ThisThread {
    /// Bytes this thread has read through system calls so far (`rchar` in
    /// `/proc/thread-self/io`).
    package static func bytesRead() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("rchar:") }) else { return nil }
        return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
    }

    /// CPU time this thread has used, in seconds: reading or checksumming a file it should
    /// refuse by its first bytes takes seconds of it, whatever else the machine runs meanwhile.
    package static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
