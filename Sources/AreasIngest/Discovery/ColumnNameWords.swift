/// The words publishers name their columns with, by what the column holds: discovery reads a
/// header as a person would before it looks at the values.
///
/// Names are compared lower-cased with spaces, underscores and brackets taken out, so
/// `설치 위치`, `위도(Y)` and `Y_좌표` read as `설치위치`, `위도y` and `y좌표`.
enum ColumnNameWords {
    static func normalized(_ name: String) -> String {
        String(name.lowercased().filter { !" _-()[]{}·.".contains($0) })
    }

    static func isLatitude(_ name: String) -> Bool {
        let n = normalized(name)
        return n.contains("위도") || ["lat", "latitude", "y", "y좌표", "좌표y", "ycoord", "ypos", "wgs84y", "gpsy", "gps위도"].contains(n)
            || n.hasPrefix("lat")
    }

    static func isLongitude(_ name: String) -> Bool {
        let n = normalized(name)
        return n.contains("경도") || ["lon", "lng", "long", "longitude", "x", "x좌표", "좌표x", "xcoord", "xpos", "wgs84x", "gpsx", "gps경도"].contains(n)
            || n.hasPrefix("lon") || n.hasPrefix("lng")
    }

    /// One column named for both numbers of a position.
    static func isCoordinatePair(_ name: String) -> Bool {
        let n = normalized(name)
        return !isLatitude(name) && !isLongitude(name) && (n.contains("좌표") || n.contains("위경도") || n.contains("coord") || n == "latlon" || n == "latlng" || n == "location좌표")
    }

    /// Words of a column that names the place itself.
    static let placeNameWords = ["흡연구역명", "금연구역명", "흡연시설명", "흡연부스명", "시설명", "구역명", "장소명", "설치장소", "설치위치", "흡연장소",
                                 "상세위치", "장소", "위치", "명칭", "상호명", "상호", "이름", "place", "name", "location", "title"]

    /// How strongly the name says "what people call the area", and why; negative for a name
    /// that says it holds something else.
    static func placeNameWeight(_ name: String) -> (weight: Double, why: String?) {
        let n = normalized(name)
        // Who manages a place is never its name, whatever else the column's name says (관리기관명칭).
        if let word = managingBodyWords.first(where: { n.contains($0) }) { return (-6, "names who manages it (\(word))") }
        if let word = placeNameWords.first(where: { n.contains($0) }) { return (3, "named like a place (\(word))") }
        if let word = otherThanNameWords.first(where: { n.contains($0) }) { return (-3, "named for something else (\(word))") }
        if n.hasSuffix("명") { return (1, "a name column (…명)") }
        return (0, nil)
    }

    /// Words of columns naming the body that manages a place: `서울특별시 마포구`, `세종시청`.
    static let managingBodyWords = ["관리기관", "관리주체", "관리부서", "담당기관", "담당부서", "관할기관", "관할관청", "운영기관", "관리청"]

    /// Words of columns that hold something other than the area's name.
    static let otherThanNameWords = ["주소", "도로명", "지번", "소재지", "address", "구분", "유형", "형태", "종류", "분류", "type", "category", "kind",
                                     "비고", "메모", "note", "memo", "기관", "관리", "주체", "전화", "연락처", "tel", "phone", "번호", "연번", "순번",
                                     "no", "면적", "과태료", "근거", "코드", "code", "일자", "일시", "날짜", "date", "여부", "규모", "수량", "개수",
                                     "시도", "시군구", "자치구", "범위", "실외", "실내"]

    static func isRoadAddress(_ name: String) -> Bool {
        let n = normalized(name)
        return !n.contains("지번") && (n.contains("도로명") || n.contains("주소") || n.contains("address") || n.contains("addr") || n.contains("소재지"))
    }

    static func isLotAddress(_ name: String) -> Bool {
        let n = normalized(name)
        return n.contains("지번") || n.contains("lotaddr") || n.contains("jibun")
    }

    static func isProvince(_ name: String) -> Bool {
        let n = normalized(name)
        return n.hasPrefix("시도") || n.contains("ctprvn") || n == "province" || n == "sido" || n == "광역시도"
    }

    static func isDistrict(_ name: String) -> Bool {
        let n = normalized(name)
        return n.hasPrefix("시군구") || n.hasPrefix("자치구") || n.hasPrefix("구군") || n.contains("signgu") || n == "district" || n == "sigungu" || n == "구명"
    }

    /// The date the publisher states its data for (not the date a booth was installed).
    /// A zone's extent in words (금연구역범위상세, `범위`), its type (금연구역구분) and its size
    /// (금연구역면적, `면적`), from which its footprint is drawn.
    static func isZoneExtent(_ name: String) -> Bool { normalized(name).contains("범위") }
    static func isZoneType(_ name: String) -> Bool { normalized(name) == "금연구역구분" }
    static func isZoneSize(_ name: String) -> Bool { normalized(name).contains("면적") }

    static func isReferenceDate(_ name: String) -> Bool {
        let n = normalized(name)
        return n.contains("기준일") || n.contains("기준년월일") || n == "referencedate" || n.contains("데이터기준")
    }
}
