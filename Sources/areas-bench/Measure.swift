import AreasKit

/// Timing helpers: each query timed on its own so medians and tails are real.
enum Measure {
    static let clock = ContinuousClock()

    /// Runs `body` once per input and returns the median time in microseconds.
    static func medianMicroseconds<T>(_ inputs: [T], _ body: (T) -> Int) -> (median: Double, checksum: Int) {
        var samples: [Double] = []
        samples.reserveCapacity(inputs.count)
        var checksum = 0
        for input in inputs {
            let start = clock.now
            checksum &+= body(input)
            samples.append((clock.now - start).milliseconds * 1_000)
        }
        return (percentile(samples, 0.5), checksum)
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
}
