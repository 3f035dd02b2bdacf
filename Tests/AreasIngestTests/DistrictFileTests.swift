import AreasCore
import Foundation
import Testing
@testable import AreasIngest
@testable import AreasTestSupport
import AreasTestTraits

/// The bundled district files, read as the sample config reads them, against the counts the
/// generator recorded as it planted each row (`samples/district-files/expected.json`).
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct DistrictFileTests {
    /// One refresh of the sample config (recorded geocoder answers, no network), shared by the
    /// tests below; its geocoder memory goes to a folder of its own.
    actor Shared {
        static let instance = Shared()
        private var result: (catalog: Catalog, report: RefreshReport)?

        func refreshed() async throws -> (catalog: Catalog, report: RefreshReport) {
            if let result { return result }
            let config = try AreasConfig.load(path: Fixtures.samplesConfig)
            let snapshot = Fixtures.temporaryDirectory() + "/areas.snapshot"
            let fresh = await Refresher(config: config, environment: [:], snapshotPath: snapshot).refresh(Catalog())
            result = fresh
            return fresh
        }
    }

    /// The cases below are one per file of `expected.json`: an unreadable one would leave none
    /// to run, so its count is checked on its own.
    @Test func everyDistrictFileHasItsExpectedCounts() {
        #expect(SampleCounts.districtFiles.count == SampleCounts.districtFileCount,
                "samples/district-files/expected.json gives \(SampleCounts.districtFiles.count) files, not \(SampleCounts.districtFileCount): unreadable or changed")
        #expect(Set(SampleCounts.districtFiles.keys).isSubset(of: Set(SampleCounts.sourceNames)))
    }

    @Test(arguments: SampleCounts.districtFiles.keys.sorted())
    func eachFileIngestsWithTheCountsItWasMadeWith(source name: String) async throws {
        let expected = try #require(SampleCounts.districtFiles[name])
        let refreshed = try await Shared.instance.refreshed()
        let report = try #require(refreshed.report.sources.first { $0.name == name })
        #expect(report.status == .updated, "\(report.summary)")
        #expect(report.accepted == expected.accepted)
        #expect(report.duplicates == expected.duplicates)
        #expect(report.rejected == expected.rejected)
        #expect(report.published == expected.published)
        #expect(report.geocodedNew + report.geocodedRemembered == expected.geocoded)
        #expect(report.placedByOperator == expected.positionsFile)
        #expect(report.repaired == expected.repaired ?? 0)
        #expect(refreshed.catalog.sources[name]?.range.count == expected.accepted)
    }

    private func areas(_ source: String) async throws -> [Area] {
        try await Shared.instance.refreshed().catalog.areas(of: source)
    }

    /// Headers with runs of spaces match their collapsed names, cells lose their padding, a
    /// header with a comma in quotes stays one column, and the district office names the district.
    @Test func seochoDirt() async throws {
        let areas = try await areas("seocho")
        let first = try #require(areas.first)
        #expect(areas.allSatisfy { $0.district == "서초구" && $0.province == "서울특별시" })
        #expect(areas.allSatisfy { $0.name == $0.name.trimmingCharacters(in: .whitespaces) && !$0.name.isEmpty })
        #expect(first.field("구 분") == "흡연시설")
        #expect(first.field("실외, 실내").map { ["실외", "실내"].contains($0) } == true)
        #expect(first.field("8") == "", "the trailing empty header is column 8")
        #expect(areas.allSatisfy { !$0.geocoded })
    }

    @Test func headerlessFileByColumnNumbers() async throws {
        let areas = try await areas("gangbuk")
        #expect(areas.allSatisfy { $0.district == "강북구" && $0.province == "서울특별시" && $0.roadAddress.hasPrefix("서울특별시 강북구") })
        #expect(areas.allSatisfy { $0.field("5") == "부스형" })
    }

    @Test func standardDataKeepsEveryZoneOnOnePoint() async throws {
        let areas = try await areas("daegu-standard")
        let onePoint = areas.filter { $0.coordinate.latitude == 35.8714354 && $0.coordinate.longitude == 128.6014445 }
        // 180 rows share the point; rows 50, 100 and 150 lost their latitude.
        #expect(onePoint.count == 177)
        #expect(Set(onePoint.map(\.id)).count == 177)
        #expect(areas.allSatisfy { $0.kind == .nonsmoking && $0.field("금연구역구분")?.count ?? 0 < 20 })
    }

    @Test func jsonRowsKeepNumbersAsTheirText() async throws {
        let areas = try await areas("dongjak")
        let first = try #require(areas.first)
        #expect(first.field("연번").map { Int($0) != nil } == true)
        #expect(first.field("비고") == "")
    }

    @Test func addressOnlyRowsAreGeocodedAndSaySo() async throws {
        let areas = try await areas("eunpyeong")
        #expect(areas.allSatisfy { $0.geocoded })
        #expect(areas.allSatisfy { $0.district == "은평구" })
        #expect(try await self.areas("seocho").allSatisfy { !$0.geocoded })
        // Geocoded positions survive the snapshot.
        let again = try SnapshotFile.decode(SnapshotFile.encode(try await Shared.instance.refreshed().catalog)).catalog
        #expect(again.areas(of: "eunpyeong") == areas)
    }
}

/// The data portal cuts its file exports off at 10,000 rows: a file of exactly that many is
/// taken, with a warning that it may be incomplete.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct PortalExportLimitTests {
    @Test(arguments: [9_999, 10_000])
    func rowsAtTheLimitAreWarnedOf(rows: Int) async throws {
        let folder = Fixtures.temporaryDirectory()
        var csv = "이름,위도,경도\n"
        for i in 0..<rows { csv += "구역 \(i),\(37 + Double(i) * 1e-5),127.0\n" }
        try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/rows.csv"))
        let json = #"{"sources": [{"name": "rows", "kind": "nonsmoking", "format": "csv", "file": "rows.csv", "fields": {"name": "이름", "latitude": "위도", "longitude": "경도"}}]}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/areasd.json"))
        let (_, report) = await Refresher(config: try AreasConfig.load(path: folder + "/areasd.json")).refresh(Catalog())
        let source = try #require(report.sources.first)
        #expect(source.accepted == rows)
        #expect(source.warnings.isEmpty == (rows != 10_000))
        #expect(source.summary.contains("may be incomplete") == (rows == 10_000))
    }
}
