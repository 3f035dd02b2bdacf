extension AreaIndex {
    /// How a district the data has no exact name for was read, when it stands for names the
    /// data has (`district '용산' read as 용산구`); nil when it is read as written or as nothing.
    public func regionReading(_ region: Region) -> String? {
        guard let district = region.district else { return nil }
        let meant = regionNames.districtsMeant(by: district)
        guard !meant.isEmpty else { return nil }
        return "district '\(district)' read as \(meant.count == 1 ? meant[0] : "its districts " + meant.joined(separator: ", "))"
    }

    /// Why `region` can match nothing, when it names a province or district the data does not
    /// have: the names it has, and the one meant when the difference is small (`용산구` for
    /// `용산` where two names begin so, `서울특별시` for `서을`, `용산구` for `Yongsa`). Nil when
    /// the data has both names, or a district stands for names it has.
    public func unknownRegion(_ region: Region) -> String? {
        if let province = region.province {
            let known = regionNames.provinceNames.filter { !$0.isEmpty }
            if !known.contains(province) {
                // Short, former and romanised names count as the province they name.
                var writings: [String: String] = Dictionary(known.map { ($0, $0) }, uniquingKeysWith: { a, _ in a })
                for (alias, official) in Region.standardAliases where known.contains(official) { writings[alias] = official }
                let guess = Self.meant(province, among: writings.keys.sorted()).flatMap { writings[$0] }
                return "the data has no province '\(province)'\(Self.didYouMean(guess)); it has: \(known.joined(separator: ", "))"
            }
        }
        if let district = region.district {
            let known = regionNames.districtNames.filter { !$0.isEmpty }
            if !known.contains(district) && regionNames.districtsMeant(by: district).isEmpty {
                let shown = known.count > 30 ? known.prefix(30).joined(separator: ", ") + " and \(known.count - 30) more" : known.joined(separator: ", ")
                return "the data has no district '\(district)'\(Self.didYouMean(Self.meant(district, among: known))); it has: \(shown)"
            }
        }
        return nil
    }

    /// The name probably meant: one that begins with what was typed, else the closest by edit
    /// distance, in Hangul or, for Latin letters, in their romanised spelling.
    private static func meant(_ typed: String, among known: [String]) -> String? {
        let started = known.filter { $0.hasPrefix(typed) }
        if started.count >= 1 { return started.count == 1 ? started[0] : started.min { $0.count < $1.count } }
        // One syllable apart in a short name is already another place (강남구, 북구).
        if let close = Suggestion.closest(to: typed, among: known, maximumDistance: typed.count >= 5 ? 2 : 1) { return close }
        guard typed.unicodeScalars.allSatisfy(\.isASCII) else { return nil }
        let latin = Romanisation.letters(typed)
        var best: (name: String, distance: Int)?
        for name in known {
            for key in Romanisation.districtKeys(name) {
                let distance = Suggestion.editDistance(key, latin)
                if distance <= 2 && distance < (best?.distance ?? .max) { best = (name, distance) }
            }
        }
        return best?.name
    }

    private static func didYouMean(_ name: String?) -> String {
        name.map { " (did you mean \($0)?)" } ?? ""
    }
}
