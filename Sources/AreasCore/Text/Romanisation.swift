/// Hangul in the letters of the Revised Romanization, syllable by syllable, for matching a
/// district someone typed in Latin letters (`Yongsan`, `yongsan-gu`) with the Korean name the
/// data has. A name is keyed both syllable by syllable (`letters`: 종로 `jongro`) and with the
/// sound changes signs spell (`spoken`: `Jongno`); one that differs from both is suggested, by
/// edit distance, not read as meant.
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

    /// The ways a region's name may be typed in Latin letters, for search: a province's as it
    /// writes itself (`Seoul`, `Gyeonggi-do` and `Gyeonggi`) and letter by letter; a
    /// district's as `districtKeys`; a town's whole (`itaewondong`: without its 동 it would be
    /// every 용산동 of the country, not the district 용산구).
    public static func placeKeys(_ name: String, level: RegionMap.Level) -> Set<String> {
        switch level {
        case .province:
            var keys = Set([letters(name)])
            for province in KoreanGazetteer.provinces where province.name == name || province.otherNames.contains(name) {
                keys.insert(spoken(name))
                for written in province.romanised + province.otherNames {
                    keys.insert(letters(written))
                    if let dash = written.lastIndex(of: "-") { keys.insert(letters(String(written[..<dash]))) }
                }
            }
            keys.remove("")
            return keys
        case .district:
            return districtKeys(name)
        case .town:
            return Set([letters(name), spoken(name)]).subtracting([""])
        }
    }

    /// The ways a district name may be typed in Latin letters: whole (`yongsangu`), and without
    /// the last word's 구, 시 or 군 (`yongsan`); for a city's 구 (`안양시 동안구`), its own
    /// name alike (`dongangu`, `dongan`).
    public static func districtKeys(_ name: String) -> Set<String> {
        var keys: Set<String> = []
        let words = name.split(separator: " ").map(String.init)
        for text in Set([name, words.last ?? name]) {
            keys.insert(letters(text))
            keys.insert(spoken(text))
            if let last = text.last, "구시군".contains(last), text.count > 2 {
                keys.insert(letters(String(text.dropLast())))
                keys.insert(spoken(String(text.dropLast())))
            }
        }
        keys.remove("")
        return keys
    }

    /// `text` romanised as signs write it: with the sound changes between syllables that the
    /// Revised Romanization spells (종로 `jongno`, 중랑 `jungnang`, 신림 `sillim`, 국민
    /// `gungmin`, 독립 `dongnip`), where `letters` spells each syllable alone.
    public static func spoken(_ text: String) -> String {
        var syllables: [(initial: String, vowel: String, final: String)?] = []
        var out = ""
        func flush() {
            for case let syllable? in syllables { out += syllable.initial + syllable.vowel + syllable.final }
            syllables.removeAll()
        }
        for scalar in text.unicodeScalars {
            let value = Int(scalar.value)
            if (0xAC00...0xD7A3).contains(value) {
                let syllable = value - 0xAC00
                var next = (initial: initials[syllable / 588], vowel: vowels[(syllable % 588) / 28], final: finals[syllable % 28])
                if let before = syllables.last, var previous = before {
                    switch (previous.final, next.initial) {
                    case ("ng", "r"), ("m", "r"): next.initial = "n"
                    case ("k", "r"): (previous.final, next.initial) = ("ng", "n")
                    case ("p", "r"): (previous.final, next.initial) = ("m", "n")
                    case ("n", "r"), ("l", "n"): (previous.final, next.initial) = ("l", "l")
                    case ("k", "n"), ("k", "m"): previous.final = "ng"
                    case ("p", "n"), ("p", "m"): previous.final = "m"
                    case ("t", "n"), ("t", "m"): previous.final = "n"
                    // A final before a vowel is read as the next syllable's initial.
                    case ("k", ""): (previous.final, next.initial) = ("", "g")
                    case ("p", ""): (previous.final, next.initial) = ("", "b")
                    case ("l", ""): (previous.final, next.initial) = ("", "r")
                    case ("t", ""): (previous.final, next.initial) = ("", "d")
                    default: break
                    }
                    syllables[syllables.count - 1] = previous
                }
                syllables.append(next)
            } else {
                flush()
                if scalar.properties.isAlphabetic, scalar.isASCII { out += String(scalar).lowercased() }
            }
        }
        flush()
        return out
    }
}
