extension AreaIndex {
    /// Why `region` can match nothing, when it names a province or district the data does not
    /// have: the names it has, and the one meant when the difference is small (`용산` for
    /// `용산구`, `서울툭별시` for `서울특별시`). Nil when the data has both names.
    public func unknownRegion(_ region: Region) -> String? {
        if let province = region.province {
            let known = regionNames.provinceNames.filter { !$0.isEmpty }
            if !known.contains(province) {
                return "the data has no province '\(province)'\(Self.meant(province, among: known)); it has: \(known.joined(separator: ", "))"
            }
        }
        if let district = region.district {
            let known = regionNames.districtNames.filter { !$0.isEmpty }
            if !known.contains(district) {
                let shown = known.count > 30 ? known.prefix(30).joined(separator: ", ") + " and \(known.count - 30) more" : known.joined(separator: ", ")
                return "the data has no district '\(district)'\(Self.meant(district, among: known)); it has: \(shown)"
            }
        }
        return nil
    }

    /// `" (did you mean 용산구?)"`: a name that begins with what was typed, else the closest.
    private static func meant(_ typed: String, among known: [String]) -> String {
        let started = known.filter { $0.hasPrefix(typed) }
        let guess = started.count == 1 ? started[0] : Suggestion.closest(to: typed, among: known, maximumDistance: 2)
        return guess.map { " (did you mean \($0)?)" } ?? ""
    }
}
