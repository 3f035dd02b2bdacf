import AreasCore

/// South Korea's provinces (시·도) and their districts (시·군·구) as publishers write them, from
/// `KoreanGazetteer`: how discovery tells a province or district column from any other, reads
/// the region an address or a name begins with, and finds a district's province when a file
/// names only the district (`서초구청` is in Seoul; `중구` is in six cities, so it says nothing
/// alone).
package enum KoreanRegions {
    /// Every way a province is written, its official name included.
    static let provinceAliases: [String: String] = {
        var aliases = KoreanGazetteer.provinceAliases
        for province in KoreanGazetteer.provinces { aliases[province.name] = province.name }
        return aliases
    }()

    static var districtProvinces: [String: [String]] { KoreanGazetteer.districtProvinces }

    /// The province `text` names (`서울`, `서울시`, `서울특별시`), in its official name.
    package static func province(_ text: String) -> String? { provinceAliases[text] }

    /// The district `text` names, allowing for the office (`서초구청`) some files give instead.
    package static func district(_ text: String) -> String? {
        if districtProvinces[text] != nil { return text }
        let name = RecordValidator.districtName(text)
        return districtProvinces[name] != nil ? name : nil
    }

    /// The one province that has a district of this name, if only one does.
    package static func onlyProvince(of district: String) -> String? {
        guard let names = districtProvinces[district], names.count == 1 else { return nil }
        return names[0]
    }

    /// The province and district the first words of `text` name (`서울특별시 강북구 도봉로 199`,
    /// `강북구 수유역 흡연부스 1`): either may be nil.
    package static func leadingRegion(of text: String) -> (province: String?, district: String?) {
        let words = text.split(separator: " ", maxSplits: 2).map(String.init)
        guard let first = words.first else { return (nil, nil) }
        if let province = province(first) {
            let district = words.count > 1 ? self.district(words[1]) : nil
            return (province, district.flatMap { d in districtProvinces[d]?.contains(province) == true ? d : nil })
        }
        return (nil, district(first))
    }
}
