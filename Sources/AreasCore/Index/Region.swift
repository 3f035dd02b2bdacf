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

    /// Short and former province names people use, mapped to the names upstream publishes.
    public static let standardAliases: [String: String] = [
        "서울": "서울특별시", "서울시": "서울특별시", "부산": "부산광역시", "부산시": "부산광역시",
        "대구": "대구광역시", "인천": "인천광역시", "광주": "광주광역시", "대전": "대전광역시",
        "울산": "울산광역시", "세종": "세종특별자치시", "세종시": "세종특별자치시", "경기": "경기도",
        "강원": "강원특별자치도", "강원도": "강원특별자치도", "충북": "충청북도", "충남": "충청남도",
        "전북": "전북특별자치도", "전라북도": "전북특별자치도", "전남": "전라남도", "경북": "경상북도",
        "경남": "경상남도", "제주": "제주특별자치도", "제주도": "제주특별자치도",
        "대구시": "대구광역시", "인천시": "인천광역시", "대전시": "대전광역시", "울산시": "울산광역시",
    ].merging(romanised) { hangul, _ in hangul }

    /// The provinces' romanised names (Revised Romanization, as the provinces write them), as
    /// written and lower-cased: `Seoul`, `seoul`, `Gyeonggi-do`.
    static let romanised: [String: String] = {
        let names: [(String, String)] = [
            ("Seoul", "서울특별시"), ("Busan", "부산광역시"), ("Daegu", "대구광역시"), ("Incheon", "인천광역시"),
            ("Gwangju", "광주광역시"), ("Daejeon", "대전광역시"), ("Ulsan", "울산광역시"), ("Sejong", "세종특별자치시"),
            ("Gyeonggi", "경기도"), ("Gyeonggi-do", "경기도"), ("Gangwon", "강원특별자치도"), ("Gangwon-do", "강원특별자치도"),
            ("Chungbuk", "충청북도"), ("Chungcheongbuk-do", "충청북도"), ("Chungnam", "충청남도"), ("Chungcheongnam-do", "충청남도"),
            ("Jeonbuk", "전북특별자치도"), ("Jeollabuk-do", "전북특별자치도"), ("Jeonnam", "전라남도"), ("Jeollanam-do", "전라남도"),
            ("Gyeongbuk", "경상북도"), ("Gyeongsangbuk-do", "경상북도"), ("Gyeongnam", "경상남도"), ("Gyeongsangnam-do", "경상남도"),
            ("Jeju", "제주특별자치도"), ("Jeju-do", "제주특별자치도"),
        ]
        var table: [String: String] = [:]
        for (name, province) in names {
            table[name] = province
            table[name.lowercased()] = province
        }
        return table
    }()

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
