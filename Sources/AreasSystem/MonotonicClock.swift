import Glibc

/// The monotonic clock systemd's messages are stamped with.
package enum MonotonicClock {
    package static var microseconds: Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int(now.tv_sec) * 1_000_000 + Int(now.tv_nsec) / 1000
    }

    package static var seconds: Double { Double(microseconds) / 1e6 }
}
