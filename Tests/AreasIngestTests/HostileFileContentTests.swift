import AreasCore
import Foundation
import Testing
@testable import AreasIngest
@testable import AreasTestSupport
import AreasTestTraits

/// District files at the edge of what a publisher could send: a 30 MB cell, a million columns,
/// JSON nested past any row's need. Each is read or refused with a reason, within the page
/// limit, and never crashes the reader.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct HostileFileContentTests {
    /// A refresh of one file source named `file` in `folder`, with `fields`.
    func refresh(_ folder: String, file: String, format: String = "csv", fields: String = #"{"name":"n","latitude":"lat","longitude":"lon"}"#) async throws -> SourceReport {
        try await refreshed(folder, file: file, format: format, fields: fields).report
    }

    func refreshed(_ folder: String, file: String, format: String = "csv", fields: String = #"{"name":"n","latitude":"lat","longitude":"lon"}"#) async throws -> (areas: [Area], report: SourceReport) {
        let json = #"{"sources": [{"name": "f", "kind": "smoking", "format": "\#(format)", "file": "\#(file)", "fields": \#(fields)}]}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/areasd.json"))
        let (catalog, report) = await Refresher(config: try AreasConfig.load(path: folder + "/areasd.json")).refresh(Catalog())
        return (catalog.areas(of: "f"), try #require(report.sources.first))
    }


    /// A 30 MB cell: the row is served, its cell cut to 4 KiB at a character's end.
    @Test func aThirtyMegabyteCellIsCut() async throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var text = "n,lat,lon,memo\n부스 1,37.5,127.0,짧은 메모\n부스 2,37.6,127.1,"
        text += String(repeating: "가", count: 10_000_000) + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/big.csv"))
        let (areas, report) = try await refreshed(folder, file: "big.csv")
        #expect(report.status == .updated && report.accepted == 2, "\(report.summary)")
        let memo = try #require(areas.first { $0.name == "부스 2" }?.field("memo"))
        #expect(memo.utf8.count <= RecordValidator.maximumFieldBytes && memo.hasSuffix("…") && memo.hasPrefix("가가가"))
        #expect(areas.first { $0.name == "부스 1" }?.field("memo") == "짧은 메모")
    }

    /// A million columns: the row is served with its first 256, the name and position among them.
    @Test func aMillionColumnsKeepTheFirstFew() async throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let header = "n,lat,lon," + (0..<1_000_000).map { "c\($0)" }.joined(separator: ",")
        let row = "부스,37.5,127.0," + String(repeating: "x,", count: 999_999) + "x"
        try Data((header + "\n" + row + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/wide.csv"))
        let (areas, report) = try await refreshed(folder, file: "wide.csv")
        #expect(report.status == .updated && report.accepted == 1, "\(report.summary)")
        let area = try #require(areas.first)
        #expect(area.fields.count == RecordValidator.maximumFields && area.name == "부스" && area.coordinate.latitude == 37.5)
    }

    @Test func deeplyNestedJSONIsAnErrorNotACrash() async throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let nested = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        try Data((#"[{"n": "부스", "lat": 37.5, "lon": 127.0, "deep": "# + nested + "}]").utf8).write(to: URL(fileURLWithPath: folder + "/deep.json"))
        let report = try await refresh(folder, file: "deep.json", format: "json-rows")
        #expect(report.status == .failed, "\(report.summary)")
        #expect(report.error?.isEmpty == false)
    }
}
