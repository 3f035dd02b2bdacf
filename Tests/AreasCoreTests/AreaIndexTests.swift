import XCTest
@testable import AreasCore
@testable import AreasTestSupport

final class AreaIndexTests: XCTestCase {
    private func areas(_ count: Int) -> [Area] {
        SyntheticPoints.clustered(count: count, seed: 9).enumerated().map { i, point in
            Area(id: "s:\(String(i, radix: 16))", kind: i % 3 == 0 ? .smoking : .nonsmoking,
                 name: "area \(i)", coordinate: point, source: "s")
        }
    }

    func testQueriesReturnAreasInIdOrderOnTies() throws {
        let data = areas(3_000)
        let index = AreaIndex(areas: data.shuffled())
        XCTAssertEqual(index.areas.map(\.id), data.map(\.id).sorted())
        let point = try GeoPoint(latitude: 37.55, longitude: 126.98)
        for kind in KindFilter.allCases {
            let got = try index.nearest(to: point, k: 25, kind: kind)
            let expected = index.areas.enumerated()
                .filter { kind.admits($0.element.kind) }
                .map { (id: $0.element.id, d: Geodesy.distance(point, $0.element.coordinate)) }
                .sorted { $0.d != $1.d ? $0.d < $1.d : $0.id < $1.id }
                .prefix(25)
            XCTAssertEqual(got.map { index.areas[$0.position].id }, expected.map(\.id))
            let box = try GeoBox(south: 37.5, west: 126.9, north: 37.6, east: 127.05)
            let inBox = try index.areas(in: box, kind: kind)
            XCTAssertEqual(
                inBox.map { index.areas[$0.position].id },
                index.areas.filter { kind.admits($0.kind) && box.contains($0.coordinate) }.map(\.id))
        }
    }

    func testLookupById() {
        let index = AreaIndex(areas: areas(500))
        for area in index.areas.shuffled().prefix(50) {
            XCTAssertEqual(index.area(id: area.id), area)
        }
        XCTAssertNil(index.area(id: "missing"))
        XCTAssertNil(AreaIndex.empty.area(id: "s:1"))
    }

    func testRepeatedIdsKeepTheFirst() {
        let p = GeoPoint(uncheckedLatitude: 37, longitude: 127)
        let index = AreaIndex(areas: [
            Area(id: "a", kind: .smoking, name: "first", coordinate: p, source: "s"),
            Area(id: "a", kind: .smoking, name: "second", coordinate: p, source: "s"),
        ])
        XCTAssertEqual(index.count, 1)
        XCTAssertEqual(index.area(id: "a")?.name, "first")
    }

    func testInvalidQueriesThrow() throws {
        let index = AreaIndex(areas: areas(10))
        let p = try GeoPoint(latitude: 37, longitude: 127)
        XCTAssertThrowsError(try index.areas(within: -1, of: p)) { XCTAssertEqual($0 as? GeoError, .invalidDistance(-1)) }
        XCTAssertThrowsError(try index.areas(within: .infinity, of: p))
        XCTAssertThrowsError(try index.nearest(to: p, k: -1)) { XCTAssertEqual($0 as? GeoError, .invalidCount(-1)) }
        XCTAssertThrowsError(try index.nearest(to: p, k: 1, maxMeters: -5))
        XCTAssertEqual(try index.nearest(to: p, k: 0), [])
    }
}
