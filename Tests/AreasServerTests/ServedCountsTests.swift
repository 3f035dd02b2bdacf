import AreasTestTraits
import AreasTestSupport
import AreasSystem
import Foundation
import Testing
@testable import AreasCore
@testable import AreasIngest
@testable import AreasProtocol
@testable import AreasServer

/// `stats`, `sources` and the metrics count the served areas from counts laid out in the
/// snapshot: asking them after a load touches no page of the records, and what they say is
/// what counting the published rows says.
@Suite(.offThePool, .timeLimit(.minutes(3)))
struct ServedCountsTests {
    /// Two district files, 30,000 rows in all, one in Seoul and one in Busan, some rows with a
    /// reference date.
    static func publish(in folder: String) throws -> (config: AreasConfig, rows: [String: (count: Int, province: String, oldest: String, newest: String)]) {
        var rows: [String: (count: Int, province: String, oldest: String, newest: String)] = [:]
        var sources: [String] = []
        for (name, count, province, south, west) in [("yongsan", 18_000, "서울특별시", 37.50, 126.90), ("busan", 12_000, "부산광역시", 35.10, 129.00)] {
            var lines = ["이름,위도,경도,주소,데이터기준일자"]
            func date(_ row: Int) -> String { row % 2 == 0 ? "2024-03-0\(1 + row % 9)" : "2023-11-1\(row % 9)" }
            for row in 0..<count {
                let position = (south + Double(row % 300) * 0.0005, west + Double(row / 300) * 0.0005)
                lines.append("\(name) 흡연구역 \(row),\(position.0),\(position.1),\(province) 중구 중앙대로 \(row),\(row % 7 == 0 ? date(row) : "")")
            }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: "\(folder)/\(name).csv"))
            let dates = (0..<count).filter { $0 % 7 == 0 }.map(date)
            rows[name] = (count, province, dates.min() ?? "", dates.max() ?? "")
            sources.append(#"{"name": "\#(name)", "kind": "smoking", "format": "csv", "file": "\#(folder)/\#(name).csv", "province": "\#(province)", "#
                           + #""fields": {"name": "이름", "latitude": "위도", "longitude": "경도", "address": "주소", "referenceDate": "데이터기준일자"}}"#)
        }
        let json = #"{"sources": [\#(sources.joined(separator: ", "))]}"#
        return (try AreasConfig.parse(Data(json.utf8), path: folder + "/areasd.json"), rows)
    }

    @Test func statsSourcesAndMetricsTouchNoRecordAndCountWhatWasPublished() async throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (config, rows) = try Self.publish(in: folder)
        let server = try await TestServer(config: config)
        defer { server.stop() }
        let index = server.service.state.index
        try #require(index.areas.records.storage is MappedFile, "served from the snapshot the refresh wrote and read back")
        let recordBytes = index.areas.records.count * MemoryLayout<AreaTable.Record>.stride
        func residentRecords() -> Int { ResidentParts(of: server.service.state.index).mapped[.records] ?? 0 }

        // Whatever the refresh read of the file it served is let go, as a load does.
        (index.areas.records.storage as? MappedFile)?.releaseResidentPages()
        let before = residentRecords()
        let stats = try server.ask(#"{"op":"stats"}"#)
        let metrics = try server.ask(#"{"op":"metrics"}"#)
        let sources = try server.ask(#"{"op":"sources"}"#)
        let after = residentRecords()
        #expect(before < recordBytes / 4, "\(before) of \(recordBytes) bytes of records resident before asking")
        #expect(after == before, "stats, metrics and sources made \(after - before) bytes of records resident")

        // What they say, against the rows written.
        #expect(stats["areas"]?.double == Double(rows.values.reduce(0) { $0 + $1.count }))
        for (name, published) in rows {
            #expect(stats["byProvince"]?[published.province]?.double == Double(published.count), "\(String(describing: stats["byProvince"]))")
            #expect(stats["bySource"]?[name]?["areas"]?.double == Double(published.count))
            let listed = sources["sources"]?.array.first { $0["name"]?.string == name }
            #expect(listed?["areas"]?.double == Double(published.count), "\(String(describing: listed))")
            #expect(listed?["referenceDates"]?["oldest"]?.string == published.oldest && listed?["referenceDates"]?["newest"]?.string == published.newest,
                    "\(name): \(String(describing: listed?["referenceDates"]))")
            #expect(stats["bySource"]?[name]?["referenceDates"] == listed?["referenceDates"])
            #expect(listed?["kind"]?.string == "smoking" && listed?["merged"]?.double == 0 && listed?["footprints"] == .null)
            let district = sources["districts"]?.array.first { $0["province"]?.string == published.province }
            #expect(district?["smoking"]?.double == Double(published.count) && district?["referenceDates"] == listed?["referenceDates"], "\(String(describing: district))")
        }
        #expect(metrics["metrics"]?.string?.contains(#"areas_source_areas{source="busan"} 12000"#) == true)
    }

    /// Counts in a file that do not fit its areas refuse the file, as any corrupt part does.
    @Test func countsThatDoNotFitTheAreasRefuseTheFile() throws {
        let areas = (0..<50).map { n in
            Area(id: "s:\(n)", kind: .smoking, name: "흡연구역 \(n)", coordinate: GeoPoint(uncheckedLatitude: 37.5 + Double(n) * 0.001, longitude: 127),
                 roadAddress: "서울특별시 중구 세종대로 \(n)", province: "서울특별시", district: "중구", source: "s", fields: [])
        }
        let catalog = Catalog(areas: areas, fetchedAt: ["s": 1.7e9])
        let index = catalog.index()
        var bytes = SnapshotFile.encode(catalog, index: index, createdAt: 1.7e9)
        #expect(try SnapshotFile.decode(bytes).counts == ServedCounts(catalog, index: index))
        // 중구's 50 smoking areas made 59: still a count, no longer the areas'.
        let written = Array(#"["서울특별시","중구",50"#.utf8)
        let at = try #require(bytes.indices.first { bytes[$0..<min($0 + written.count, bytes.count)].elementsEqual(written) })
        bytes[at + written.count - 2] = UInt8(ascii: "5")
        bytes[at + written.count - 1] = UInt8(ascii: "9")
        SnapshotFile.seal(&bytes)
        let error = #expect(throws: SnapshotFile.Failure.self) { try SnapshotFile.decode(bytes) }
        #expect("\(String(describing: error))".contains("its counts do not fit its areas"))
    }
}
