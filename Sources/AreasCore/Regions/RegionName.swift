/// How the boundary data's names become the names answers show, and every way a stated
/// district name is written.
public enum RegionName {
    /// The name a person expects for a region published as `published`: a province by its
    /// official name today (`전라북도` is `전북특별자치도` since 2024); a district without a
    /// province written before it (`서울시성북구` is `성북구`) and with its city apart from its
    /// 구 (`수원시장안구` is `수원시 장안구`); a town as published.
    public static func proper(_ published: String, level: RegionMap.Level) -> String {
        switch level {
        case .province:
            return KoreanGazetteer.provinceAliases[published] ?? published
        case .district:
            var name = Substring(published)
            // Only a province written with its 시 or 도: `부산진구` begins with `부산` and is no prefix.
            if let prefix = provinceWritingsLongestFirst.first(where: { name.hasPrefix($0) && name.count - $0.count >= 2 }) {
                name = name.dropFirst(prefix.count)
            }
            let characters = Array(name)
            if characters.last == "구", let city = characters.indices.dropFirst().dropLast(2).first(where: { characters[$0] == "시" }) {
                return String(characters[...city]) + " " + String(characters[(city + 1)...])
            }
            return String(name)
        case .town:
            return published
        }
    }

    private static let provinceWritingsLongestFirst: [String] = KoreanGazetteer.provinceWritings
        .filter { $0.hasSuffix("시") || $0.hasSuffix("도") }
        .sorted { $0.count > $1.count }

    /// Every way a district whose proper name is `proper` is written, without white space: the
    /// proper and the published name, and for a 구 of a city, the city alone and the 구 alone.
    static func writings(ofDistrict proper: String, published: String) -> [String] {
        var writings = [compact(proper), compact(published)]
        let parts = proper.split(separator: " ")
        if parts.count == 2 { writings += parts.map(String.init) }
        return writings
    }

    /// `name` without white space: `수원시 장안구` and `수원시장안구` are one name.
    public static func compact(_ name: String) -> String {
        name.contains(where: \.isWhitespace) ? String(name.filter { !$0.isWhitespace }) : name
    }

    public static func powerOfTen(_ exponent: Int) -> UInt32 {
        (0..<exponent).reduce(UInt32(1)) { value, _ in value * 10 }
    }
}
