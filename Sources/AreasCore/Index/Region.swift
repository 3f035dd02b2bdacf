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

/// The footprint given to a non-smoking zone, which upstream describes by one coordinate and
/// a size (`prhsmkAr`, m²): a circle of that area, its radius clamped to a range.
public struct FootprintPolicy: Sendable, Hashable {
    public var minimumMeters: Double
    public var maximumMeters: Double
    /// The upstream column that holds the size in square meters.
    public var sizeField: String

    public init(minimumMeters: Double = 10, maximumMeters: Double = 300, sizeField: String = "prhsmkAr") {
        self.minimumMeters = minimumMeters
        self.maximumMeters = maximumMeters
        self.sizeField = sizeField
    }

    public static let standard = FootprintPolicy()

    /// The footprint radius of a zone, in meters; the minimum when the size is missing or not a number.
    public func radius(of area: borrowing Area) -> Double {
        radius(size: area.field(sizeField))
    }

    /// The footprint radius of the zone at `position` in `table`, in meters.
    public func radius(of table: AreaTable, at position: Int) -> Double {
        radius(size: table.field(sizeField, of: position))
    }

    private func radius(size text: String?) -> Double {
        guard let text, let size = Double(text.trimmed), size.isFinite, size > 0 else {
            return minimumMeters
        }
        return Swift.min(Swift.max((size / Double.pi).squareRoot(), minimumMeters), maximumMeters)
    }
}
