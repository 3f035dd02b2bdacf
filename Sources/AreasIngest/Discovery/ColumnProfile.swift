import AreasCore

/// What one column of a file holds, counted over every row: how discovery decides what the
/// column is by its values as well as its name (a `위도` column full of longitudes holds
/// longitudes; an unnamed column of decimals between 33 and 39 holds latitudes).
package struct ColumnProfile: Sendable {
    /// The name the decoder gives the column: its header, or its number in a headerless file.
    package let name: String
    /// Rows with text in this column.
    package private(set) var filled = 0
    package private(set) var numbers = 0
    package private(set) var latitudes = 0
    package private(set) var longitudes = 0
    /// Cells holding both numbers of a position.
    package private(set) var pairs = 0
    package private(set) var roadAddresses = 0
    package private(set) var lotAddresses = 0
    package private(set) var provinces = 0
    package private(set) var districts = 0
    package private(set) var dates = 0
    /// Cells that read as an identifier rather than words (`구의3동-02-01-002`, `SM-0012`).
    package private(set) var codes = 0
    /// Cells that say where within a place, not which place (`청사 뒤`, `정문 옆`, `주차장 입구`).
    package private(set) var spots = 0
    /// Cells whose first words name a province, or a district: address-like, or names that
    /// lead with the district.
    package private(set) var leadingProvinces: [String: Int] = [:]
    package private(set) var leadingDistricts: [String: Int] = [:]
    /// The districts the cells name, by their name (a district column's values).
    package private(set) var districtValues: [String: Int] = [:]
    package private(set) var provinceValues: [String: Int] = [:]
    private var distinct: Set<String> = []
    /// Distinct values are counted up to this many: beyond it a column is "all different".
    static let distinctLimit = 4_096
    package private(set) var sample: [String] = []

    package init(name: String) { self.name = name }

    /// A short phrase ending in a word for a spot relative to something (`뒤`, `옆`, `입구`,
    /// `옥상`): where within a place the area is, which needs the place named beside it.
    static func readsAsSpot(_ value: String) -> Bool {
        let words = value.split(separator: " ")
        guard (1...3).contains(words.count), let last = words.last else { return false }
        return spotWords.contains { last.hasSuffix($0) }
    }

    static let spotWords = ["뒤", "앞", "옆", "측", "뒷편", "뒤편", "앞편", "입구", "출입구", "주변", "건너편", "맞은편", "옥상", "후문", "정문", "내부", "외부"]

    /// One word of digits, letters and separators with at least two separators and three
    /// digits: a code a register gives (`구의3동-02-01-002`), not a name a person says.
    static func readsAsCode(_ value: String) -> Bool {
        guard !value.contains(" ") else { return false }
        let separators = value.filter { $0 == "-" || $0 == "_" || $0 == "/" }.count
        let digits = value.filter(\.isNumber).count
        return separators >= 2 && digits >= 3 && value.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "/" }
    }

    /// The share of filled cells that are distinct (1 when every value differs).
    package var distinctShare: Double { filled == 0 ? 0 : Double(distinct.count >= Self.distinctLimit ? filled : distinct.count) / Double(filled) }
    package var distinctCount: Int { distinct.count }
    package func share(_ count: Int) -> Double { filled == 0 ? 0 : Double(count) / Double(filled) }

    /// Counts one cell (trimmed) against `bounds`.
    package mutating func count(_ value: String, in bounds: GeoBox) {
        guard !value.isEmpty else { return }
        filled += 1
        if distinct.count < Self.distinctLimit { distinct.insert(value) }
        if sample.count < 3, !sample.contains(value) { sample.append(value) }
        if let number = RecordValidator.decimal(value) {
            numbers += 1
            if (bounds.south...bounds.north).contains(number) { latitudes += 1 }
            if (bounds.west...bounds.east).contains(number) { longitudes += 1 }
            return
        }
        if let (first, second) = CoordinatePair.split(value),
           case .success = RecordValidator.position(latitude: first, longitude: second, in: bounds) {
            pairs += 1
            return
        }
        if ReferenceDate(parsing: value) != nil { dates += 1; return }
        if Self.readsAsCode(value) { codes += 1 }
        if Self.readsAsSpot(value) { spots += 1 }
        if let province = KoreanRegions.province(value) { provinces += 1; provinceValues[province, default: 0] += 1; return }
        if let district = KoreanRegions.district(value) { districts += 1; districtValues[district, default: 0] += 1; return }
        let region = KoreanRegions.leadingRegion(of: value)
        if let province = region.province { leadingProvinces[province, default: 0] += 1 }
        if let district = region.district { leadingDistricts[district, default: 0] += 1 }
        switch AddressShape(value) {
        case .road: roadAddresses += 1
        case .lot: lotAddresses += 1
        case .none: break
        }
    }
}

/// Whether a text reads as a road address (`도봉로 199`, `은평로 152, 지하1층`, `테헤란로7길 22`)
/// or a lot address (`역삼동 123-4`, `산 12`): a word ending in 로 or 길 followed by a number,
/// or one ending in 동, 리 or 가 followed by a lot number.
enum AddressShape {
    case road, lot, none

    init(_ text: String) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," })
        var lot = false
        for (index, word) in words.enumerated() where index + 1 < words.count {
            guard let next = words[index + 1].first, next.isNumber || (words[index + 1].hasPrefix("산") && words[index + 1].dropFirst().first?.isNumber == true) else { continue }
            guard word.count >= 2, let last = word.last else { continue }
            if last == "로" || last == "길" { self = .road; return }
            if last == "동" || last == "리" || last == "가" { lot = true }
        }
        self = lot ? .lot : .none
    }
}
