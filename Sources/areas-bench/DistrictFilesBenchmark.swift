import AreasCore
import AreasIngest
import AreasSystem
import AreasTestSupport
import Foundation

/// The district-file part of `areas-bench ingest`: CSV decoding beside the least any reader
/// must do with the same bytes (iconv, then a split on commas and line ends), CP949
/// transcoding alone, and geocoding refreshes of 20 address-only sources against a loopback
/// geocoder that takes 20 ms an answer.
struct DistrictFilesBenchmark {
    var rows = 100_000
    var geocodedSources = 20
    var geocodedRowsPerSource = 150
    var requestsPerSecond = 200.0

    /// A CSV in the standard non-smoking data's shape, `rows` rows, in CP949 with CRLF.
    func standardCSV() throws -> [UInt8] {
        let points = SyntheticPoints.clustered(count: rows, seed: 9)
        var text = "금연구역명,금연구역범위상세,시도명,시군구명,금연구역구분,금연구역지정근거명,금연구역면적,위반과태료,위반신고전화번호,소재지도로명주소,소재지지번주소,관리기관명,위도,경도,데이터기준일자,제공기관코드\r\n"
        for (i, point) in points.enumerated() {
            text += "대구 중앙로\(i) 어린이공원,\"놀이시설 경계 10m 이내, 출입구 포함\",대구광역시,중구,\("어린이놀이시설".padding(toLength: 40, withPad: " ", startingAt: 0)),국민건강증진법 제9조4항,\(i % 3000),100000,053-120,대구광역시 중구 중앙로 \(i % 300),,대구광역시 중구청,\(point.latitude),\(point.longitude),2026-09-30,3230000\r\n"
        }
        return try TextConverter(from: "UTF-8", to: "CP949").convert(Array(text.utf8))
    }

    func run() async throws {
        let cp949 = try standardCSV()
        let path = NSTemporaryDirectory() + "areas-bench-\(getpid()).csv"
        try Data(cp949).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let megabytes = Double(cp949.count) / 1e6
        print("district CSV: \(rows) rows, \(Measure.format(megabytes)) MB of CP949")

        // Best of five rounds, each timing every reader back to back.
        var read = Double.infinity, transcode = Double.infinity, floor = Double.infinity, decode = Double.infinity
        var records = 0
        var cells = 0
        for _ in 0..<5 {
            var start = Measure.clock.now
            let bytes = try FileTransport.read(path, maxBytes: 1 << 30)
            read = min(read, (Measure.clock.now - start).milliseconds)

            start = Measure.clock.now
            let utf8 = try TextConverter(from: "CP949", to: "UTF-8").convert(bytes)
            transcode = min(transcode, (Measure.clock.now - start).milliseconds)

            // The floor: transcode, then every line split on commas into strings.
            start = Measure.clock.now
            let again = try TextConverter(from: "CP949", to: "UTF-8").convert(bytes)
            cells = 0
            for line in again.split(separator: UInt8(ascii: "\n")) {
                for cell in line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                    cells &+= String(decoding: cell, as: UTF8.self).utf8.count > 0 ? 1 : 0
                }
            }
            floor = min(floor, (Measure.clock.now - start).milliseconds)
            _ = utf8

            start = Measure.clock.now
            records = try CSVDecoder(encoding: .cp949).decode(bytes).records.count
            decode = min(decode, (Measure.clock.now - start).milliseconds)
        }
        print("read: \(Measure.format(megabytes / read * 1000)) MB/s; CP949 to UTF-8: \(Measure.format(megabytes / transcode * 1000)) MB/s; iconv + split on commas: \(Measure.format(megabytes / floor * 1000)) MB/s (\(cells) non-empty cells)")
        print("CSV decoder (iconv, RFC 4180, header, trimmed fields): \(Measure.format(megabytes / decode * 1000)) MB/s, \(Int(Double(records) / decode * 1000)) rows/s; against iconv + split: \(Measure.format(floor / decode))x")

        let geocoding = try await geocodingRefreshes()
        print("{\"csv_rows\":\(rows),\"csv_mb\":\(Measure.format(megabytes)),\"read_mb_per_s\":\(Measure.format(megabytes / read * 1000)),\"cp949_mb_per_s\":\(Measure.format(megabytes / transcode * 1000))," +
              "\"iconv_split_mb_per_s\":\(Measure.format(megabytes / floor * 1000)),\"csv_decoder_mb_per_s\":\(Measure.format(megabytes / decode * 1000)),\"csv_rows_per_s\":\(Int(Double(records) / decode * 1000))," +
              "\"csv_vs_iconv_split\":\(Measure.format(floor / decode)),\(geocoding)}")
    }

    /// Two refreshes of address-only sources through a slow loopback geocoder: the first is
    /// paced by `requestsPerSecond`, the second asks nothing. The JSON members of the result.
    func geocodingRefreshes() async throws -> String {
        let server = try LoopbackHTTPServer { request in
            usleep(20_000)
            let n = Int(request.query["query"]?.split(separator: " ").last ?? "") ?? 0
            return .text(200, #"{"meta":{"total_count":1},"documents":[{"x":"\#(127.0 + Double(n) * 1e-5)","y":"\#(37.4 + Double(n) * 1e-5)"}]}"#)
        }
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "areas-bench-geocode-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var sources: [String] = []
        for s in 0..<geocodedSources {
            var csv = "장소,주소\n"
            for r in 0..<geocodedRowsPerSource { csv += "흡연부스 \(s)-\(r),중앙로 \(s * geocodedRowsPerSource + r)\n" }
            try Data(csv.utf8).write(to: URL(fileURLWithPath: "\(folder)/s\(s).csv"))
            sources.append(#"{"name":"s\#(s)","kind":"smoking","format":"csv","file":"s\#(s).csv","fields":{"name":"장소","address":"주소"},"geocode":{"query":"서울특별시 {주소}"}}"#)
        }
        let json = """
            {"snapshot":"areas.snapshot","geocoder":{"provider":"kakao","url":"\(server.baseURL)","keyEnv":"BENCH_KEY","requestsPerSecond":\(requestsPerSecond)},
             "sources":[\(sources.joined(separator: ","))]}
            """
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/areasd.json"))
        let config = try AreasConfig.load(path: folder + "/areasd.json")
        let total = geocodedSources * geocodedRowsPerSource

        var start = Measure.clock.now
        let (catalog, first) = await Refresher(config: config, environment: ["BENCH_KEY": "k"]).refresh(Catalog())
        let firstSeconds = (Measure.clock.now - start).milliseconds / 1000
        let firstRequests = server.requestCount
        let placed = first.sources.reduce(0) { $0 + $1.geocodedNew }
        print("geocoding, \(geocodedSources) sources x \(geocodedRowsPerSource) address-only rows, geocoder answering in 20 ms at most \(Int(requestsPerSecond))/s: first refresh \(Measure.format(firstSeconds)) s, \(firstRequests) requests (\(Measure.format(Double(firstRequests) / firstSeconds)) a second), \(placed) of \(total) placed; the pace allows no less than \(Measure.format(Double(total - 1) / requestsPerSecond)) s")

        start = Measure.clock.now
        let (_, second) = await Refresher(config: config, environment: ["BENCH_KEY": "k"]).refresh(catalog)
        let secondMilliseconds = (Measure.clock.now - start).milliseconds
        let remembered = second.sources.reduce(0) { $0 + $1.geocodedRemembered }
        print("second refresh (a new process's refresher, memory from disk): \(Measure.format(secondMilliseconds)) ms, \(server.requestCount - firstRequests) requests, \(remembered) of \(total) remembered")
        return "\"geocode_rows\":\(total),\"geocode_first_s\":\(Measure.format(firstSeconds)),\"geocode_first_requests\":\(firstRequests),\"geocode_requests_per_s_limit\":\(Int(requestsPerSecond))," +
            "\"geocode_second_ms\":\(Measure.format(secondMilliseconds)),\"geocode_second_requests\":\(server.requestCount - firstRequests)"
    }
}
