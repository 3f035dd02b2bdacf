import AreasCore
import AreasTestSupport
import Foundation
import Testing

/// The bundled samples read as a place would: generated, with errors planted on purpose, but
/// the rest plausible to someone who knows the streets.
@Suite struct SampleDataTests {
    /// Yongsan's booths are named for a station exit (`서울역 광장 1번출구`): the booths of one
    /// station stand together, each within 300 m of their middle (they were scattered 0.7 to
    /// 2.7 km from it).
    @Test func boothsStandAtTheStationTheyAreNamedFor() throws {
        let page = try JSONSerialization.jsonObject(with: Data(try Fixtures.bytes("samples/yongsan-smoking/page-1.json"))) as? [String: Any]
        let rows = try #require(page?["data"] as? [[String: Any]])
        var byStation: [String: [GeoPoint]] = [:]
        for row in rows {
            let name = try #require(row["서울특별시 용산구 설치 위치"] as? String)
            let station = try #require(name.split(separator: " ").dropFirst(2).dropLast().joined(separator: " ").nonEmpty, "\(name)")
            let lat = try #require((row["위도"] as? String).flatMap(Double.init)), lon = try #require((row["경도"] as? String).flatMap(Double.init))
            byStation[station, default: []].append(try GeoPoint(latitude: lat, longitude: lon))
        }
        #expect(byStation.count == 8, "\(byStation.keys.sorted())")
        for (station, booths) in byStation {
            let middle = GeoPoint(uncheckedLatitude: booths.map(\.latitude).reduce(0, +) / Double(booths.count),
                                  longitude: booths.map(\.longitude).reduce(0, +) / Double(booths.count))
            for booth in booths { #expect(Geodesy.distance(middle, booth) <= 300, "a \(station) booth \(Int(Geodesy.distance(middle, booth))) m from the others") }
        }
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
