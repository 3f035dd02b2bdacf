/// What a publisher's words for a zone's extent (금연구역범위상세) say, as far as the footprint
/// rule reads them: a stated distance and what it is measured from, a school or walking route,
/// the whole facility.
///
/// The words are free text written by hundreds of district offices. Measured on one release of
/// Seoul's standard data: about half state a distance (`버스승차대 좌우끝으로부터 반경 10미터이내`,
/// `어린이집 시설경계로부터 10m 이내`, `학교출입문으로부터 50미터 이내`), about a third say the whole
/// facility (`시설전체`, `공원전체`, `건물 및 대지 전체`). Anything else is not understood, and
/// counted as such, rather than guessed at.
public struct ExtentWords: Sendable, Equatable {
    /// The first distance the words state, in meters: the first number followed by `m`, `M`,
    /// `ｍ` or `미터` (spaces between allowed); not one followed by `m²`, `m2` or `㎡`, an area.
    public var statedMeters: Double?
    /// Whether the stated distance is measured from the facility's boundary or building line:
    /// `경계`, `건물` or `건축물` come before the number.
    public var fromBoundary = false
    /// `통학로` or `보행로`: a school or walking route.
    public var namesRoute = false
    /// `전체`, `부지` or `내`: the whole facility or site.
    public var namesWholeFacility = false
    /// No words at all (blank).
    public var isBlank = true

    public init(_ text: some StringProtocol) {
        let scalars = Array(text.unicodeScalars)
        isBlank = !scalars.contains { !$0.properties.isWhitespace }
        if isBlank { return }
        let words = String(String.UnicodeScalarView(scalars))
        namesRoute = words.contains("통학로") || words.contains("보행로")
        namesWholeFacility = words.contains("전체") || words.contains("부지") || words.contains("내")
        guard let (meters, numberStart) = Self.firstDistance(in: scalars) else { return }
        statedMeters = meters
        let before = String(String.UnicodeScalarView(scalars[..<numberStart]))
        fromBoundary = before.contains("경계") || before.contains("건물") || before.contains("건축물")
    }

    /// The first number followed by a length unit, and where that number starts.
    private static func firstDistance(in scalars: [Unicode.Scalar]) -> (meters: Double, start: Int)? {
        var i = 0
        while i < scalars.count {
            guard digit(scalars[i]) != nil else { i += 1; continue }
            let start = i
            var value = 0.0
            var fraction = 0.0
            while i < scalars.count {
                if let d = digit(scalars[i]) {
                    if fraction > 0 { value += Double(d) * fraction; fraction /= 10 } else { value = value * 10 + Double(d) }
                } else if scalars[i] == ",", fraction == 0, isThousandsSeparator(scalars, at: i) {
                    // `1,000m`.
                } else if scalars[i] == ".", fraction == 0, i + 1 < scalars.count, digit(scalars[i + 1]) != nil {
                    fraction = 0.1
                } else {
                    break
                }
                i += 1
            }
            var unit = i
            while unit < scalars.count, scalars[unit] == " " { unit += 1 }
            if isMeterUnit(scalars, at: unit), value.isFinite { return (value, start) }
        }
        return nil
    }

    /// `m`, `M` or `ｍ` not followed by a letter or a square mark (`m²`, `m2`, `mm`, `min`), or `미터`.
    private static func isMeterUnit(_ scalars: [Unicode.Scalar], at i: Int) -> Bool {
        guard i < scalars.count else { return false }
        if scalars[i] == "미", i + 1 < scalars.count, scalars[i + 1] == "터" { return true }
        guard scalars[i] == "m" || scalars[i] == "M" || scalars[i] == "ｍ" || scalars[i] == "Ｍ" else { return false }
        guard i + 1 < scalars.count else { return true }
        let next = scalars[i + 1]
        if next == "²" || next == "2" || next == "³" || next == "3" { return false }
        if next.properties.isAlphabetic && next.isASCII {
            // `meter`, `meters`, `metre`: still meters.
            let rest = String(String.UnicodeScalarView(scalars[(i + 1)...].prefix(4))).lowercased()
            return rest.hasPrefix("eter") || rest.hasPrefix("etre")
        }
        return true
    }

    /// A comma followed by exactly three digits.
    private static func isThousandsSeparator(_ scalars: [Unicode.Scalar], at i: Int) -> Bool {
        guard i + 3 < scalars.count, (1...3).allSatisfy({ digit(scalars[i + $0]) != nil }) else { return false }
        return i + 4 == scalars.count || digit(scalars[i + 4]) == nil
    }

    /// An ASCII or full-width digit's value.
    private static func digit(_ scalar: Unicode.Scalar) -> Int? {
        switch scalar.value {
        case 0x30...0x39: return Int(scalar.value - 0x30)
        case 0xFF10...0xFF19: return Int(scalar.value - 0xFF10)
        default: return nil
        }
    }

    /// A size as published (`948`, ` 1,200 `, `1200㎡`, `1200m2`): the number it starts with, if
    /// the text is a number of square meters; nil for a blank, a non-number, zero, a negative or
    /// a length (`150m`: see `ZoneSize`).
    public static func number(_ text: some StringProtocol) -> Double? {
        var digits = ""
        var rest = Substring(String(text).trimmed)
        while let first = rest.unicodeScalars.first, digit(first) != nil || first == "." || first == "," {
            if let d = digit(first) { digits.append(Character(String(d))) } else if first == "." { digits.append(".") }
            rest = Substring(rest.unicodeScalars.dropFirst())
        }
        guard let value = Double(digits), value.isFinite, value > 0 else { return nil }
        return value
    }
}

/// A zone's size as published in its size column (금연구역면적): square meters for most rows,
/// a route's length in meters for some (one district's school routes put 150, 200, 310 there).
public enum ZoneSize: Sendable, Equatable {
    case none
    /// Square meters: a plain number, or one written with `㎡`, `m²` or `m2`.
    case squareMeters(Double)
    /// Meters: a number written with a length unit (`150m`, `150미터`).
    case meters(Double)
    /// Text that is no positive number (`n/a`, `-5`, `0`).
    case unreadable

    public init(_ text: String?) {
        guard let text, !text.allSatisfy({ $0.isWhitespace }) else { self = .none; return }
        guard let value = ExtentWords.number(text) else { self = .unreadable; return }
        let words = ExtentWords(text)
        if let stated = words.statedMeters, stated == value { self = .meters(value) } else { self = .squareMeters(value) }
    }

    /// The value as a length in meters: a length as stated, or a bare number (a route's size
    /// column holds its length).
    var asLength: Double? {
        switch self {
        case .meters(let meters), .squareMeters(let meters): return meters
        case .none, .unreadable: return nil
        }
    }
}
