import Glibc

/// The real-time clock, and a time's calendar parts in UTC: what log stamps and HTTP `Date`
/// fields are written from, in English and whatever the locale.
public enum WallClock {
    /// Now, as whole seconds since 1970 and the nanoseconds past them.
    public static var now: (seconds: Int, nanoseconds: Int) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return (Int(now.tv_sec), Int(now.tv_nsec))
    }

    /// A moment's calendar parts in UTC.
    public struct CalendarTime: Sendable, Equatable {
        public var year: Int
        /// 1 (January) to 12.
        public var month: Int
        public var day: Int
        public var hour: Int
        public var minute: Int
        public var second: Int
        /// 0 (Sunday) to 6.
        public var weekday: Int
    }

    public static func utc(_ seconds: Int) -> CalendarTime {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return CalendarTime(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec), weekday: Int(parts.tm_wday))
    }
}
