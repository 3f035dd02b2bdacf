/// An optional province and district that answers must lie in, matched against the upstream
/// province (시도) and district (시군구) fields.
public struct Region: Sendable, Hashable {
    public var province: String?
    public var district: String?

    public init(province: String? = nil, district: String? = nil) {
        self.province = province
        self.district = district
    }

    public static let anywhere = Region()

    public var isAnywhere: Bool { province == nil && district == nil }

    public func contains(_ area: borrowing Area) -> Bool {
        (province == nil || area.province == province) && (district == nil || area.district == district)
    }

    /// Short, former and romanised province names people use, mapped to the names upstream
    /// publishes (`KoreanGazetteer.provinceAliases`).
    public static var standardAliases: [String: String] { KoreanGazetteer.provinceAliases }

    /// The region with its province name resolved through `aliases`.
    public func resolved(_ aliases: [String: String]) -> Region {
        Region(province: province.map { aliases[$0] ?? $0 }, district: district)
    }
}
