import AreasCore
import AreasIngest
import AreasServer
import AreasSystem
import AreasTestSupport
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `areas-bench ingest`: XML decoding beside a bare XMLParser pass, a full refresh of 80,000
/// zones from a loopback HTTP server, loading a snapshot of a million areas, then the district
/// files (`DistrictFilesBenchmark`).
struct IngestBenchmark {
    var zones = 80_000
    var pageSize = 1_000
    var snapshotAreas = 1_000_000
    /// Only the decoding measurement (for an instruction count of the decoder alone).
    var decodeOnly = false
    /// Only the district files: CSV decoding, CP949, geocoding refreshes.
    var filesOnly = false
    /// Only decoding and the refreshes, not the million-area snapshot or the district files.
    var refreshOnly = false
    var districtFiles = DistrictFilesBenchmark()

    init(arguments: inout ArgumentList) throws {
        zones = try arguments.value("--zones", as: { Int($0) }) ?? zones
        snapshotAreas = try arguments.value("--snapshot-areas", as: { Int($0) }) ?? snapshotAreas
        decodeOnly = arguments.flag("--decode-only")
        filesOnly = arguments.flag("--files-only")
        refreshOnly = arguments.flag("--refresh-only")
        districtFiles.rows = try arguments.value("--csv-rows", as: { Int($0) }) ?? districtFiles.rows
        guard zones >= pageSize, snapshotAreas > 0 else { throw UsageError.wrongArguments("--zones must be at least \(pageSize)") }
        _ = try arguments.positionals()
    }

    /// Pages in the exact shape of the nationwide API, made from the recorded sample's rows.
    static func pages(zones: Int, pageSize: Int, template: [[Field]]) -> [[UInt8]] {
        var random = SplitMix64(seed: 12)
        let points = SyntheticPoints.clustered(count: zones, seed: 4)
        var pages: [[UInt8]] = []
        var index = 0
        var page = 1
        while index < zones {
            var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<response><header><resultCode>00</resultCode><resultMsg>NORMAL_SERVICE</resultMsg></header><body><items>\n"
            for _ in 0..<Swift.min(pageSize, zones - index) {
                let row = template[Int.random(in: 0..<template.count, using: &random)]
                text += "<item>"
                for field in row {
                    var value = field.value
                    switch field.key {
                    case "prhsmkNm": value += " \(index)"
                    case "latitude": value = String(points[index].latitude)
                    case "longitude": value = String(points[index].longitude)
                    default: break
                    }
                    text += "<\(field.key)>\(value)</\(field.key)>"
                }
                text += "</item>\n"
                index += 1
            }
            text += "</items><numOfRows>\(pageSize)</numOfRows><pageNo>\(page)</pageNo><totalCount>\(zones)</totalCount></body></response>\n"
            pages.append(Array(text.utf8))
            page += 1
        }
        return pages
    }

    final class EmptyDelegate: NSObject, XMLParserDelegate {}

    /// A refresh with the search index against one without, as a daemon's refresh does it: the
    /// fetch, decoding and validation measured above, then the index built and the snapshot
    /// written and mapped, with and without the search index, interleaved (median of three).
    /// The whole refresh's ratio.
    private func searchIndexShare(of catalog: Catalog, fetchMilliseconds: Double) throws -> Double {
        let directory = NSTemporaryDirectory() + "areas-bench-ingest-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var with: [Double] = [], without: [Double] = []
        for _ in 0..<3 {
            for searchable in [false, true] {
                let start = Measure.clock.now
                let index = AreaIndex(sortedTable: catalog.table, searchable: searchable)
                _ = try SnapshotFile.writeMapped(catalog, index: index, to: directory + "/areas.snapshot")
                let milliseconds = (Measure.clock.now - start).milliseconds
                if searchable { with.append(milliseconds) } else { without.append(milliseconds) }
            }
        }
        let (a, b) = (with.sorted()[1], without.sorted()[1])
        let ratio = (fetchMilliseconds + a) / (fetchMilliseconds + b)
        print("the refresh's index and snapshot with the search index \(Measure.format(a, 0)) ms, without \(Measure.format(b, 0)) ms (median of 3, interleaved); "
              + "with the fetch and decoding (\(Measure.format(fetchMilliseconds, 0)) ms) the whole refresh \(Measure.format(ratio, 3))x")
        return ratio
    }

    func run() async throws {
        if filesOnly { return try await districtFiles.run() }
        let samplePath = "samples/nonsmoking-zones/page-1.xml"
        guard let sample = FileManager.default.contents(atPath: samplePath) else {
            throw UsageError.wrongArguments("run from the package folder: \(samplePath) not found")
        }
        let template = try DataGoKrXMLDecoder().decode([UInt8](sample)).records.filter { row in
            row.contains { $0.key == "latitude" && Double($0.value) != nil }
        }
        let pages = Self.pages(zones: zones, pageSize: pageSize, template: template)
        let totalBytes = pages.reduce(0) { $0 + $1.count }
        print("\(zones) zones in \(pages.count) pages, \(totalBytes / 1_000_000) MB of XML")

        // Decoding beside a bare parse of the same bytes: five rounds, each timing both back to
        // back, and the best of each, so a noisy neighbour on a shared machine skews neither.
        var bare = Double.infinity
        var decode = Double.infinity
        var records = 0
        for _ in 0..<5 {
            let start = Measure.clock.now
            for page in pages {
                let parser = XMLParser(data: Data(page))
                let delegate = EmptyDelegate()
                parser.delegate = delegate
                _ = parser.parse()
            }
            bare = Swift.min(bare, (Measure.clock.now - start).milliseconds)
            let start2 = Measure.clock.now
            records = 0
            for page in pages { records += try DataGoKrXMLDecoder().decode(page).records.count }
            decode = Swift.min(decode, (Measure.clock.now - start2).milliseconds)
        }
        let megabytes = Double(totalBytes) / 1e6
        print("bare XMLParser: \(Measure.format(megabytes / bare * 1000)) MB/s; decoder: \(Measure.format(megabytes / decode * 1000)) MB/s, \(Int(Double(records) / decode * 1000)) records/s; ratio \(Measure.format(bare / decode))")
        if decodeOnly { return }

        // A full refresh from a loopback server.
        let server = try LoopbackHTTPServer { request in
            let page = Int(request.query["pageNo"] ?? "1") ?? 1
            guard page >= 1, page <= pages.count else {
                return .text(200, "<response><header><resultCode>03</resultCode><resultMsg>NODATA_ERROR</resultMsg></header></response>")
            }
            return .body(status: 200, contentType: "text/xml", pages[page - 1])
        }
        defer { server.stop() }
        let configJSON = """
            {"snapshot":"/tmp/areas-bench.snapshot","sources":[{"name":"zones","kind":"nonsmoking","format":"data-go-kr-xml",
            "url":"\(server.baseURL)/openapi/tn_pubr_public_prhsmk_zn_api","pageSize":\(pageSize),"maxPages":\(pages.count + 10)}]}
            """
        let config = try AreasConfig.parse(Data(configJSON.utf8), path: "bench.json")
        // As areasd does: fetch, then encode the snapshot and serve the index of the same table;
        // a second refresh then starts from what the first serves, as every later one does.
        Measure.resetPeakResident()
        var startResident = Measure.residentBytes
        var refreshStart = Measure.clock.now
        let (catalog, report) = await Refresher(config: config, environment: [:]).refresh(Catalog())
        let fetchMilliseconds = (Measure.clock.now - refreshStart).milliseconds
        let state = ServingState(.indexing(catalog), hasData: true, lastReport: report, snapshotPath: "", builtAt: 0)
        var snapshotBytes = SnapshotFile.encode(catalog, index: state.index).count
        let refreshMilliseconds = (Measure.clock.now - refreshStart).milliseconds
        let refreshPeak = Measure.peakResidentBytes - startResident
        print("full refresh: \(report.sources[0].summary); with snapshot encoding (\(snapshotBytes / 1_000_000) MB) and index build \(Measure.format(refreshMilliseconds)) ms, peak \(refreshPeak / 1_048_576) MiB above the start")
        Measure.resetPeakResident()
        startResident = Measure.residentBytes
        refreshStart = Measure.clock.now
        let (again, againReport) = await Refresher(config: config, environment: [:]).refresh(state.catalog)
        let againState = ServingState(.indexing(again), hasData: true, lastReport: againReport, snapshotPath: "", builtAt: 0)
        snapshotBytes = SnapshotFile.encode(again, index: againState.index).count
        let againMilliseconds = (Measure.clock.now - refreshStart).milliseconds
        let againPeak = Measure.peakResidentBytes - startResident
        print("second refresh over the first's data: \(againReport.sources[0].summary); \(Measure.format(againMilliseconds)) ms, peak \(againPeak / 1_048_576) MiB above the start (\(againState.index.count) areas)")
        let searchShare = try searchIndexShare(of: catalog, fetchMilliseconds: fetchMilliseconds)
        if refreshOnly { return }

        // A snapshot of a million areas: written, then loaded as areasd does at start (mapped,
        // checked, the index served in place); beside it, building the index from the table,
        // which reading a file of format 2 to 4 costs on top.
        let points = SyntheticPoints.clustered(count: snapshotAreas, seed: 5)
        let areas = points.enumerated().map { i, p in
            Area(id: "bench:\(String(i, radix: 16))", kind: i % 10 == 0 ? .smoking : .nonsmoking, name: "흡연구역 \(i)",
                 coordinate: p, roadAddress: "서울특별시 용산구 한강대로 \(i % 400)", province: "서울특별시", district: "용산구",
                 source: "bench", fields: [Field("prhsmkSe", "공공기관의청사"), Field("prhsmkAr", "\(i % 3000)")])
        }
        let path = NSTemporaryDirectory() + "areas-bench-\(getpid()).snapshot"
        // In id order, as a refresh leaves them.
        try SnapshotFile.write(Catalog(areas: areas, fetchedAt: ["bench": Date().timeIntervalSince1970]), to: path)
        defer { unlink(path) }
        // Best of three: a shared machine's noise only ever adds.
        var loadMilliseconds = Double.infinity
        var indexMilliseconds = Double.infinity
        var loadedIndex: AreaIndex?
        for _ in 0..<3 {
            loadedIndex = nil
            let loadStart = Measure.clock.now
            let loaded = try SnapshotFile.load(path: path)
            loadMilliseconds = Swift.min(loadMilliseconds, (Measure.clock.now - loadStart).milliseconds)
            let indexStart = Measure.clock.now
            loadedIndex = loaded.map { $0.catalog.index() }
            precondition(loaded?.index != nil, "a snapshot just written holds its index")
            indexMilliseconds = Swift.min(indexMilliseconds, (Measure.clock.now - indexStart).milliseconds)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        print("snapshot of \(loadedIndex?.count ?? 0) areas (\(size / 1_000_000) MB): load with the index in place \(Measure.format(loadMilliseconds)) ms; building the index from the table instead \(Measure.format(indexMilliseconds)) ms")

        print("{\"zones\":\(zones),\"xml_mb\":\(Measure.format(megabytes)),\"bare_parser_mb_per_s\":\(Measure.format(megabytes / bare * 1000))," +
              "\"decoder_mb_per_s\":\(Measure.format(megabytes / decode * 1000)),\"decoder_records_per_s\":\(Int(Double(records) / decode * 1000))," +
              "\"decoder_vs_bare\":\(Measure.format(bare / decode)),\"refresh_ms\":\(Measure.format(refreshMilliseconds)),\"refresh_areas\":\(state.index.count),\"refresh_peak_mib\":\(refreshPeak / 1_048_576)," +
              "\"second_refresh_ms\":\(Measure.format(againMilliseconds)),\"second_refresh_peak_mib\":\(againPeak / 1_048_576)," +
              "\"refresh_with_search_vs_without\":\(Measure.format(searchShare, 3)),\"snapshot_areas\":\(snapshotAreas),\"snapshot_load_ms\":\(Measure.format(loadMilliseconds)),\"index_rebuild_ms\":\(Measure.format(indexMilliseconds))}")
        try await districtFiles.run()
    }
}
