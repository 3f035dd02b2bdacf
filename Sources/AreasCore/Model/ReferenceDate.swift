/// The day a publisher states its data for (`데이터기준일자`), as days since 1970-01-01.
///
/// Kept as a day count, not text, so that it fits the two bytes a record had spare and old
/// and new records compare as numbers; day 0 (1970-01-01) means "not stated", which no data
/// set of smoking areas is dated.
public struct ReferenceDate: Sendable, Hashable, Comparable {
    /// Days since 1970-01-01; `1...UInt16.max` (up to 2149-06-06).
    public let day: UInt16

    /// The date of day `day`, or nil for day 0, which stands for "not stated".
    public init?(day: UInt16) {
        guard day > 0 else { return nil }
        self.day = day
    }

    /// The date a cell states, in the forms the portal's files use: `2024-01-31`, `2024.01.31`,
    /// `2024/1/31`, `20240131`, each optionally followed by a time (`2024-01-31 00:00:00`,
    /// `2024-01-31T09:00`). A day that is not in the calendar, a year before 1990 or after 2149,
    /// or anything else is nil: the caller counts it and leaves the date out.
    public init?(parsing text: String) {
        var bytes = Array(text.utf8)
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
        // A time after the date is dropped.
        if let cut = bytes.firstIndex(where: { $0 == 0x20 || $0 == UInt8(ascii: "T") }) { bytes.removeSubrange(cut...) }
        var parts: [Int] = []
        if bytes.count == 8, bytes.allSatisfy({ (0x30...0x39).contains($0) }) {
            let n = bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            parts = [n / 10000, n / 100 % 100, n % 100]
        } else {
            var separator: UInt8?
            var value = 0
            var digits = 0
            for byte in bytes + [0] {
                if (0x30...0x39).contains(byte) {
                    value = value * 10 + Int(byte - 0x30)
                    digits += 1
                    guard digits <= 4 else { return nil }
                    continue
                }
                // A trailing separator (`2024.03.15.`) is how some files end a date.
                if byte == 0, digits == 0, parts.count == 3 { break }
                guard digits > 0 else { return nil }
                parts.append(value)
                value = 0
                digits = 0
                if byte == 0 { break }
                guard [UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/")].contains(byte), separator == nil || separator == byte else { return nil }
                separator = byte
            }
            guard parts.count == 3 else { return nil }
        }
        guard let date = Self(year: parts[0], month: parts[1], day: parts[2]) else { return nil }
        self = date
    }

    /// The date of a calendar day, if it is one between 1990 and 2149.
    public init?(year: Int, month: Int, day: Int) {
        guard (1990...2149).contains(year), (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year) else { return nil }
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        guard days > 0, days <= Int(UInt16.max) else { return nil }
        self.day = UInt16(days)
    }

    /// `YYYY-MM-DD`.
    public var text: String { Self.text(ofDay: Int(day)) }

    /// `YYYY-MM-DD` of any day count since 1970-01-01 (negative ones too).
    public static func text(ofDay days: Int) -> String {
        let (year, month, day) = civil(fromDays: days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    /// Midnight UTC of the day, in seconds since 1970.
    public var secondsSince1970: Double { Double(day) * 86_400 }

    public static func < (a: ReferenceDate, b: ReferenceDate) -> Bool { a.day < b.day }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count (the inverse of `daysFromCivil`).
    public static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// A date is kept as its day number: in a refresh's report beside the snapshot.
extension ReferenceDate: Codable {
    public init(from decoder: any Decoder) throws {
        let day = try decoder.singleValueContainer().decode(UInt16.self)
        guard let date = ReferenceDate(day: day) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "day 0 is no date"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(day)
    }
}
