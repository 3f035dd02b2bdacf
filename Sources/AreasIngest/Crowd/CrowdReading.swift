import AreasCore

/// The city's four levels of people density, least crowded first.
package enum CrowdLevel: String, Sendable, CaseIterable {
    case relaxed = "여유"
    case normal = "보통"
    case busy = "약간 붐빔"
    case crowded = "붐빔"
}

/// What the city last said of one hotspot: its level and estimate, for the 5 minutes ending `at`.
package struct CrowdReading: Sendable, Equatable {
    package var level: CrowdLevel
    /// The city's sentence about the level (at most 500 characters kept).
    package var message: String
    /// The estimated number of people, when the city gave it (it may not in the small hours).
    package var minimum: Int?
    package var maximum: Int?
    /// The time the estimate is for (`PPLTN_TIME`, Korean time), as seconds since 1970.
    package var at: Double

    package init(level: CrowdLevel, message: String, minimum: Int?, maximum: Int?, at: Double) {
        self.level = level
        self.message = message
        self.minimum = minimum
        self.maximum = maximum
        self.at = at
    }

    /// How old the estimate is at `now`, in whole seconds (0 for one a clock puts ahead).
    package func ageSeconds(at now: Double) -> Int { Int(Swift.max(0, now - at).rounded()) }

    /// `at` as the city's clock shows it, with its offset: `2026-08-18T17:20+09:00`.
    package var atText: String { Self.koreanText(at) }

    /// Seconds since 1970 of a Korean wall-clock time `YYYY-MM-DD HH:MM` (or with a `T`), nil
    /// for anything else.
    package static func koreanTime(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 16, bytes[10] == 0x20 || bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
              let date = ReferenceDate(parsing: String(decoding: bytes[0..<10], as: UTF8.self)),
              let hour = Int(String(decoding: bytes[11..<13], as: UTF8.self)), (0..<24).contains(hour),
              let minute = Int(String(decoding: bytes[14..<16], as: UTF8.self)), (0..<60).contains(minute) else { return nil }
        return Double(Int(date.day) * 86_400 + hour * 3_600 + minute * 60 - koreanOffset)
    }

    /// Korea's offset from UTC, in seconds (no daylight saving).
    package static let koreanOffset = 9 * 3_600

    /// `time` on the Korean clock, to the minute, with its offset.
    package static func koreanText(_ time: Double) -> String {
        let seconds = Int(time.rounded(.down)) + koreanOffset
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let minutes = (seconds - days * 86_400) / 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return ReferenceDate.text(ofDay: days) + "T" + two(minutes / 60) + ":" + two(minutes % 60) + "+09:00"
    }
}
