/// Text as search compares it: the letters and digits alone, in one form.
///
/// Two writings of a place match when they differ only in white space (`서울역 광장`,
/// `서울역광장`), punctuation and symbols (`5번-출구`, `(주)`), letter case (`KT`, `kt`), the
/// full-width forms Korean input methods type (`ＫＴ`, `１２`), or Hangul written as
/// separate jamo (a file saved on a Mac in NFD), which is composed back into syllables. The
/// index and every query fold through this one function, so they cannot disagree.
public enum SearchText {
    /// A folded character: a Unicode scalar value, never 0 (0 ends a text in the index's keys).
    public typealias Letter = UInt32

    /// Appends the letters of `utf8` (valid UTF-8) to `letters`.
    public static func fold(_ utf8: UnsafeBufferPointer<UInt8>, into letters: inout [Letter]) {
        var i = 0
        let count = utf8.count
        var pendingLead: UInt32 = 0
        while i < count {
            let first = UInt32(utf8[i])
            var scalar: UInt32
            if first < 0x80 {
                scalar = first
                i += 1
            } else if first < 0xE0, i + 1 < count {
                scalar = (first & 0x1F) << 6 | UInt32(utf8[i + 1] & 0x3F)
                i += 2
            } else if first < 0xF0, i + 2 < count {
                scalar = (first & 0x0F) << 12 | UInt32(utf8[i + 1] & 0x3F) << 6 | UInt32(utf8[i + 2] & 0x3F)
                i += 3
            } else if i + 3 < count {
                scalar = (first & 0x07) << 18 | UInt32(utf8[i + 1] & 0x3F) << 12 | UInt32(utf8[i + 2] & 0x3F) << 6 | UInt32(utf8[i + 3] & 0x3F)
                i += 4
            } else {
                break
            }
            // Most letters are whole syllables: kept as they are.
            if scalar >= 0xAC00, scalar <= 0xD7A3 {
                if pendingLead != 0 {
                    letters.append(compatibilityJamo(pendingLead))
                    pendingLead = 0
                }
                letters.append(scalar)
                continue
            }
            // Conjoining jamo: a leading consonant and a vowel make a syllable, which a
            // trailing consonant may close.
            if (0x1161...0x1175).contains(scalar), pendingLead != 0 {
                letters.append(0xAC00 + ((pendingLead - 0x1100) * 21 + (scalar - 0x1161)) * 28)
                pendingLead = 0
                continue
            }
            if pendingLead != 0 {
                letters.append(compatibilityJamo(pendingLead))
                pendingLead = 0
            }
            if (0x11A8...0x11C2).contains(scalar), let last = letters.last, (0xAC00...0xD7A3).contains(last), (last - 0xAC00) % 28 == 0 {
                letters[letters.count - 1] = last + scalar - 0x11A7
                continue
            }
            if (0x1100...0x1112).contains(scalar) {
                pendingLead = scalar
                continue
            }
            if let letter = letter(scalar) { letters.append(letter) }
        }
        if pendingLead != 0 { letters.append(compatibilityJamo(pendingLead)) }
    }

    /// The letters of `text`.
    public static func fold(_ text: String) -> [Letter] {
        var text = text
        var letters: [Letter] = []
        text.withUTF8 { fold($0, into: &letters) }
        return letters
    }

    /// A query's words (split at white space), each folded; words with no letter or digit
    /// are dropped.
    public static func words(of query: String) -> [[Letter]] {
        query.split(whereSeparator: { $0.isWhitespace }).map { fold(String($0)) }.filter { !$0.isEmpty }
    }

    /// The scalar as search keeps it, or nil for white space, punctuation and symbols.
    @inline(__always)
    static func letter(_ scalar: UInt32) -> Letter? {
        switch scalar {
        case 0x30...0x39, 0x61...0x7A: return scalar
        case 0x41...0x5A: return scalar + 0x20
        case 0..<0x80: return nil
        case 0xAC00...0xD7A3, 0x3131...0x318E, 0x4E00...0x9FFF: return scalar
        case 0xFF10...0xFF19: return scalar - 0xFEE0
        case 0xFF21...0xFF3A: return scalar - 0xFEE0 + 0x20
        case 0xFF41...0xFF5A: return scalar - 0xFEE0
        default:
            guard let unicode = Unicode.Scalar(scalar) else { return nil }
            let properties = unicode.properties
            guard properties.isAlphabetic || properties.numericType != nil else { return nil }
            // One case for letters that have two (Latin with accents, Greek, Cyrillic).
            if properties.changesWhenLowercased, let lower = properties.lowercaseMapping.unicodeScalars.first,
               properties.lowercaseMapping.unicodeScalars.count == 1 {
                return lower.value
            }
            return scalar
        }
    }

    /// A leading consonant (U+1100...) left alone, as the compatibility jamo a keyboard types.
    private static func compatibilityJamo(_ lead: UInt32) -> Letter {
        let table: [UInt32] = [0x3131, 0x3132, 0x3134, 0x3137, 0x3138, 0x3139, 0x3141, 0x3142, 0x3143, 0x3145,
                               0x3146, 0x3147, 0x3148, 0x3149, 0x314A, 0x314B, 0x314C, 0x314D, 0x314E]
        return table[Int(lead - 0x1100)]
    }

    /// Whether `word` occurs in `text`, letter for letter.
    public static func contains(_ text: [Letter], _ word: [Letter]) -> Bool {
        guard !word.isEmpty else { return true }
        guard text.count >= word.count else { return false }
        let first = word[0]
        for start in 0...(text.count - word.count) where text[start] == first {
            var i = 1
            while i < word.count && text[start + i] == word[i] { i += 1 }
            if i == word.count { return true }
        }
        return false
    }
}
