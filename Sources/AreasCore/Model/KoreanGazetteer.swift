/// South Korea's provinces (시·도) and their districts (시·군·구), and every way people write a
/// province: the one list the request filter's aliases, the merge's place names and source
/// discovery all read.
public enum KoreanGazetteer {
    public struct Province: Sendable {
        /// The official name, as the standard data publishes it.
        public let name: String
        /// Short and former names in Hangul (`서울`, `서울시`; `강원도` before 2023).
        public let otherNames: [String]
        /// Revised Romanization, as the province writes itself (`Seoul`, `Gyeonggi-do`).
        public let romanised: [String]
        public let districts: [String]
    }

    public static let provinces: [Province] = [
        Province(name: "서울특별시", otherNames: ["서울", "서울시"], romanised: ["Seoul"],
                 districts: ["종로구", "중구", "용산구", "성동구", "광진구", "동대문구", "중랑구", "성북구", "강북구", "도봉구", "노원구", "은평구", "서대문구", "마포구", "양천구", "강서구", "구로구", "금천구", "영등포구", "동작구", "관악구", "서초구", "강남구", "송파구", "강동구"]),
        Province(name: "부산광역시", otherNames: ["부산", "부산시"], romanised: ["Busan"],
                 districts: ["중구", "서구", "동구", "영도구", "부산진구", "동래구", "남구", "북구", "해운대구", "사하구", "금정구", "강서구", "연제구", "수영구", "사상구", "기장군"]),
        Province(name: "대구광역시", otherNames: ["대구", "대구시"], romanised: ["Daegu"],
                 districts: ["중구", "동구", "서구", "남구", "북구", "수성구", "달서구", "달성군", "군위군"]),
        Province(name: "인천광역시", otherNames: ["인천", "인천시"], romanised: ["Incheon"],
                 districts: ["중구", "동구", "미추홀구", "연수구", "남동구", "부평구", "계양구", "서구", "강화군", "옹진군"]),
        Province(name: "광주광역시", otherNames: ["광주", "광주시"], romanised: ["Gwangju"],
                 districts: ["동구", "서구", "남구", "북구", "광산구"]),
        Province(name: "대전광역시", otherNames: ["대전", "대전시"], romanised: ["Daejeon"],
                 districts: ["동구", "중구", "서구", "유성구", "대덕구"]),
        Province(name: "울산광역시", otherNames: ["울산", "울산시"], romanised: ["Ulsan"],
                 districts: ["중구", "남구", "동구", "북구", "울주군"]),
        Province(name: "세종특별자치시", otherNames: ["세종", "세종시"], romanised: ["Sejong"],
                 districts: []),
        Province(name: "경기도", otherNames: ["경기"], romanised: ["Gyeonggi", "Gyeonggi-do"],
                 districts: ["수원시", "성남시", "의정부시", "안양시", "부천시", "광명시", "평택시", "동두천시", "안산시", "고양시", "과천시", "구리시", "남양주시", "오산시", "시흥시", "군포시", "의왕시", "하남시", "용인시", "파주시", "이천시", "안성시", "김포시", "화성시", "광주시", "양주시", "포천시", "여주시", "연천군", "가평군", "양평군"]),
        Province(name: "강원특별자치도", otherNames: ["강원", "강원도"], romanised: ["Gangwon", "Gangwon-do"],
                 districts: ["춘천시", "원주시", "강릉시", "동해시", "태백시", "속초시", "삼척시", "홍천군", "횡성군", "영월군", "평창군", "정선군", "철원군", "화천군", "양구군", "인제군", "고성군", "양양군"]),
        Province(name: "충청북도", otherNames: ["충북"], romanised: ["Chungbuk", "Chungcheongbuk-do"],
                 districts: ["청주시", "충주시", "제천시", "보은군", "옥천군", "영동군", "증평군", "진천군", "괴산군", "음성군", "단양군"]),
        Province(name: "충청남도", otherNames: ["충남"], romanised: ["Chungnam", "Chungcheongnam-do"],
                 districts: ["천안시", "공주시", "보령시", "아산시", "서산시", "논산시", "계룡시", "당진시", "금산군", "부여군", "서천군", "청양군", "홍성군", "예산군", "태안군"]),
        Province(name: "전북특별자치도", otherNames: ["전북", "전라북도"], romanised: ["Jeonbuk", "Jeollabuk-do"],
                 districts: ["전주시", "군산시", "익산시", "정읍시", "남원시", "김제시", "완주군", "진안군", "무주군", "장수군", "임실군", "순창군", "고창군", "부안군"]),
        Province(name: "전라남도", otherNames: ["전남"], romanised: ["Jeonnam", "Jeollanam-do"],
                 districts: ["목포시", "여수시", "순천시", "나주시", "광양시", "담양군", "곡성군", "구례군", "고흥군", "보성군", "화순군", "장흥군", "강진군", "해남군", "영암군", "무안군", "함평군", "영광군", "장성군", "완도군", "진도군", "신안군"]),
        Province(name: "경상북도", otherNames: ["경북"], romanised: ["Gyeongbuk", "Gyeongsangbuk-do"],
                 districts: ["포항시", "경주시", "김천시", "안동시", "구미시", "영주시", "영천시", "상주시", "문경시", "경산시", "의성군", "청송군", "영양군", "영덕군", "청도군", "고령군", "성주군", "칠곡군", "예천군", "봉화군", "울진군", "울릉군"]),
        Province(name: "경상남도", otherNames: ["경남"], romanised: ["Gyeongnam", "Gyeongsangnam-do"],
                 districts: ["창원시", "진주시", "통영시", "사천시", "김해시", "밀양시", "거제시", "양산시", "의령군", "함안군", "창녕군", "고성군", "남해군", "하동군", "산청군", "함양군", "거창군", "합천군"]),
        Province(name: "제주특별자치도", otherNames: ["제주", "제주도"], romanised: ["Jeju", "Jeju-do"],
                 districts: ["제주시", "서귀포시"]),
    ]

    /// Every district name with the provinces that have one by that name (`중구`: six).
    public static let districtProvinces: [String: [String]] = {
        var table: [String: [String]] = [:]
        for province in provinces {
            for district in province.districts { table[district, default: []].append(province.name) }
        }
        return table
    }()

    /// Every other name of a province, to its official name: the Hangul ones, the romanised
    /// ones as written and lower-cased. A name that is also a district's is left out:
    /// `광주시` is 광주광역시 to some and 경기도's 광주시 to others, so it names neither alone.
    public static let provinceAliases: [String: String] = {
        var table: [String: String] = [:]
        for province in provinces {
            for name in province.otherNames where districtProvinces[name] == nil { table[name] = province.name }
            for name in province.romanised {
                table[name] = province.name
                table[name.lowercased()] = province.name
            }
        }
        return table
    }()

    /// Every Hangul way a province is written, official or not, ambiguous or not: what a
    /// place's name may begin with before the name proper.
    public static let provinceWritings: Set<String> = Set(provinces.flatMap { [$0.name] + $0.otherNames })
}
