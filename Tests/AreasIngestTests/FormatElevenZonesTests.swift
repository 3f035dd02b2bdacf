@testable import AreasCore
@testable import AreasIngest
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// A format 11 file with zones in both footprint bands, merged sources and upstream fields
/// (written by the build before format 12 from a page of the sample zones and the Yongsan
/// booths) reads in its own order, and the same data written again in format 12 reads back
/// equal, column by column, and answers alike, as a brute-force scan does.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct FormatElevenZonesTests {
    private let directory = Fixtures.temporaryDirectory()

    @Test func aFormatElevenFileReadsAsItsFormatTwelveRewrite() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = directory + "/old.snapshot", new = directory + "/new.snapshot"
        try FileManager.default.copyItem(atPath: Fixtures.path("Tests/AreasIngestTests/Fixtures/zones-version-11.snapshot"), toPath: old)
        let eleven = try #require(try SnapshotFile.load(path: old))
        let elevenIndex = try #require(eleven.index)
        #expect(eleven.version == 11)
        _ = try SnapshotFile.writeMapped(eleven.catalog, index: elevenIndex, to: new, createdAt: eleven.createdAt, changes: eleven.changes)
        let twelve = try #require(try SnapshotFile.load(path: new))
        let twelveIndex = try #require(twelve.index)
        #expect(twelve.version == 12)

        // The fixture holds what the new order moves: zones in both bands, smoking areas,
        // upstream fields.
        let (a, b) = (elevenIndex, twelveIndex)
        #expect(a.footprints.bands.count == 2 && a.footprints.bands.allSatisfy { $0.radii.count > 0 })
        #expect(a.smokingPositions.count > 0 && a.areas.fields.values.count > a.count)
        #expect(twelve.catalog == eleven.catalog)
        #expect(Array(b.areas) == Array(a.areas))
        #expect(Array(b.areas.records.map(\.coordinate)) == Array(a.areas.records.map(\.coordinate)))
        #expect(Array(b.footprints.packed) == Array(a.footprints.packed))
        #expect(Array(b.smokingPositions) == Array(a.smokingPositions))
        for (x, y) in zip(a.footprints.bands, b.footprints.bands) {
            #expect(Array(x.radii) == Array(y.radii) && Array(x.positions) == Array(y.positions) && x.widestMeters == y.widestMeters)
        }

        let points = a.areas.records.map(\.coordinate)
        let scan = LinearScan(points: points)
        let south = points.map(\.latitude).min() ?? 37, north = points.map(\.latitude).max() ?? 38
        let west = points.map(\.longitude).min() ?? 126, east = points.map(\.longitude).max() ?? 127
        let extent = try GeoBox(south: south, west: west, north: north, east: east)
        var random = SplitMix64(seed: 12)
        for _ in 0..<200 {
            let point = SyntheticPoints.point(in: extent, using: &random)
            let nearest = try b.nearest(to: point, k: 7)
            #expect(nearest == (try a.nearest(to: point, k: 7)))
            #expect(nearest.map(\.position) == scan.nearest(to: point, k: 7).map { Int($0.payload) })
            #expect(try b.areas(within: 500, of: point) == (try a.areas(within: 500, of: point)))
            let (checkA, checkB) = (try a.check(point), try b.check(point))
            #expect(checkB.zones == checkA.zones && checkB.nearestSmoking == checkA.nearestSmoking)
        }
    }
}
