/// What a publisher's words for a zone's extent (금연구역범위상세) say, as far as the footprint
/// rule reads them: a stated distance and what it is measured from, a school or walking route,
/// the whole facility.
///
/// The words are free text written by hundreds of district offices. Measured on one release of
/// Seoul's standard data: about half state a distance (`버스승차대 좌우끝으로부터 반경 10미터이내`,
/// `어린이집 시설경계로부터 10m 이내`, `학교출입문으로부터 50미터 이내`), about a third say the whole
/// facility (`시설전체`, `공원전체`, `건물 및 대지 전체`). Anything else is not understood, and
/// counted as such, rather than guessed at.
///
/// Read on the UTF-8 bytes as stored: the rule runs for every zone of every refresh.
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
        var text = String(text)
        self = text.withUTF8 { ExtentWords(utf8: $0) }
    }

    public init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        isBlank = Self.blank(bytes)
        if isBlank { return }
        namesRoute = Self.routeWords.contains { Self.find($0, in: bytes) }
        namesWholeFacility = Self.wholeWords.contains { Self.find($0, in: bytes) }
        guard let (meters, start, _) = Self.firstDistance(in: bytes) else { return }
        statedMeters = meters
        let before = UnsafeBufferPointer(rebasing: bytes[..<start])
        fromBoundary = Self.boundaryWords.contains { Self.find($0, in: before) }
    }

    static let routeWords = ["통학로", "보행로"].map { Array($0.utf8) }
    static let wholeWords = ["전체", "부지", "내"].map { Array($0.utf8) }
    static let boundaryWords = ["경계", "건물", "건축물"].map { Array($0.utf8) }

    /// Whether `needle` occurs in `bytes`.
    static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !needle.isEmpty, bytes.count >= needle.count else { return false }
        let first = needle[0]
        var i = 0
        while i + needle.count <= bytes.count {
            if bytes[i] == first {
                var j = 1
                while j < needle.count && bytes[i + j] == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            i += 1
        }
        return false
    }

    /// Whether the bytes are only ASCII white space, no-break spaces and ideographic spaces.
    static func blank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            case 0xC2 where i + 1 < bytes.count && bytes[i + 1] == 0xA0: i += 2
            case 0xE3 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && bytes[i + 2] == 0x80: i += 3
            default: return false
            }
        }
        return true
    }

    /// An ASCII or full-width digit at `i`: its value and its length in bytes.
    @inline(__always)
    static func digit(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (value: Int, length: Int)? {
        let byte = bytes[i]
        if byte >= 0x30 && byte <= 0x39 { return (Int(byte - 0x30), 1) }
        // U+FF10 ... U+FF19: EF BC 90 ... EF BC 99.
        if byte == 0xEF, i + 2 < bytes.count, bytes[i + 1] == 0xBC, bytes[i + 2] >= 0x90, bytes[i + 2] <= 0x99 { return (Int(bytes[i + 2] - 0x90), 3) }
        return nil
    }

    /// The number starting at `i` (digits, thousands separators, one decimal point): its value
    /// and where it ends. A run of digits too long for a number (its value infinite) still
    /// ends where it ends, so a reader goes on after it rather than a byte further into it.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (value: Double, end: Int)? {
        var i = start
        var value = 0.0
        var scale = 0.0
        var digits = 0
        while i < bytes.count {
            if let (d, length) = digit(bytes, at: i) {
                if scale > 0 { value += Double(d) * scale; scale /= 10 } else { value = value * 10 + Double(d) }
                digits += 1
                i += length
            } else if bytes[i] == UInt8(ascii: ","), scale == 0, digits > 0, isThousandsSeparator(bytes, at: i) {
                i += 1
            } else if bytes[i] == UInt8(ascii: "."), scale == 0, digits > 0, i + 1 < bytes.count, digit(bytes, at: i + 1) != nil {
                scale = 0.1
                i += 1
            } else {
                break
            }
        }
        return digits > 0 ? (value, i) : nil
    }

    /// A comma followed by exactly three digits.
    static func isThousandsSeparator(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        var j = i + 1
        for _ in 0..<3 {
            guard j < bytes.count, let (_, length) = digit(bytes, at: j) else { return false }
            j += length
        }
        return j == bytes.count || digit(bytes, at: j) == nil
    }

    /// The first number followed by a length unit: its value, where it starts and where its
    /// unit ends.
    static func firstDistance(in bytes: UnsafeBufferPointer<UInt8>) -> (meters: Double, start: Int, end: Int)? {
        var steps = 0
        return firstDistance(in: bytes, steps: &steps)
    }

    /// The same, counting in `steps` the bytes it read (each read once: the work is linear in
    /// the words, however long a run of digits they hold).
    package static func firstDistance(in bytes: UnsafeBufferPointer<UInt8>, steps: inout Int) -> (meters: Double, start: Int, end: Int)? {
        var i = 0
        while i < bytes.count {
            steps += 1
            guard digit(bytes, at: i) != nil, let (value, end) = number(bytes, at: i) else { i += 1; continue }
            steps += end - i
            if value.isFinite, let unitEnd = meterUnit(bytes, after: end) { return (value, i, unitEnd) }
            i = end
        }
        return nil
    }

    /// Where a meter unit that follows `start` (after spaces) ends: `m`, `M`, `ｍ` or `Ｍ` not
    /// followed by a letter or a square mark (`m²`, `m2`, `mm`, `min`), `meter(s)`, or `미터`.
    static func meterUnit(_ bytes: UnsafeBufferPointer<UInt8>, after start: Int) -> Int? {
        var i = start
        while i < bytes.count, bytes[i] == 0x20 { i += 1 }
        guard i < bytes.count else { return nil }
        let meter: [UInt8] = [0xEB, 0xAF, 0xB8, 0xED, 0x84, 0xB0]  // 미터
        if i + meter.count <= bytes.count, (0..<meter.count).allSatisfy({ bytes[i + $0] == meter[$0] }) { return i + meter.count }
        var next: Int
        if bytes[i] == UInt8(ascii: "m") || bytes[i] == UInt8(ascii: "M") {
            next = i + 1
        } else if bytes[i] == 0xEF, i + 2 < bytes.count, (bytes[i + 1] == 0xBD && bytes[i + 2] == 0x8D) || (bytes[i + 1] == 0xBC && bytes[i + 2] == 0xAD) {
            next = i + 3  // ｍ, Ｍ
        } else {
            return nil
        }
        guard next < bytes.count else { return next }
        let following = bytes[next]
        if following == UInt8(ascii: "2") || following == UInt8(ascii: "3") { return nil }
        if following == 0xC2, next + 1 < bytes.count, bytes[next + 1] == 0xB2 || bytes[next + 1] == 0xB3 { return nil }  // ² ³
        let isLetter = (following | 0x20) >= UInt8(ascii: "a") && (following | 0x20) <= UInt8(ascii: "z")
        if isLetter {
            // `meter`, `meters`, `metre`: still meters.
            guard next + 4 <= bytes.count else { return nil }
            let rest = (0..<4).map { bytes[next + $0] | 0x20 }
            guard rest == Array("eter".utf8) || rest == Array("etre".utf8) else { return nil }
            next += 4
        }
        return next
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
        guard var text else { self = .none; return }
        self = text.withUTF8 { ZoneSize(utf8: $0) }
    }

    public init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard !ExtentWords.blank(bytes) else { self = .none; return }
        var i = 0
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        guard i < bytes.count, ExtentWords.digit(bytes, at: i) != nil, let (value, end) = ExtentWords.number(bytes, at: i), value > 0, value.isFinite else {
            self = .unreadable
            return
        }
        self = ExtentWords.meterUnit(bytes, after: end) != nil ? .meters(value) : .squareMeters(value)
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
