import AreasCore

/// A time as answers give it, `YYYY-MM-DDTHH:MM:SSZ` in UTC, made by arithmetic (the days to a
/// civil date as reference dates make them), without the C library's `gmtime_r`: a full answer
/// gives one or two for every area.
public enum UTCTime {
    /// Writes the 20 characters of `seconds` since 1970 (rounded down to the second).
    static func write(_ seconds: Double, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        let whole = seconds.isFinite ? Int(max(-6.2e10, min(2.5e11, seconds)).rounded(.down)) : 0
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let time = whole - days * 86_400
        let (year, month, day) = ReferenceDate.civil(fromDays: days)
        func digits(_ value: Int, _ count: Int, at start: Int) {
            var value = max(0, value)
            for i in stride(from: start + count - 1, through: start, by: -1) {
                buffer[i] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        digits(year, 4, at: 0); buffer[4] = UInt8(ascii: "-")
        digits(month, 2, at: 5); buffer[7] = UInt8(ascii: "-")
        digits(day, 2, at: 8); buffer[10] = UInt8(ascii: "T")
        digits(time / 3_600, 2, at: 11); buffer[13] = UInt8(ascii: ":")
        digits(time / 60 % 60, 2, at: 14); buffer[16] = UInt8(ascii: ":")
        digits(time % 60, 2, at: 17); buffer[19] = UInt8(ascii: "Z")
    }
}

extension JSONWriter {
    /// `seconds` since 1970 as a quoted `YYYY-MM-DDTHH:MM:SSZ`.
    public mutating func time(_ seconds: Double) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            UTCTime.write(seconds, into: buffer)
            string(utf8: UnsafeBufferPointer(buffer))
        }
    }
}
