/// The province and district every row of a file belongs to, when the file has no column for
/// them but says so anyway: every address begins `서울특별시 강북구`, every name begins `동작구`,
/// or its district column names districts of one province only.
struct RegionConstants: Sendable {
    struct Constant: Sendable {
        var value: String
        var why: String
    }

    var province: Constant?
    var district: Constant?

    init(_ chosen: DiscoveredColumns, profiles: [ColumnProfile]) {
        func profile(_ choice: DiscoveredColumns.Choice?) -> ColumnProfile? {
            choice.flatMap { c in profiles.first { $0.name == c.column } }
        }
        // Addresses first, then names: which of them names one region on most of its rows.
        let speakers = [("address", profile(chosen.address)), ("name", profile(chosen.name))].compactMap { label, p in p.map { (label, $0) } }
        func single(_ counts: [String: Int], of p: ColumnProfile) -> String? {
            guard counts.count == 1, let (value, count) = counts.first, 2 * count >= p.filled else { return nil }
            return value
        }
        if chosen.district == nil {
            for (label, p) in speakers {
                if let value = single(p.leadingDistricts, of: p) {
                    district = Constant(value: value, why: "every \(label) that names a district names \(value)")
                    break
                }
            }
        }
        guard chosen.province == nil else { return }
        for (label, p) in speakers {
            if let value = single(p.leadingProvinces, of: p) {
                province = Constant(value: value, why: "every \(label) that names a province names \(value)")
                return
            }
        }
        let districts: [String]
        if let column = profile(chosen.district) { districts = Array(column.districtValues.keys) } else { districts = district.map { [$0.value] } ?? [] }
        let provinces = Set(districts.map { KoreanRegions.onlyProvince(of: $0) })
        if !districts.isEmpty, provinces.count == 1, let only = provinces.first, let value = only {
            province = Constant(value: value, why: "the only province with \(districts.sorted().prefix(3).joined(separator: ", "))")
        }
    }
}
