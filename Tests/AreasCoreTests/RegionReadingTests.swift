import AreasCore
import Testing

/// A district filter the data has no exact name for: read as the names it plainly stands for
/// (a city for its 구, the one name it begins, the one name it spells in Latin letters), and
/// otherwise a note that names what the data has and what was probably meant.
@Suite struct RegionReadingTests {
    static let index: AreaIndex = {
        let districts = [("서울특별시", "용산구"), ("서울특별시", "중구"), ("서울특별시", "중랑구"), ("서울특별시", "종로구"),
                         ("경기도", "안양시 동안구"), ("경기도", "안양시 만안구"), ("울산광역시", "북구")]
        var areas: [Area] = []
        for (i, (province, district)) in districts.enumerated() {
            for j in 0..<3 {
                areas.append(Area(id: "a:\(i)-\(j)", kind: .smoking, name: "\(district) \(j)",
                                  coordinate: GeoPoint(uncheckedLatitude: 37 + Double(i) * 0.01, longitude: 127 + Double(j) * 0.001),
                                  province: province, district: district, source: "s"))
            }
        }
        return AreaIndex(areas: areas)
    }()
    static let korea = GeoBox(uncheckedSouth: 33, west: 124, north: 39, east: 132)

    func ids(_ region: Region) throws -> Set<String> {
        Set(try Self.index.areas(in: Self.korea, region: region).map { Self.index.areas[$0.position].id })
    }

    @Test(arguments: [
        ("용산", ["용산구"], "district '용산' read as 용산구"),
        ("안양시", ["안양시 동안구", "안양시 만안구"], "district '안양시' read as its districts 안양시 동안구, 안양시 만안구"),
        ("Yongsan", ["용산구"], "district 'Yongsan' read as 용산구"),
        ("yongsan-gu", ["용산구"], "district 'yongsan-gu' read as 용산구"),
        ("Buk-gu", ["북구"], "district 'Buk-gu' read as 북구"),
        // As signs spell it, with the sound change between 종 and 로 (letter by letter: jongro).
        ("Jongno", ["종로구"], "district 'Jongno' read as 종로구"),
        ("Jungnang-gu", ["중랑구"], "district 'Jungnang-gu' read as 중랑구"),
    ])
    func aNameThatPlainlyStandsForDistrictsIsReadAsThem(typed: String, meant: [String], reading: String) throws {
        let region = Region(district: typed)
        let found = try ids(region)
        let expected = try meant.reduce(into: Set<String>()) { $0.formUnion(try ids(Region(district: $1))) }
        #expect(!expected.isEmpty && found == expected)
        #expect(Self.index.regionReading(region) == reading)
        #expect(Self.index.unknownRegion(region) == nil)
    }

    @Test(arguments: [
        // Two names begin so, one names nothing, one is a typo, two typos in Latin letters.
        ("중", "the data has no district '중' (did you mean 중구?)"),
        ("강남구", "the data has no district '강남구'; it has: "),
        ("용상구", "the data has no district '용상구' (did you mean 용산구?)"),
        ("Yongsa", "the data has no district 'Yongsa' (did you mean 용산구?)"),
        ("Jongnu", "the data has no district 'Jongnu' (did you mean 종로구?)"),
    ])
    func aNameThatStandsForNothingPlainlyIsNamedWithWhatWasMeant(typed: String, note: String) throws {
        let region = Region(district: typed)
        #expect(try ids(region).isEmpty)
        #expect(Self.index.regionReading(region) == nil)
        let said = try #require(Self.index.unknownRegion(region))
        #expect(said.hasPrefix(note), "\(said)")
        #expect(said.contains("; it has: "))
    }

    @Test func aMisspeltProvinceIsSuggestedByItsOwnNameOrItsShortOne() throws {
        for (typed, meant) in [("서을", "서울특별시"), ("Seol", "서울특별시"), ("경기", "경기도"), ("울산광역씨", "울산광역시"), ("제주", nil)] as [(String, String?)] {
            let said = try #require(Self.index.unknownRegion(Region(province: typed)))
            if let meant {
                #expect(said.hasPrefix("the data has no province '\(typed)' (did you mean \(meant)?); it has: "), "\(typed): \(said)")
            } else {
                #expect(!said.contains("did you mean"), "\(typed): the data has no province it could be: \(said)")
            }
        }
    }

    @Test func hangulIsSpeltInTheRevisedRomanizationSyllableBySyllable() {
        #expect(Romanisation.letters("용산구") == "yongsangu")
        #expect(Romanisation.letters("안양시 동안구") == "anyangsidongangu")
        #expect(Romanisation.letters("Buk-gu") == "bukgu")
        #expect(Romanisation.districtKeys("안양시 동안구").isSuperset(of: ["anyangsidongangu", "dongangu", "dongan"]))
        #expect(Romanisation.districtKeys("중구") == ["junggu"])
    }
}
