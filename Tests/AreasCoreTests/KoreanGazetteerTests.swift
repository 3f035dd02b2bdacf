import Testing
@testable import AreasCore
import AreasTestTraits

/// The one list of Korea's provinces and districts, against what each reader needs of it: the
/// request filter's aliases, the merge's place names.
@Suite(.offThePool, .timeLimit(.minutes(1)))
struct KoreanGazetteerTests {
    @Test func everyOtherNameResolvesToItsProvinceUnlessADistrictBearsIt() {
        let districts = Set(KoreanGazetteer.provinces.flatMap(\.districts))
        for province in KoreanGazetteer.provinces {
            for name in province.otherNames {
                let resolved = Region(province: name).resolved(Region.standardAliases).province
                if districts.contains(name) {
                    #expect(resolved == name, "\(name) is a district too: it must not be read as \(province.name)")
                } else {
                    #expect(resolved == province.name, "\(name)")
                }
            }
            for name in province.romanised {
                #expect(Region.standardAliases[name] == province.name && Region.standardAliases[name.lowercased()] == province.name, "\(name)")
            }
            // The official name is no alias: it is what the filter compares with.
            #expect(Region.standardAliases[province.name] == nil)
        }
    }

    @Test func gwangjuSiNamesNoProvinceAlone() {
        #expect(Region.standardAliases["광주시"] == nil)
        #expect(Region.standardAliases["광주"] == "광주광역시")
        #expect(KoreanGazetteer.districtProvinces["광주시"] == ["경기도"])
        // A place name may still begin with it, whichever 광주 it means.
        #expect(PlaceName.key("광주시 흡연부스") == PlaceName.key("흡연부스"))
    }

    @Test func aPlaceNameMayBeginWithAnyWritingOfAProvince() {
        #expect(KoreanGazetteer.provinces.count == 17)
        for writing in KoreanGazetteer.provinceWritings {
            #expect(PlaceName.key("\(writing) 중앙공원 흡연구역") == PlaceName.key("중앙공원 흡연구역"), "\(writing)")
        }
        #expect(PlaceName.key("서울숲 흡연구역") != PlaceName.key("흡연구역"), "a word that only begins like a province is part of the name")
        #expect(PlaceName.key("광화문 흡연구역") != PlaceName.key("흡연구역"))
    }
}
