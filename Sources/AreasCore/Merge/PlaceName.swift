/// The rule that decides whether two records' names name one place.
///
/// Sources write one place's name differently: with or without spaces and punctuation, with
/// the province or district in front (`서울특별시 용산구 용산역`), with a note in brackets
/// (`용산역(1번 출구 옆)`). The rule takes all of that away and then asks for the same name,
/// or one name inside the other with nothing but words (no number) added. It is
/// conservative on purpose: a number in what one name adds (`아이파크몰 8층 옥상` against
/// `아이파크몰`) names a floor, an exit or a booth, a different place, and two names that
/// differ otherwise (`아이파크몰 8층 옥상`, `아이파크몰 달 주차장 4.5층`) are never one
/// place however close they lie: several booths of one building share a position.
public enum PlaceName {
    /// `name` reduced to what tells places apart: bracketed notes dropped, leading province
    /// and district names dropped (`province`, `district`, or any province's usual name), then
    /// only letters and digits kept, ASCII letters in lower case and full-width forms made
    /// ASCII.
    public static func key(_ name: String, province: String = "", district: String = "") -> [Unicode.Scalar] {
        var words = withoutNotes(name).split(whereSeparator: \.isWhitespace).map(String.init)
        let regional = Set(district.split(whereSeparator: \.isWhitespace).map(String.init) + [province]).subtracting([""])
        while words.count > 1, regional.contains(words[0]) || provinceNames.contains(words[0]) { words.removeFirst() }
        var key: [Unicode.Scalar] = []
        for word in words {
            for scalar in word.unicodeScalars {
                var scalar = scalar
                // Full-width ASCII (`ＡＢ１`) as ASCII.
                if (0xFF01...0xFF5E).contains(scalar.value), let ascii = Unicode.Scalar(scalar.value - 0xFEE0) { scalar = ascii }
                if (0x41...0x5A).contains(scalar.value), let lower = Unicode.Scalar(scalar.value + 0x20) { scalar = lower }
                if scalar.properties.isAlphabetic || scalar.properties.numericType != nil { key.append(scalar) }
            }
        }
        return key
    }

    /// Whether two keys name one place: equal, or the shorter (two or more characters) inside
    /// the longer and what the longer adds holds no digit.
    public static func samePlace(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
        if a == b { return !a.isEmpty }
        let (short, long) = a.count < b.count ? (a, b) : (b, a)
        guard short.count >= 2, let start = firstOccurrence(of: short, in: long) else { return false }
        let added = long[..<start] + long[(start + short.count)...]
        return !added.contains { $0.properties.numericType != nil }
    }

    /// Whether two names, each with its record's province and district, name one place.
    public static func samePlace(_ a: String, _ b: String, province: String = "", district: String = "") -> Bool {
        samePlace(key(a, province: province, district: district), key(b, province: province, district: district))
    }

    /// `name` without what brackets enclose; a name that is all note keeps the note's words.
    static func withoutNotes(_ name: String) -> String {
        var kept = ""
        var depth = 0
        for character in name {
            if "([{（［【〔<〈《「『".contains(character) {
                depth += 1
                kept.append(" ")
            } else if ")]}）］】〕>〉》」』".contains(character) {
                depth = max(0, depth - 1)
                kept.append(" ")
            } else if depth == 0 {
                kept.append(character)
            }
        }
        if kept.allSatisfy(\.isWhitespace) {
            return String(name.map { "([{（［【〔<〈《「『)]}）］】〕>〉》」』".contains($0) ? " " : $0 })
        }
        return kept
    }

    static func firstOccurrence(of needle: [Unicode.Scalar], in haystack: [Unicode.Scalar]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }

    /// Each province's official and usual names, as a name may begin with one.
    static let provinceNames: Set<String> = [
        "서울특별시", "서울시", "서울", "부산광역시", "부산시", "부산", "대구광역시", "대구시", "대구",
        "인천광역시", "인천시", "인천", "광주광역시", "광주시", "광주", "대전광역시", "대전시", "대전",
        "울산광역시", "울산시", "울산", "세종특별자치시", "세종시", "세종", "경기도", "경기",
        "강원도", "강원특별자치도", "강원", "충청북도", "충북", "충청남도", "충남",
        "전라북도", "전북특별자치도", "전북", "전라남도", "전남", "경상북도", "경북", "경상남도", "경남",
        "제주특별자치도", "제주도", "제주",
    ]
}
