/// The rule that decides whether two records' names name one place.
///
/// Sources write one place's name differently: with or without spaces and punctuation, with
/// the province or district in front (`서울특별시 용산구 용산역`), with a note in brackets
/// (`이태원역 3번출구(개방형)`). The rule takes all of that away and then asks for the same name,
/// or one name inside the other with nothing but words (no number) added. It is
/// conservative on purpose: a number in what one name adds (`아이파크몰 8층 옥상` against
/// `아이파크몰`) names a floor, an exit or a booth, a different place, and two names that
/// differ otherwise (`아이파크몰 8층 옥상`, `아이파크몰 달 주차장 4.5층`) are never one
/// place however close they lie: several booths of one building share a position.
///
/// The same holds inside brackets. A note with a number (`놀이터(308동)`, `용산역(1번 출구 옆)`)
/// names a building, floor, exit or booth, so it stays part of the name; a note without one
/// (`(개방형)`, `[폐쇄형]`) describes the place and goes, unless both names carry such notes and
/// they differ (`시청(정문)`, `시청(후문)`): then they are two places.
///
/// A merge computes a key for most records of a refresh, so the key is made from the UTF-8
/// bytes as the table stores them, scalar by scalar, without a `String` or a grapheme.
public enum PlaceName {
    /// `name` reduced to what tells places apart, as UTF-8: leading province and district names
    /// dropped (`province`, the words of `district`, or any province's usual name), then only
    /// letters and digits kept, ASCII letters in lower case and full-width forms made ASCII.
    /// Bracketed notes with a number stay where they stand; the others follow, each after a
    /// zero byte (which no kept character contains), compared only with another name's such notes.
    public static func key(_ name: String, province: String = "", district: String = "") -> [UInt8] {
        var (name, province, district) = (name, province, district)
        return name.withUTF8 { n in province.withUTF8 { p in district.withUTF8 { d in key(utf8: n, province: p, district: d) } } }
    }

    /// The same, from UTF-8 bytes (a table's arena).
    public static func key(utf8 name: UnsafeBufferPointer<UInt8>, province: UnsafeBufferPointer<UInt8>, district: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var keyer = Keyer()
        return keyer.key(name, regional: regionalWords(province: province, district: district))
    }

    /// The words a name may begin with that name its record's own region.
    static func regionalWords(province: UnsafeBufferPointer<UInt8>, district: UnsafeBufferPointer<UInt8>) -> [[UInt32]] {
        (words(decode(district)) + [decode(province)]).filter { !$0.isEmpty }
    }

    /// Makes keys one after another in the same scratch space: a merge makes one for most
    /// records of a refresh, and the scratch arrays would otherwise be allocated for each.
    struct Keyer {
        private var scalars: [UInt32] = []
        private var kept: [UInt32] = []
        /// The notes without a number, and the note being read.
        private var notes: [UInt32] = []
        private var note: [UInt32] = []
        private var words: [Range<Int>] = []

        mutating func key(_ name: UnsafeBufferPointer<UInt8>, regional: [[UInt32]]) -> [UInt8] {
            PlaceName.decode(name, into: &scalars)
            // A note with a number stays in the name; the others are set apart. A name that is
            // all note keeps the note's words.
            kept.removeAll(keepingCapacity: true)
            notes.removeAll(keepingCapacity: true)
            note.removeAll(keepingCapacity: true)
            var depth = 0
            var anyWord = false
            func endNote() {
                if note.contains(where: isDigit) { kept.append(0x20); kept += note } else { notes.append(0); notes += note }
                kept.append(0x20)
                note.removeAll(keepingCapacity: true)
            }
            for v in scalars {
                if isOpening(v) {
                    if depth == 0 { kept.append(0x20) } else { note.append(0x20) }
                    depth += 1
                } else if isClosing(v) {
                    guard depth > 0 else { kept.append(0x20); continue }
                    depth -= 1
                    if depth == 0 { endNote() } else { note.append(0x20) }
                } else if depth == 0 {
                    kept.append(v)
                    anyWord = anyWord || !isSpace(v)
                } else {
                    note.append(v)
                }
            }
            if depth > 0 { endNote() }  // a note left open at the end
            if !anyWord {
                kept.removeAll(keepingCapacity: true)
                notes.removeAll(keepingCapacity: true)
                for v in scalars { kept.append(isOpening(v) || isClosing(v) ? 0x20 : v) }
            }
            // Leading regional words, while another word follows.
            PlaceName.split(kept, into: &words)
            var firstWord = 0
            while words.count - firstWord > 1 {
                let first = kept[words[firstWord]]
                guard regional.contains(where: { $0.elementsEqual(first) }) || isProvinceName(first) else { break }
                firstWord += 1
            }
            var key: [UInt8] = []
            key.reserveCapacity(name.count)
            for word in words[firstWord...] { Self.appendFolded(kept[word], to: &key) }
            for note in notes.split(separator: 0) {
                let start = key.count
                key.append(0)
                Self.appendFolded(note, to: &key)
                if key.count == start + 1 { key.removeLast() }  // nothing but punctuation
            }
            return key
        }

        /// Letters and digits only, full-width forms made ASCII and ASCII letters lower case.
        private static func appendFolded(_ scalars: ArraySlice<UInt32>, to key: inout [UInt8]) {
            for var v in scalars {
                if (0xFF01...0xFF5E).contains(v) { v -= 0xFEE0 }  // full-width ASCII
                if (0x41...0x5A).contains(v) { v += 0x20 }
                guard isLetterOrDigit(v) else { continue }
                append(v, to: &key)
            }
        }
    }

    /// Whether two keys name one place: their unnumbered notes, when both have some, do not
    /// disagree (the fewer are all among the others: `(정문)` and `(정문)[개방형]`, not `(정문)` and
    /// `(후문)`); and their names are equal, or the shorter (two or more characters) lies inside
    /// the longer and what the longer adds holds no digit.
    public static func samePlace(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        if a == b { return a.first.map { $0 != 0 } ?? false }
        let partsA = a.split(separator: 0, omittingEmptySubsequences: false)
        let partsB = b.split(separator: 0, omittingEmptySubsequences: false)
        let (notesA, notesB) = (partsA.dropFirst(), partsB.dropFirst())
        if !notesA.isEmpty && !notesB.isEmpty {
            let (fewer, more) = notesA.count <= notesB.count ? (notesA, notesB) : (notesB, notesA)
            guard fewer.allSatisfy({ note in more.contains { $0.elementsEqual(note) } }) else { return false }
        }
        return sameName(partsA.first ?? [], partsB.first ?? [])
    }

    /// A key without its unnumbered notes: what an address is compared by.
    public static func mainPart(_ key: [UInt8]) -> [UInt8] {
        guard let end = key.firstIndex(of: 0) else { return key }
        return Array(key[..<end])
    }

    /// The digits of a key's name, in order (its unnumbered notes hold none): `놀이터(308동)`
    /// gives `308`. Two names whose digits differ name different floors, exits or buildings.
    public static func digits(_ key: [UInt8]) -> [UInt8] {
        var digits: [UInt8] = []
        for byte in key {
            if byte == 0 { break }
            if (0x30...0x39).contains(byte) { digits.append(byte) }
        }
        return digits
    }

    private static func sameName(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        if a.elementsEqual(b) { return !a.isEmpty }
        let (short, long) = a.count < b.count ? (Array(a), Array(b)) : (Array(b), Array(a))
        // Two characters: two ASCII bytes, or one Hangul syllable's three.
        guard short.count >= 2, characterCount(short) >= 2 else { return false }
        // UTF-8 synchronises itself: a match of whole scalars starts on a scalar boundary.
        guard let start = firstOccurrence(of: short, in: long) else { return false }
        let added = Array(long[..<start]) + Array(long[(start + short.count)...])
        return !decode(added).contains(where: isDigit)
    }

    /// Whether two names, each with its record's province and district, name one place.
    public static func samePlace(_ a: String, _ b: String, province: String = "", district: String = "") -> Bool {
        samePlace(key(a, province: province, district: district), key(b, province: province, district: district))
    }

    // MARK: Scalars

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt32] {
        var scalars: [UInt32] = []
        decode(bytes, into: &scalars)
        return scalars
    }

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, into scalars: inout [UInt32]) {
        scalars.removeAll(keepingCapacity: true)
        var i = 0
        while i < bytes.count {
            let b = UInt32(bytes[i])
            if b < 0x80 { scalars.append(b); i += 1; continue }
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            guard i + length <= bytes.count else { break }
            var v = b & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for j in 1..<length { v = v << 6 | UInt32(bytes[i + j] & 0x3F) }
            scalars.append(v)
            i += length
        }
    }

    static func decode(_ bytes: [UInt8]) -> [UInt32] { bytes.withUnsafeBufferPointer(decode) }

    static func append(_ v: UInt32, to bytes: inout [UInt8]) {
        switch v {
        case ..<0x80:
            bytes.append(UInt8(v))
        case ..<0x800:
            bytes.append(UInt8(0xC0 | v >> 6))
            bytes.append(UInt8(0x80 | v & 0x3F))
        case ..<0x10000:
            bytes.append(UInt8(0xE0 | v >> 12))
            bytes.append(UInt8(0x80 | v >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | v & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | v >> 18))
            bytes.append(UInt8(0x80 | v >> 12 & 0x3F))
            bytes.append(UInt8(0x80 | v >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | v & 0x3F))
        }
    }

    static func characterCount(_ utf8: [UInt8]) -> Int { utf8.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } }

    static func isSpace(_ v: UInt32) -> Bool { v == 0x20 || (0x09...0x0D).contains(v) || v == 0xA0 || v == 0x3000 }

    /// `([{<`, their full-width forms and the CJK brackets `〈《「『【〔`.
    static func isOpening(_ v: UInt32) -> Bool {
        switch v {
        case 0x28, 0x5B, 0x7B, 0x3C, 0xFF08, 0xFF3B, 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014: return true
        default: return false
        }
    }

    static func isClosing(_ v: UInt32) -> Bool {
        switch v {
        case 0x29, 0x5D, 0x7D, 0x3E, 0xFF09, 0xFF3D, 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015: return true
        default: return false
        }
    }

    /// Letters and digits, with the scripts place names use decided without a table lookup.
    static func isLetterOrDigit(_ v: UInt32) -> Bool {
        switch v {
        case 0x30...0x39, 0x61...0x7A, 0xAC00...0xD7A3, 0x1100...0x11FF, 0x3131...0x318E, 0x4E00...0x9FFF: return true
        case ..<0x80: return false
        default:
            guard let scalar = Unicode.Scalar(v) else { return false }
            return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
    }

    static func isDigit(_ v: UInt32) -> Bool {
        if v < 0x80 { return (0x30...0x39).contains(v) }
        if (0xAC00...0xD7A3).contains(v) { return false }
        return Unicode.Scalar(v).map { $0.properties.numericType != nil } ?? false
    }

    /// Words: runs of scalars between spaces, as index ranges.
    static func split(_ scalars: [UInt32]) -> [Range<Int>] {
        var words: [Range<Int>] = []
        split(scalars, into: &words)
        return words
    }

    static func split(_ scalars: [UInt32], into words: inout [Range<Int>]) {
        words.removeAll(keepingCapacity: true)
        var start: Int?
        for (i, v) in scalars.enumerated() {
            if isSpace(v) {
                if let s = start { words.append(s..<i); start = nil }
            } else if start == nil {
                start = i
            }
        }
        if let s = start { words.append(s..<scalars.count) }
    }

    static func words(_ scalars: [UInt32]) -> [[UInt32]] { split(scalars).map { Array(scalars[$0]) } }

    static func firstOccurrence(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == first {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }

    static func isProvinceName(_ word: ArraySlice<UInt32>) -> Bool {
        // Every such name begins with one of a dozen syllables: most words are told at once.
        guard (2...7).contains(word.count), let first = word.first, provinceInitials.contains(first) else { return false }
        return provinceNames.contains(Array(word))
    }

    static let provinceInitials: Set<UInt32> = Set(provinceNames.compactMap(\.first))

    /// Each province's official and usual names, as a name may begin with one.
    static let provinceNames: Set<[UInt32]> = Set(KoreanGazetteer.provinceWritings.map { $0.unicodeScalars.map(\.value) })
}
