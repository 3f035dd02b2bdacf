import AreasCore
import Testing
import AreasTestTraits

/// The name rule on pairs shaped like the real published files: the same place written by the
/// district, the city and the national data, and neighbouring places that must stay apart.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct PlaceNameTests {
    struct Pair: Sendable, CustomTestStringConvertible {
        var a: String
        var b: String
        var district = ""
        var testDescription: String { "\(a) | \(b)" }
    }

    @Test(arguments: [
        Pair(a: "서울특별시 용산구 용산역 광장 2번출구", b: "용산역 광장 2번출구", district: "용산구"),
        Pair(a: "용산역광장 2번출구", b: "용산역 광장 2번출구"),
        Pair(a: "이태원역 3번출구(개방형)", b: "이태원역 3번출구"),
        Pair(a: "서울 삼각지역 4번출구", b: "서울특별시 용산구 삼각지역 4번출구", district: "용산구"),
        Pair(a: "용산구 중앙로12 주민센터", b: "서울특별시 용산구 중앙로12 주민센터", district: "용산구"),
        Pair(a: "전쟁기념관정문", b: "전쟁기념관 정문"),
        Pair(a: "용산역", b: "용산역 광장"),
        Pair(a: "ＡＫ플라자 흡연실", b: "AK플라자 흡연실"),
        Pair(a: "아이파크몰 8층 옥상", b: "아이파크몰 8층 옥상 [폐쇄형]"),
        Pair(a: "(흡연부스)", b: "흡연부스"),
        // A note without a number describes the place; one name may lack it.
        Pair(a: "용산역(광장)", b: "용산역"),
        Pair(a: "수락리버시티3단지아파트 어린이놀이터(308동)", b: "수락리버시티3단지아파트 어린이놀이터 (308동)"),
        Pair(a: "흡연부스(2번)", b: "흡연부스 2번"),
        Pair(a: "중계근린공원(정문)[개방형]", b: "중계근린공원 (정문)"),
    ])
    func theSamePlaceWrittenTwoWays(pair: Pair) {
        #expect(PlaceName.samePlace(pair.a, pair.b, province: "서울특별시", district: pair.district))
        #expect(PlaceName.samePlace(pair.b, pair.a, province: "서울특별시", district: pair.district))
    }

    @Test(arguments: [
        // Two booths of one building, on one position.
        Pair(a: "아이파크몰 8층 옥상", b: "아이파크몰 달 주차장 4.5층"),
        // One adds a floor or an exit: another place.
        Pair(a: "아이파크몰", b: "아이파크몰 8층 옥상"),
        Pair(a: "서울역 광장 1번출구", b: "서울역 광장 2번출구"),
        Pair(a: "수원역", b: "수원역 2번출구 흡연부스"),
        Pair(a: "흡연부스1", b: "흡연부스2"),
        Pair(a: "서울역 광장 1번출구", b: "서울역 광장 관광안내소 앞"),
        // A one-letter name is inside too many others.
        Pair(a: "역", b: "용산역"),
        Pair(a: "", b: ""),
        Pair(a: "용산구", b: "중구", district: "용산구"),
        // Two playgrounds of one complex, 15 m apart: a number in a note names a building.
        Pair(a: "수락리버시티3단지아파트 어린이놀이터(308동)", b: "수락리버시티3단지아파트 어린이놀이터(310동)"),
        Pair(a: "수락리버시티3단지아파트 어린이놀이터(308동)", b: "수락리버시티3단지아파트 어린이놀이터"),
        Pair(a: "용산역(1번 출구 옆)", b: "용산역(2번 출구 옆)"),
        Pair(a: "노원역 (3번출구)", b: "노원역"),
        // Notes without numbers that differ: two places.
        Pair(a: "시청(정문)", b: "시청(후문)"),
        Pair(a: "어린이공원(A구역)", b: "어린이공원(B구역)"),
    ])
    func differentPlacesStayApart(pair: Pair) {
        #expect(!PlaceName.samePlace(pair.a, pair.b, province: "서울특별시", district: pair.district))
        #expect(!PlaceName.samePlace(pair.b, pair.a, province: "서울특별시", district: pair.district))
    }

    @Test func theKeyKeepsLettersAndDigitsOnly() {
        #expect(String(decoding: PlaceName.key("서울특별시 용산구 용산역 (광장 쪽)", province: "서울특별시", district: "용산구"), as: UTF8.self) == "용산역\0광장쪽")
        // A note with a number stays in the name.
        #expect(String(decoding: PlaceName.key("서울특별시 용산구 용산역 (1번 출구 옆)", province: "서울특별시", district: "용산구"), as: UTF8.self) == "용산역1번출구옆")
        #expect(String(decoding: PlaceName.key("Seoul Station, Exit-1"), as: UTF8.self) == "seoulstationexit1")
        // A name that is nothing but a region keeps it: something must remain to compare.
        #expect(String(decoding: PlaceName.key("용산구", district: "용산구"), as: UTF8.self) == "용산구")
    }
}
