import Foundation
import Testing
@testable import AreasCore
@testable import AreasTestSupport
import AreasTestTraits

@Suite(.tags(.concurrent), .offThePool, .timeLimit(.minutes(5)))
final class AreaIndexTests {
    private func areas(_ count: Int) -> [Area] {
        SyntheticPoints.clustered(count: count, seed: 9).enumerated().map { i, point in
            Area(id: "s:\(String(i, radix: 16))", kind: i % 3 == 0 ? .smoking : .nonsmoking,
                 name: "area \(i)", coordinate: point, source: "s")
        }
    }

    @Test func queriesReturnAreasInIdOrderOnTies() throws {
        let data = areas(3_000)
        let index = AreaIndex(areas: data.shuffled())
        #expect(index.areas.map(\.id) == data.map(\.id).sorted())
        let point = try GeoPoint(latitude: 37.55, longitude: 126.98)
        for kind in KindFilter.allCases {
            let got = try index.nearest(to: point, k: 25, kind: kind)
            let expected = index.areas.enumerated()
                .filter { kind.admits($0.element.kind) }
                .map { (id: $0.element.id, d: Geodesy.distance(point, $0.element.coordinate)) }
                .sorted { $0.d != $1.d ? $0.d < $1.d : $0.id < $1.id }
                .prefix(25)
            #expect((got.map { index.areas[$0.position].id }) == expected.map(\.id))
            let box = try GeoBox(south: 37.5, west: 126.9, north: 37.6, east: 127.05)
            let inBox = try index.areas(in: box, kind: kind)
            #expect((inBox.map { index.areas[$0.position].id }) == (index.areas.filter { kind.admits($0.kind) && box.contains($0.coordinate) }.map(\.id)))
        }
    }

    @Test func lookupById() {
        let index = AreaIndex(areas: areas(500))
        for area in index.areas.shuffled().prefix(50) {
            #expect((index.area(id: area.id)) == area)
        }
        #expect((index.area(id: "missing")) == nil)
        #expect((AreaIndex.empty.area(id: "s:1")) == nil)
    }

    @Test func repeatedIdsKeepTheFirst() {
        let p = GeoPoint(uncheckedLatitude: 37, longitude: 127)
        let index = AreaIndex(areas: [
            Area(id: "a", kind: .smoking, name: "first", coordinate: p, source: "s"),
            Area(id: "a", kind: .smoking, name: "second", coordinate: p, source: "s"),
        ])
        #expect(index.count == 1)
        #expect((index.area(id: "a")?.name) == "first")
    }

    @Test func invalidQueriesThrow() throws {
        let index = AreaIndex(areas: areas(10))
        let p = try GeoPoint(latitude: 37, longitude: 127)
        if let error = #expect(throws: (any Error).self, performing: { try index.areas(within: -1, of: p) }) { #expect((error as? GeoError) == .invalidDistance(-1)) }
        #expect(throws: (any Error).self) { try index.areas(within: .infinity, of: p) }
        if let error = #expect(throws: (any Error).self, performing: { try index.nearest(to: p, k: -1) }) { #expect((error as? GeoError) == .invalidCount(-1)) }
        #expect(throws: (any Error).self) { try index.nearest(to: p, k: 1, maxMeters: -5) }
        #expect((try index.nearest(to: p, k: 0)) == [])
    }
}
