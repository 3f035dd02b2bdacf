import Glibc

/// The real-time clock, and a time's calendar parts in UTC: what log stamps and HTTP `Date`
/// fields are written from, in English and whatever the locale.
package enum WallClock {
    /// Now, as whole seconds since 1970 and the nanoseconds past them.
    package static var now: (seconds: Int, nanoseconds: Int) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return (Int(now.tv_sec), Int(now.tv_nsec))
    }

    /// Now, in seconds since 1970, to the kernel's last tick (a few milliseconds): read
    /// without a system call, for what is said in whole seconds many times an answer.
    package static var coarseSeconds: Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// A moment's calendar parts in UTC.
    package struct CalendarTime: Sendable, Equatable {
        package var year: Int
        /// 1 (January) to 12.
        package var month: Int
        package var day: Int
        package var hour: Int
        package var minute: Int
        package var second: Int
        /// 0 (Sunday) to 6.
        package var weekday: Int
    }

    package static func utc(_ seconds: Int) -> CalendarTime {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return CalendarTime(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec), weekday: Int(parts.tm_wday))
    }
}
