import AreasCore
import Foundation
import Testing
@testable import AreasIngest
@testable import AreasTestSupport
import AreasTestTraits

/// The real published files (`Tests/RealData`, as their publishers released them), read as a
/// user's config would read them, against what `Tests/Oracles/real_files.py` counts in them
/// with Python's own CSV reader and CP949 codec.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct RealFilesTests {
    static let folder = Fixtures.path("Tests/RealData")

    /// The four files that list Yongsan's booths: the district's odcloud answer and its 2024
    /// file, and two hobby merges of every district's files (one names a booth by the words
    /// that place it, the other by its building with those words as its address).
    static let yongsanSources = """
        [
          {"name": "yongsan", "kind": "smoking", "format": "odcloud-json", "pages": "\(folder)/seoul-yongsan-odcloud", "province": "서울특별시",
           "fields": {"name": "서울특별시 용산구 설치 위치", "latitude": "위도", "longitude": "경도", "district": "자치구명"}},
          {"name": "yongsan-2024", "kind": "smoking", "format": "csv", "file": "\(folder)/seoul-yongsan-smoking-20240719.csv", "province": "서울특별시",
           "fields": {"name": "서울특별시 용산구 설치 위치", "latitude": "위도", "longitude": "경도", "district": "자치구명"}},
          {"name": "seoul-minjo12", "kind": "smoking", "format": "csv", "file": "\(folder)/seoul-merged-minjo12-smoking.csv",
           "fields": {"name": "설치 위치", "latitude": "위도", "longitude": "경도", "address": "설치 위치", "referenceDate": "데이터기준일"}},
          {"name": "seoul-vviyott", "kind": "smoking", "format": "csv", "file": "\(folder)/seoul-merged-vviyott-smoking-areas.csv", "province": "서울특별시",
           "fields": {"name": "시설구분", "latitude": "위도", "longitude": "경도", "address": "주소", "district": "자치구명"}}
        ]
        """

    static let standardSource = """
        [{"name": "seoul-standard", "kind": "nonsmoking", "format": "csv", "file": "\(folder)/prhsmk-standard-seoul-2022.csv",
          "fields": {"name": "금연구역명", "latitude": "위도", "longitude": "경도", "address": "소재지도로명주소", "lotAddress": "소재지지번주소",
                     "province": "시도명", "district": "시군구명", "referenceDate": "데이터기준일자"}}]
        """

    /// One refresh of `sources` (a JSON array) in a folder of its own, and the index it serves.
    static func served(_ sources: String, extra: String = "") async throws -> (index: AreaIndex, report: RefreshReport) {
        let folder = Fixtures.temporaryDirectory()
        let path = folder + "/areasd.json"
        try Data("{\"snapshot\": \"\(folder)/areas.snapshot\", \(extra) \"sources\": \(sources)}".utf8).write(to: URL(fileURLWithPath: path))
        let config = try AreasConfig.load(path: path)
        let (catalog, report) = await Refresher(config: config, environment: [:], snapshotPath: folder + "/areas.snapshot").refresh(Catalog())
        for source in report.sources { #expect(source.status == .updated, "\(source.name): \(source.summary)") }
        return (catalog.index(footprint: config.footprint, merge: config.merge ?? .off), report)
    }

    /// Text without white space, a leading 서울특별시 용산구 or 서울 용산구: how the oracle names a booth.
    static func whereWords(_ text: String) -> String {
        var text = Substring(text.trimmingCharacters(in: .whitespaces))
        for prefix in ["서울특별시 용산구 ", "서울 용산구 "] where text.hasPrefix(prefix) { text = text.dropFirst(prefix.count) }
        return text.filter { !$0.isWhitespace }
    }

    /// Near Yongsan station every booth is one area, holding each file's row of it; before,
    /// the file that names booths by their building served each of them a second time.
    @Test func yongsanStationAnswersEachPlaceOnce() async throws {
        let (index, _) = try await Self.served(Self.yongsanSources)
        let here = try GeoPoint(latitude: 37.5299, longitude: 126.9648)
        let oracle = try #require(try PythonOracle.json("Tests/Oracles/real_files.py", ["yongsan-station", "37.5299", "126.9648", "12", Self.folder]) as? [String: Any])
        let places = try #require(oracle["places"] as? [[String: Any]])
        #expect(places.count == 12)

        let answer = try index.nearest(to: here, k: 12, kind: .smoking)
        #expect(answer.count == 12)
        let table = index.areas
        var matched: Set<Int> = []
        for match in answer {
            let leader = table[match.position]
            let records = index.groups.records(of: match.position).map { table[$0] }
            // The oracle's place this area is: its position, and the words of its leader's name
            // or (a building's name) its address.
            let candidates = places.indices.filter { (i: Int) -> Bool in
                let place = places[i]
                let samePoint = abs((place["lat"] as? Double ?? 0) - leader.coordinate.latitude) < 1e-6
                    && abs((place["lon"] as? Double ?? 0) - leader.coordinate.longitude) < 1e-6
                let text = place["text"] as? String
                return samePoint && (text == Self.whereWords(leader.name) || text == Self.whereWords(leader.address))
            }
            guard let place = candidates.first, candidates.count == 1 else {
                Issue.record("\(leader.name) (\(leader.address)) is none of the oracle's places, or several: \(candidates)")
                continue
            }
            #expect(matched.insert(place).inserted, "\(leader.name) answered twice")
            // Every file's row of the place is one of the area's records.
            let rows = places[place]["rows"] as? [String: Int] ?? [:]
            let bySource = Dictionary(grouping: records, by: { (area: Area) in area.source }).mapValues { $0.count }
            let expected = Dictionary(uniqueKeysWithValues: rows.map { (file: String, n: Int) -> (String, Int) in
                (["odcloud": "yongsan", "yongsan-2024": "yongsan-2024", "minjo12": "seoul-minjo12", "vviyott": "seoul-vviyott"][file] ?? file, n)
            })
            #expect(bySource == expected, "\(leader.name): records \(bySource), the files \(expected)")
        }
        #expect(matched.count == 12)
    }

    /// The city-wide merge lists some places twice at one position, the address written with
    /// and without the city and district (`서대문소방서` at `연희로182` and at `서울특별시 서대문구
    /// 연희로182`): one area with both rows; and it names booths by their building, told
    /// apart by the address alone (three `현대아이파크몰` booths at one point): three areas.
    @Test func oneFileListingOnePlaceTwiceAndBoothsByTheirBuilding() async throws {
        let vviyott = #"[{"name": "seoul-vviyott", "kind": "smoking", "format": "csv", "file": "\#(Self.folder)/seoul-merged-vviyott-smoking-areas.csv", "province": "서울특별시", "fields": {"name": "시설구분", "latitude": "위도", "longitude": "경도", "address": "주소", "district": "자치구명"}}]"#
        let (index, _) = try await Self.served(vviyott)
        let table = index.areas
        let served = table.indices.filter(index.isServed)
        func areas(named name: String) -> [Int] { served.filter { table[$0].name == name } }
        let station = areas(named: "서대문소방서")
        #expect(station.count == 1 && index.groups.recordCount(of: station[0]) == 2,
                "서대문소방서: \(station.count) areas, \(station.first.map { index.groups.recordCount(of: $0) } ?? 0) records")
        let booths = areas(named: "현대아이파크몰").filter { abs(table[$0].coordinate.latitude - 37.529492) < 1e-6 }
        #expect(Set(booths.map { table[$0].address }) == ["서울특별시 용산구 아이파크몰 8층 옥상", "서울특별시 용산구 아이파크몰 달 주차장 4.5층", "서울특별시 용산구 아이파크몰 해 주차장 4.5층"])
        // Each of the 36 places in Seodaemun the file lists (73 rows) is one area of two records:
        // the short address and the long one (연희로248 three times, two of them alike in every
        // column, counted as a duplicate).
        let seodaemun = served.filter { table[$0].district == "서대문구" }
        #expect(seodaemun.count == 36 && seodaemun.allSatisfy { index.groups.recordCount(of: $0) == 2 }, "\(seodaemun.count) areas: \(seodaemun.map { index.groups.recordCount(of: $0) })")
    }

    /// Seodaemun's booths, several at one address (three at 성산로20길 9, two `1층` booths of
    /// different sizes at 충정로60): each row is an area of its own. The file has no positions;
    /// the operator's positions file places each address where the city-wide merge puts it.
    @Test func seodaemunsBoothsAtOneAddressAreAllServed() async throws {
        let folder = Fixtures.temporaryDirectory()
        // Positions by address from the other published file that lists Seodaemun's booths.
        let rows = try CSVDecoder(encoding: .cp949, hasHeader: true, delimiter: UInt8(ascii: ","))
            .decode(try Fixtures.bytes("Tests/RealData/seoul-merged-vviyott-smoking-areas.csv")).records
        var positions = "source,query,latitude,longitude\n"
        var placed: Set<String> = []
        for row in rows {
            func cell(_ key: String) -> String { row.first { $0.key == key }?.value ?? "" }
            let address = cell("주소")
            guard cell("자치구명") == "서대문구", !address.hasPrefix("서울"), placed.insert(address).inserted else { continue }
            positions += "seodaemun,서울특별시 서대문구 \(address),\(cell("위도")),\(cell("경도"))\n"
        }
        try Data(positions.utf8).write(to: URL(fileURLWithPath: folder + "/positions.csv"))
        let source = """
            [{"name": "seodaemun", "kind": "smoking", "format": "csv", "file": "\(Self.folder)/seoul-seodaemun-smoking-facilities-20210607.csv",
              "province": "서울특별시",
              "fields": {"name": "{설치위치} {설치위치 상세}", "district": "자치구", "size": "규모(㎡)"},
              "geocode": {"query": "서울특별시 {자치구} {설치위치}"}}]
            """
        let (index, report) = try await Self.served(source, extra: "\"positions\": \"\(folder)/positions.csv\",")
        let seodaemun = try #require(report.sources.first)
        #expect(seodaemun.received == 40 && seodaemun.placedByOperator == 40, "\(seodaemun.summary)")
        let served = index.areas.indices.filter(index.isServed).map { index.areas[$0] }
        #expect(served.count == 40, "\(served.count) areas for 40 booths")
        let atOneAddress = served.filter { $0.name.hasPrefix("성산로20길 9 ") }
        #expect(atOneAddress.count == 3 && Set(atOneAddress.map(\.coordinate.latitude)).count == 1, "\(atOneAddress.map(\.name))")
        let twoSizes = served.filter { $0.name == "충정로60 1층" }
        #expect(Set(twoSizes.compactMap { $0.field("규모(㎡)") }) == ["25", "20"], "\(twoSizes.map(\.id))")
    }

    /// The national standard data serves one zone per name, position and footprint, as the
    /// oracle counts them: a building and the ground 10 m around it both; a zone listed again
    /// with its address written otherwise once, with both rows as its records.
    @Test func standardDataServesEachZoneOnce() async throws {
        let (index, report) = try await Self.served(Self.standardSource)
        let oracle = try #require(try PythonOracle.json("Tests/Oracles/real_files.py", ["standard-zones", Self.folder + "/prhsmk-standard-seoul-2022.csv"]) as? [String: Any])
        let zones = try #require(oracle["zones"] as? [[Any]])
        let rows = try #require(oracle["rows"] as? Int)
        let source = try #require(report.sources.first)
        #expect(source.accepted + source.duplicates == rows, "every row the oracle accepts is a record or the same row again")

        let table = index.areas
        var served: [String] = []
        var records = 0
        for position in table.indices where index.isServed(position) {
            let area = table[position]
            let lat = Int64((area.coordinate.latitude * 1e6).rounded()), lon = Int64((area.coordinate.longitude * 1e6).rounded())
            let words = (area.field("금연구역범위상세") ?? "").split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            served.append("\(area.name)|\(lat)|\(lon)|\(words)")
            records += index.groups.recordCount(of: position)
        }
        let expected = zones.map { "\($0[0])|\($0[1])|\($0[2])|\($0[3])" }
        #expect(served.count == zones.count, "served \(served.count) zones; the oracle counts \(zones.count)")
        #expect(served.sorted() == expected.sorted())
        #expect(records == source.accepted, "every accepted row is a record of one zone")
        // The file lists a building and the ground 10 m around it at one point under one name
        // hundreds of times: both are served.
        let twoFootprints = Dictionary(grouping: zones, by: { (zone: [Any]) in "\(zone[0])|\(zone[1])|\(zone[2])" }).values.filter { $0.count > 1 }.count
        #expect(twoFootprints > 400, "\(twoFootprints) places with more than one footprint")
    }
}
