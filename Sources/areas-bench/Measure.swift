import Foundation

/// Timing helpers: each query timed on its own so medians and tails are real.
enum Measure {
    static let clock = ContinuousClock()

    /// Runs `body` once per input and returns the median time in microseconds; with several
    /// passes, the lowest pass median, which a shared machine's noise disturbs least.
    static func medianMicroseconds<T>(_ inputs: [T], passes: Int = 1, _ body: (T) -> Int) -> (median: Double, checksum: Int) {
        var samples: [Double] = []
        samples.reserveCapacity(inputs.count)
        var checksum = 0
        var best = Double.infinity
        for pass in 0..<Swift.max(passes, 1) {
            samples.removeAll(keepingCapacity: true)
            for input in inputs {
                let start = clock.now
                let value = body(input)
                samples.append((clock.now - start).milliseconds * 1_000)
                if pass == 0 { checksum &+= value }
            }
            best = Swift.min(best, percentile(samples, 0.5))
        }
        return (best, checksum)
    }

    static func percentile(_ samples: [Double], _ p: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        return sorted[Swift.min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    static func format(_ value: Double, _ digits: Int = 2) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return "\(rounded)"
    }

    /// Figures as one JSON object, keys in order: the line a benchmark ends with.
    static func json(_ values: [String: Double]) -> String {
        "{" + values.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\(format($0.value))" }.joined(separator: ",") + "}"
    }

    /// The CPU time every thread of this process has used, in milliseconds.
    static var processCPUMilliseconds: Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1_000 + Double(time.tv_nsec) / 1_000_000
    }

    /// Resident memory now, from /proc, in bytes.
    static var residentBytes: Int { statusField("VmRSS:") }

    /// The most resident memory since the last `resetPeakResident()` (or the start), in bytes.
    static var peakResidentBytes: Int { statusField("VmHWM:") }

    /// Starts a new peak: Linux resets VmHWM to the current size when 5 is written to clear_refs.
    static func resetPeakResident() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    private static func statusField(_ name: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(name) } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
}
