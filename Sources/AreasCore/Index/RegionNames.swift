/// The province and district names of one data set, each with the string references that hold
/// it, so a query's region becomes a comparison of integers instead of one of strings for every
/// area a search passes.
///
/// A region naming a province the data does not have then matches nothing before any search
/// starts, instead of comparing its name with every area's.
struct RegionNames: Sendable {
    /// Each name's references: usually one, as tables intern their strings; a table read from
    /// elsewhere may hold the same text twice.
    private let provinces: [String: [StringArena.Ref]]
    private let districts: [String: [StringArena.Ref]]

    init(_ table: AreaTable) {
        var provinceRefs = Set<StringArena.Ref>()
        var districtRefs = Set<StringArena.Ref>()
        var lastProvince = StringArena.Ref.max
        var lastDistrict = StringArena.Ref.max
        for record in table.records {
            // Neighbours in id order mostly share both: skip the set for a repeat.
            if record.province != lastProvince {
                provinceRefs.insert(record.province)
                lastProvince = record.province
            }
            if record.district != lastDistrict {
                districtRefs.insert(record.district)
                lastDistrict = record.district
            }
        }
        func byName(_ refs: Set<StringArena.Ref>) -> [String: [StringArena.Ref]] {
            Dictionary(grouping: refs.sorted(), by: { table.strings.string($0) })
        }
        provinces = byName(provinceRefs)
        districts = byName(districtRefs)
    }

    /// The names the data set has, sorted.
    var provinceNames: [String] { provinces.keys.sorted() }
    var districtNames: [String] { districts.keys.sorted() }

    /// The references `region` admits: a district the data has no exact name for is read as
    /// the names it stands for (`districtsMeant(by:)`).
    func resolve(_ region: Region) -> ResolvedRegion {
        ResolvedRegion(provinces: region.province.map { provinces[$0] ?? [] },
                       districts: region.district.map { typed in districts[typed] ?? districtsMeant(by: typed).flatMap { districts[$0] ?? [] } })
    }

    /// The district names of the data that `typed` stands for when the data has no district
    /// of that exact name: a city's 구 for the city (`안양시`: `안양시 동안구` and `안양시
    /// 만안구`), else the one name it begins (`용산`: `용산구`), else the one name it spells in
    /// Latin letters (`Yongsan`, `yongsan-gu`: `용산구`). Empty when none, or several alike.
    func districtsMeant(by typed: String) -> [String] {
        guard !typed.isEmpty, districts[typed] == nil else { return [] }
        let names = districts.keys.filter { !$0.isEmpty }
        let city = names.filter { $0.hasPrefix(typed + " ") }
        if !city.isEmpty { return city.sorted() }
        let begun = names.filter { $0.hasPrefix(typed) }
        if begun.count == 1 { return begun }
        guard typed.unicodeScalars.allSatisfy(\.isASCII) else { return [] }
        let latin = Romanisation.letters(typed)
        let spelt = names.filter { Romanisation.districtKeys($0).contains(latin) }
        return spelt.count == 1 ? spelt : []
    }
}

/// A region as references into one table: nil admits any, an empty list admits none.
public struct ResolvedRegion: Sendable {
    let provinces: [StringArena.Ref]?
    let districts: [StringArena.Ref]?

    public static let anywhere = ResolvedRegion(provinces: nil, districts: nil)

    public var isAnywhere: Bool { provinces == nil && districts == nil }

    /// True when no area can match: a name the data set does not have.
    public var isEmpty: Bool { provinces?.isEmpty == true || districts?.isEmpty == true }

    @inline(__always)
    func admits(_ record: AreaTable.Record) -> Bool {
        if let provinces, !provinces.contains(record.province) { return false }
        if let districts, !districts.contains(record.district) { return false }
        return true
    }
}
