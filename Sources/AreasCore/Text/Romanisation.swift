/// Hangul in the letters of the Revised Romanization, syllable by syllable, for matching a
/// district someone typed in Latin letters (`Yongsan`, `yongsan-gu`) with the Korean name the
/// data has. The sound changes between syllables are left out (종로 is `jongro`, where signs
/// say `Jongno`): a name that differs by them is suggested, by edit distance, not read as meant.
public enum Romanisation {
    private static let initials = ["g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h"]
    private static let vowels = ["a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi", "yu", "eu", "ui", "i"]
    private static let finals = ["", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t", "t", "ng", "t", "t", "k", "t", "p", "t"]

    /// `text` with each Hangul syllable in Latin letters and every other letter lowercased;
    /// what is neither (spaces, hyphens, punctuation) is left out.
    public static func letters(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let value = Int(scalar.value)
            if (0xAC00...0xD7A3).contains(value) {
                let syllable = value - 0xAC00
                out += initials[syllable / 588] + vowels[(syllable % 588) / 28] + finals[syllable % 28]
            } else if scalar.properties.isAlphabetic, scalar.isASCII {
                out += String(scalar).lowercased()
            }
        }
        return out
    }

    /// The ways a district name may be typed in Latin letters: whole (`yongsangu`), and without
    /// the last word's 구, 시 or 군 (`yongsan`); for a city's 구 (`안양시 동안구`), its own
    /// name alike (`dongangu`, `dongan`).
    public static func districtKeys(_ name: String) -> Set<String> {
        var keys: Set<String> = []
        let words = name.split(separator: " ").map(String.init)
        for text in Set([name, words.last ?? name]) {
            keys.insert(letters(text))
            if let last = text.last, "구시군".contains(last), text.count > 2 { keys.insert(letters(String(text.dropLast()))) }
        }
        keys.remove("")
        return keys
    }
}
