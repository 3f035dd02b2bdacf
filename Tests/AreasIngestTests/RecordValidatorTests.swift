import Foundation
import Testing
@testable import AreasCore
@testable import AreasIngest
@testable import AreasTestSupport
import AreasTestTraits

@Suite(.offThePool, .timeLimit(.minutes(5)))
final class RecordValidatorTests {
    let validator = RecordValidator(source: Fixtures.source(url: "http://unused"), bounds: SyntheticPoints.korea)

    private func record(_ lat: String, _ lon: String, name: String = "골약동주민센터") -> [Field] {
        [Field("prhsmkNm", name), Field("rdnmadr", " 전라남도 광양시 수동길 8 "), Field("latitude", lat), Field("longitude", lon)]
    }

    @Test func acceptsTrimsAndRepairs() throws {
        guard case .accepted(let area, let repaired) = validator.validate(record(" 34.9407 ", "127.6959  ")) else { Issue.record(); return }
        #expect(!repaired)
        #expect(area.coordinate == (try GeoPoint(latitude: 34.9407, longitude: 127.6959)))
        #expect(area.roadAddress == ("전라남도 광양시 수동길 8"))
        #expect(area.fields.count == 4)
        guard case .accepted(let swapped, true) = validator.validate(record("127.6959", "34.9407")) else { Issue.record(); return }
        #expect(swapped.coordinate == area.coordinate)
        #expect(swapped.id == area.id, "the id follows the repaired position")
    }

    @Test func rejectsWithReasons() {
        let cases: [(String, String, RecordValidator.Rejection)] = [
            ("", "", .missingCoordinates), ("34.9", "", .missingCoordinates), ("0", "0", .zeroCoordinates),
            ("N/A", "127.1", .nonNumericCoordinates), ("nan", "127.1", .nonNumericCoordinates),
            ("inf", "127", .nonNumericCoordinates), ("3.49407", "127.6959", .outOfBounds), ("37.5", "12.69", .outOfBounds),
        ]
        for (lat, lon, reason) in cases {
            guard case .rejected(let got) = validator.validate(record(lat, lon)) else { Issue.record("\(lat),\(lon) accepted"); return }
            #expect(got == reason, "\(lat),\(lon)")
        }
        guard case .rejected(.missingName) = validator.validate(record("34.9", "127.6", name: "  ")) else { Issue.record(); return }
    }

    @Test func idsAreStableAndDistinct() throws {
        let p = try GeoPoint(latitude: 37.5, longitude: 127)
        // An id computed independently (FNV-1a 64 of name, US, lat·1e6, US, lon·1e6):
        // an id must never change between releases, or every client's saved ids break.
        let station = try GeoPoint(latitude: 37.530728, longitude: 126.970556)
        #expect((RecordValidator.id(source: "yongsan", name: "서울특별시 용산구 서울역 광장 1번출구", coordinate: station)) == ("yongsan:027a36e0cd0ad58b"))
        #expect((RecordValidator.id(source: "a", name: "x", coordinate: p)) != (RecordValidator.id(source: "a", name: "y", coordinate: p)))
        #expect(RecordValidator.id(source: "zones", name: "x", coordinate: p).hasPrefix("zones:"))
    }

    /// Two booths at one position share a name but not their address: both are kept, each an
    /// area with an id of its own; a row that only numbers a booth again is another record of
    /// it (its id the area's, `~`, its own); the same row again is dropped.
    @Test func anotherAddressIsAnotherBoothAndTheSameRowAgainIsADuplicate() throws {
        let point = try GeoPoint(latitude: 37.5665, longitude: 126.9780)
        func booth(_ address: String, number: String) -> Area {
            Area(id: RecordValidator.id(source: "s", name: "시청 흡연부스", coordinate: point), kind: .smoking, name: "시청 흡연부스", coordinate: point,
                 roadAddress: address, province: "서울특별시", district: "중구", source: "s", fields: [Field("연번", number), Field("주소", address)])
        }
        var rows = AdmittedRows()
        let admittedRoof = rows.admit(booth("세종대로 110 옥상", number: "1"))
        let admittedPavilion = rows.admit(booth("세종대로 110 1층 정자", number: "2"))
        let roof = try #require(admittedRoof)
        let pavilion = try #require(admittedPavilion)
        #expect(roof.id != pavilion.id && roof.id == booth("", number: "").id)
        #expect(!pavilion.id.contains("~"))
        // The same booths numbered again: records of the areas, not areas of their own; the
        // address written with the city and district is the same address.
        let admittedRoofAgain = rows.admit(booth("서울특별시 중구 세종대로 110 옥상", number: "7"))
        let roofAgain = try #require(admittedRoofAgain)
        let admittedPavilionAgain = rows.admit(booth("세종대로 110 1층 정자", number: "8"))
        let pavilionAgain = try #require(admittedPavilionAgain)
        #expect(roofAgain.id.hasPrefix(roof.id + "~") && pavilionAgain.id.hasPrefix(pavilion.id + "~"))
        // Equal in every column: nothing new.
        let roofRepeated = rows.admit(booth("세종대로 110 옥상", number: "1"))
        let pavilionRepeated = rows.admit(booth("세종대로 110 1층 정자", number: "8"))
        #expect(roofRepeated == nil && pavilionRepeated == nil)
        // The second booth's id and the repeated row's are their own on every refresh.
        var again = AdmittedRows()
        _ = again.admit(booth("세종대로 110 옥상", number: "1"))
        let pavilionNextTime = again.admit(booth("세종대로 110 1층 정자", number: "2"))
        let roofAgainNextTime = again.admit(booth("서울특별시 중구 세종대로 110 옥상", number: "7"))
        #expect(pavilionNextTime?.id == pavilion.id && roofAgainNextTime?.id == roofAgain.id)
    }

    /// A zone and the ground 10 m around it, listed at one position under one name, are two
    /// zones; the same zone with its address written otherwise is one, whatever the address.
    @Test func anotherFootprintIsAnotherZone() throws {
        let point = try GeoPoint(latitude: 37.5301, longitude: 126.9645)
        func zone(_ extent: String, address: String, body: String) -> Area {
            Area(id: RecordValidator.id(source: "z", name: "용산공원", coordinate: point), kind: .nonsmoking, name: "용산공원", coordinate: point,
                 roadAddress: address, source: "z",
                 fields: [Field("금연구역명", "용산공원"), Field("금연구역범위상세", extent), Field("금연구역면적", "1200"),
                          Field("소재지도로명주소", address), Field("관리기관명", body)])
        }
        var rows = AdmittedRows()
        let admittedWhole = rows.admit(zone("공원 전체", address: "서울특별시 용산구 한강대로 1", body: "용산구청"))
        let whole = try #require(admittedWhole)
        let admittedAround = rows.admit(zone("공원 경계로부터 10m", address: "서울특별시 용산구 한강대로 1", body: "용산구청"))
        let around = try #require(admittedAround)
        let admittedWritten = rows.admit(zone("공원 전체", address: "서울특별시 용산구 한강대로 1 (한강로동)", body: "용산구청"))
        let written = try #require(admittedWritten)
        let admittedBody = rows.admit(zone("공원  전체", address: "서울특별시 용산구 한강대로 1", body: "용산구 보건소"))
        let body = try #require(admittedBody)
        #expect(whole.id != around.id && !around.id.contains("~"))
        #expect(written.id.hasPrefix(whole.id + "~") && body.id.hasPrefix(whole.id + "~") && written.id != body.id)
    }

    /// A template's region words are left out where the cell already begins with them.
    @Test(arguments: [
        ("서울특별시 서대문구 연희로248", "서울특별시 서대문구 연희로248"),
        ("서대문구 연희로248", "서울특별시 서대문구 연희로248"),
        ("연희로 248", "서울특별시 서대문구 연희로 248"),
        ("서울 서대문구 연희로 248", "서울 서대문구 연희로 248"),
        ("", "서울특별시 서대문구"),
    ])
    func aTemplateDoesNotRepeatWhatTheCellSays(cell: String, asked: String) throws {
        let template = try GeocodeTemplate("서울특별시 {자치구} {설치위치}")
        #expect(template.render { $0 == "자치구" ? "서대문구" : cell } == asked)
    }
}

/// A source's rows admitted in order, as a refresh admits them: each kept row's keys kept for
/// `Rows` to look back at.
struct AdmittedRows {
    private var rows = RecordValidator.Rows(footprint: .standard)
    private var ids = StringArena.Builder()
    private var kept: [(place: UInt64, row: UInt64)] = []

    mutating func admit(_ area: Area) -> Area? {
        let earlier = kept
        guard let admitted = rows.admit(area, idNumber: ids.number(of: area.id), firstRow: { earlier[$0] }) else { return nil }
        kept.append(RecordValidator.Rows.keys(of: admitted, footprint: .standard))
        return admitted
    }
}
