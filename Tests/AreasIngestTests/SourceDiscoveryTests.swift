import AreasCore
import AreasProtocol
import Foundation
import Testing
@testable import AreasIngest
@testable import AreasTestSupport
import AreasTestTraits

/// `--discover` against the sources a person wrote by hand: for each sample file, the source
/// discovery prints, put into a config as it is, serves exactly what the hand-written source
/// serves (the same names, positions, regions and geocoded flags), and as many areas as the
/// generator planted.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct SourceDiscoveryTests {
    /// The proposed name leaves the release's date out (every id of the source starts with the
    /// name, and next year's file is the same source).
    @Test(arguments: [
        ("Tests/RealData/seoul-jungnang-smoking-facilities-20260212.csv", "seoul-jungnang-smoking-facilities"),
        ("/data/seoul-yongsan-smoking-20240719.csv", "seoul-yongsan-smoking"),
        ("서울특별시 중랑구_흡연시설 현황_20260212.csv", "서울특별시-중랑구-흡연시설-현황"),
        ("prhsmk-standard-seoul-2022.csv", "prhsmk-standard-seoul"),
        ("zones-2026-02-12.csv", "zones"),
        ("https://example.org/files/busan_202406.json?x=1", "busan"),
        ("seocho-smoking.csv", "seocho-smoking"),
        ("route-66-stops.csv", "route-66-stops"),
        ("20260212.csv", "20260212"),
    ])
    func theProposedNameHasNoDate(origin: String, expected: String) {
        #expect(SourceDiscovery.sourceName(from: origin) == expected)
    }

    /// A sample file, the hand-written source for it, and what discovery is told.
    struct Shape: Sendable, CustomTestStringConvertible {
        var file: String
        var name: String
        var kind: AreaKind? = nil
        var testDescription: String { name }
    }

    /// The sample config's district files and the generated shapes (`samples/discovery`).
    static let shapes: [Shape] = [
        Shape(file: "samples/district-files/seocho-smoking.csv", name: "seocho"),
        Shape(file: "samples/district-files/gangbuk-smoking-noheader.csv", name: "gangbuk"),
        Shape(file: "samples/district-files/eunpyeong-smoking-addresses.csv", name: "eunpyeong"),
        Shape(file: "samples/district-files/standard-nonsmoking-daegu.csv", name: "daegu-standard"),
        Shape(file: "samples/district-files/dongjak-smoking.json", name: "dongjak"),
        Shape(file: "samples/district-files/seoul-park-zones.geojson", name: "seoul-parks"),
        Shape(file: "samples/discovery/dobong-noheader.csv", name: "dobong"),
        Shape(file: "samples/discovery/songpa-xy.csv", name: "songpa"),
        Shape(file: "samples/discovery/haeundae-one-cell.csv", name: "haeundae"),
        Shape(file: "samples/discovery/seongdong-category.csv", name: "seongdong"),
        Shape(file: "samples/discovery/jung-name-is-address.csv", name: "jung"),
        // Nothing in this file says smoking or non-smoking: the operator says.
        Shape(file: "samples/discovery/mapo-partial-coordinates.csv", name: "mapo", kind: .smoking),
        Shape(file: "samples/discovery/sejong-rows.json", name: "sejong"),
    ]

    /// The hand-written source: the sample config's, or the one written beside the file.
    static func handWritten(_ shape: Shape) throws -> JSONValue {
        if shape.file.hasPrefix("samples/district-files/") {
            let config = try JSONParser.parse(Fixtures.bytes(Fixtures.samplesConfigFile))
            let source = try #require(config["sources"]?.array.first { $0["name"]?.string == shape.name })
            return replacing("file", in: source, with: .string(Fixtures.path(shape.file)))
        }
        let source = try JSONParser.parse(Fixtures.bytes(shape.file + ".source.json"))
        return replacing("file", in: source, with: .string(Fixtures.path(shape.file)))
    }

    static func replacing(_ key: String, in object: JSONValue, with value: JSONValue) -> JSONValue {
        guard case .object(let members) = object else { return object }
        return .object(members.map { $0.0 == key ? ($0.0, value) : $0 })
    }

    /// How many areas the generator planted for the shape (its `expected.json`).
    static func planted(_ shape: Shape) throws -> Int {
        let folder = (shape.file as NSString).deletingLastPathComponent
        let expected = try JSONParser.parse(Fixtures.bytes(folder + "/expected.json"))
        return try #require(expected[shape.name]?["accepted"]?.double).int
    }

    /// The areas one source serves, from a config holding it alone (as JSON text, the way an
    /// operator pastes it), with the samples' recorded geocoder and positions file.
    static func served(_ source: JSONValue) async throws -> [Served] {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = JSONValue.object([
            ("snapshot", .string(folder + "/areas.snapshot")),
            ("geocoder", .object([("provider", .string("kakao")), ("recorded", .string(Fixtures.path("samples/geocoder/kakao-answers.json")))])),
            ("positions", .string(Fixtures.path("samples/district-files/positions.csv"))),
            ("sources", .array([source])),
        ])
        try Data(config.indentedText.utf8).write(to: URL(fileURLWithPath: folder + "/areasd.json"))
        let loaded = try AreasConfig.load(path: folder + "/areasd.json")
        let (catalog, report) = await Refresher(config: loaded, environment: [:], snapshotPath: folder + "/areas.snapshot").refresh(Catalog())
        let name = try #require(loaded.sources.first?.name)
        #expect(report.sources.first?.status == .updated, "\(report.sources.first?.summary ?? "no report")")
        return catalog.areas(of: name).map(Served.init).sorted()
    }

    /// What a client sees of an area.
    struct Served: Comparable, CustomStringConvertible {
        var name: String
        var latitude: Int64
        var longitude: Int64
        var province: String
        var district: String
        var geocoded: Bool

        init(_ area: Area) {
            name = area.name
            latitude = Int64((area.coordinate.latitude * 1e7).rounded())
            longitude = Int64((area.coordinate.longitude * 1e7).rounded())
            province = area.province
            district = area.district
            geocoded = area.geocoded
        }

        static func < (a: Served, b: Served) -> Bool { a.description < b.description }
        var description: String { "\(name) \(latitude) \(longitude) \(province) \(district) \(geocoded)" }
    }

    static func discover(_ shape: Shape) throws -> DiscoveredSource {
        let discovery = SourceDiscovery(origin: .file(Fixtures.path(shape.file)), kind: shape.kind, name: shape.name)
        return try discovery.discover(Fixtures.bytes(shape.file))
    }

    @Test(arguments: shapes)
    func discoveredSourceServesWhatTheHandWrittenOneServes(_ shape: Shape) async throws {
        let found = try Self.discover(shape)
        #expect(found.problems.isEmpty, "\(found.report)")
        let discovered = try await Self.served(found.block)
        let handWritten = try await Self.served(Self.handWritten(shape))
        #expect(discovered.count == (try Self.planted(shape)), "\(found.report)")
        #expect(discovered == handWritten, "\(found.report)\n\(found.block.indentedText)")
        #expect(discovered.filter(\.geocoded).count == handWritten.filter(\.geocoded).count)
    }

    /// The columns a person chose are the columns discovery chose for the name, the position
    /// and a zone's extent, type and size.
    @Test(arguments: shapes)
    func theSameColumnsAsAPersonChose(_ shape: Shape) throws {
        let found = try Self.discover(shape)
        let hand = try Self.handWritten(shape)
        for key in ["name", "latitude", "longitude", "extent", "zoneType", "size"] {
            #expect(found.block["fields"]?[key]?.string == hand["fields"]?[key]?.string, "fields.\(key)\n\(found.report)")
        }
        #expect(found.block["header"]?.bool ?? true == hand["header"]?.bool ?? true)
        #expect(found.block["format"]?.string == hand["format"]?.string)
        #expect((found.block["geocode"] != nil) == (found.rowsToGeocode > 0))
    }

    /// The report says what a person needs to check the choice.
    @Test func theReportSaysWhyAndWhatARefreshWouldMake() throws {
        let found = try Self.discover(Self.shapes[0])
        let report = found.report
        #expect(report.contains("cp949 (not valid UTF-8)"))
        #expect(report.contains("name          '장 소': named like a place"))
        #expect(report.contains("not '구 분'"), "a runner-up and why not")
        #expect(report.contains("repeats one value (흡연시설)"))
        #expect(report.contains("province      서울특별시 for every row: the only province with 서초구"))
        #expect(report.contains("27 with usable positions"))
        #expect(report.contains("rejected: out of bounds 9, missing coordinates 4, non-numeric coordinates 4, zero coordinates 4"))
        #expect(report.contains("first areas:\n  강남역 11번 출구 1  37.484773, 127.013899"))
    }

    /// Column names and cells carrying terminal controls (ESC, BEL, a C1 control, a
    /// right-to-left override, a line break in a quoted cell): the report on stderr shows them
    /// escaped, never raw (it printed them as they came).
    @Test func theReportShowsControlCharactersEscaped() throws {
        let csv = "이름\u{1B}[31m,위도,경도\n\"흡연\u{7}부스\u{202E}가\n나\",37.5,127.0\n흡연부스\u{9B}2,37.6,127.1\n"
        let report = try SourceDiscovery(origin: .file("x.csv"), kind: .smoking).discover(Array(csv.utf8)).report
        let raw = report.unicodeScalars.filter { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
        }
        #expect(raw.isEmpty, "\(report.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(report.contains("이름\\e[31m"), "\(report)")
    }

    /// A district file of booths named by their address, told apart at one address by a
    /// detail column (`설치위치 상세`: 옥상, 1층 정자): the name is both together, so every booth
    /// is served (the address alone gave two booths one name, one position and one area).
    @Test func boothsSharingOneAddressAreToldApartByTheirDetail() async throws {
        var csv = "연번,설치위치,설치위치 상세,위도,경도\n"
        var planted = 0
        for i in 0..<30 {
            let address = "서울특별시 마포구 월드컵로 \(100 + i)"
            csv += "\(planted + 1),\(address),옥상,37.55\(String(format: "%02d", i)),126.90\(String(format: "%02d", i))\n"
            planted += 1
            if i % 4 == 0 {
                csv += "\(planted + 1),\(address),1층 정자,37.55\(String(format: "%02d", i)),126.90\(String(format: "%02d", i))\n"
                planted += 1
            }
        }
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/mapo-booths.csv"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: file))
        let found = try SourceDiscovery(origin: .file(file), kind: .smoking).discover(Array(csv.utf8))
        #expect(found.block["fields"]?["name"]?.string == "{설치위치} {설치위치 상세}", "\(found.report)")
        #expect(found.report.contains("설치위치 상세"))
        let served = try await Self.served(found.block)
        #expect(served.count == planted, "\(found.report)")
        #expect(Set(served.map(\.name)).count == planted)
    }

    /// Names a person would not choose, as real district files offered them: one value on
    /// every row (`흡연구역`) over a column of distinct addresses; the body that manages the
    /// place (`관리기관명칭`) over the facility; a register's codes (`구의3동-02-01-002`) over the
    /// place text beside them in a headerless file; where within a place (`청사 뒤`) without
    /// the place (`한국전력`), which another column names.
    static let unchosenNames: [(String, [String], String)] = [
        ("흡연구역명,주소,위도,경도", (0..<40).map { i in "흡연구역,서울특별시 마포구 월드컵로 \(100 + i)" }, "주소"),
        ("관리기관명칭,시설,위도,경도", (0..<40).map { i in
            "서울특별시 마포구 \(["서교", "합정", "망원", "연남"][i % 4])동 주민센터 \(i),\(["한국전력", "마포구청", "홍대입구역", "망원시장"][i % 4]) \(i / 4)번 흡연구역"
        }, "시설"),
        ("", (0..<40).map { i in "구의3동-02-01-\(String(format: "%03d", i)),구의역 \(i % 9 + 1)번 출구 \(["앞", "옆", "뒤", "건너편"][i % 4])" }, "2"),
        // Where within a place, with the place in another column: both, the place first.
        ("시설 구분,위치,위도,경도", (0..<40).map { i in
            "\(["한국전력 마포지사", "마포구청", "서울역", "국민은행 신촌지점", "홍익대학교"][i % 5]),\(["청사 뒤", "정문 옆", "주차장 입구", "건물 옥상"][i % 4])"
        }, "{시설 구분} {위치}"),
    ]

    @Test(arguments: unchosenNames)
    func theNameIsWhatAPersonWouldCallThePlace(header: String, rows: [String], expected: String) throws {
        var csv = header.isEmpty ? "" : header + "\n"
        for (i, row) in rows.enumerated() { csv += row + ",37.5\(String(format: "%03d", i)),127.0\(String(format: "%03d", i))\n" }
        let found = try SourceDiscovery(origin: .file("district.csv"), kind: .smoking).discover(Array(csv.utf8))
        #expect(found.block["fields"]?["name"]?.string == expected, "\(found.report)")
    }

    /// A file whose place column already begins with the city and district, beside a district
    /// column: the geocoder is asked for the place as written, not `서울특별시 서대문구 서울특별시
    /// 서대문구 연희로248`.
    @Test func theGeocoderIsNotAskedForTheRegionTwice() throws {
        var csv = "자치구,설치위치,설치위치 상세\n"
        for i in 0..<12 { csv += "서대문구,서울특별시 서대문구 연희로\(200 + i),\(i % 2 == 0 ? "옥상" : "1층 정자")\n" }
        let found = try SourceDiscovery(origin: .file("booths.csv"), kind: .smoking).discover(Array(csv.utf8))
        let query = try #require(found.block["geocode"]?["query"]?.string, "\(found.report)")
        let template = try GeocodeTemplate(query)
        let asked = template.render { $0 == "자치구" ? "서대문구" : $0 == "설치위치" ? "서울특별시 서대문구 연희로248" : "옥상" }
        #expect(asked == "서울특별시 서대문구 연희로248", "\(query)")
    }

    @Test func aFileThatDoesNotSayItsKindNeedsOne() throws {
        let found = try Self.discover(Shape(file: "samples/discovery/mapo-partial-coordinates.csv", name: "mapo"))
        #expect(found.problems.count == 1)
        #expect(found.problems.first?.contains("give --kind smoking or --kind nonsmoking") == true)
        // The block names no kind rather than a guessed one (it printed "smoking").
        guard case .object(let members) = found.block else { Issue.record("the block is no object"); return }
        #expect(!members.contains { $0.0 == "kind" })
        #expect(members.first?.0 == "name" && members.dropFirst().first?.0 == "format")
    }

    @Test(arguments: [
        ("위도,경도,비고\n37.5,127.0,\n37.6,127.1,\n", "no column holds names"),
        // No position, and a name no geocoder template can name (braces in the header).
        ("{이름},메모\n흡연부스 가,x\n흡연부스 나,y\n", "no row would be served"),
    ])
    func aSourceThatWouldServeNothingSaysWhatIsMissing(text: String, problem: String) throws {
        let found = try SourceDiscovery(origin: .file("x.csv")).discover(Array(text.utf8))
        #expect(found.problems.contains { $0.contains(problem) }, "\(found.problems)")
    }

    @Test(arguments: [
        ([UInt8](), "the file is empty"),
        (Array("<response><header/></response>".utf8), "XML"),
        (Array("[{\"a\": ".utf8), "invalid JSON"),
        ([0xFF, 0xFE, 0xFF, 0xFE, 0x41], "neither UTF-8 nor CP949"),
        // Workbooks, by their signatures (the .xlsx once got "neither UTF-8 nor CP949").
        ([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00] + Array("[Content_Types].xml".utf8), "an Excel workbook (.xlsx: a ZIP archive), not text: open it and save it as CSV (UTF-8)"),
        ([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0x00, 0x00], "an Excel workbook (.xls), not text"),
    ])
    func unreadableFilesSayWhy(bytes: [UInt8], reason: String) {
        #expect {
            _ = try SourceDiscovery(origin: .file("x")).discover(bytes)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    /// A file whose header swaps 위도 and 경도: the values say which is which.
    @Test func valuesDecideWhenTheHeaderSwapsLatitudeAndLongitude() throws {
        var text = "흡연구역명,위도,경도\n"
        for i in 0..<20 { text += "가 흡연부스 \(i),127.0\(i),37.5\(i)\n" }
        let found = try SourceDiscovery(origin: .file("x.csv")).discover(Array(text.utf8))
        #expect(found.block["fields"]?["latitude"]?.string == "경도")
        #expect(found.block["fields"]?["longitude"]?.string == "위도")
        #expect(found.report.contains("though named for the other, the values decide"))
        #expect(found.rowsWithPositions == 20)
    }

    /// Delimiters other than the comma, and a header told apart from data.
    @Test(arguments: [
        ("흡연구역명\t위도\t경도\n가 부스\t37.5\t127.0\n나 부스\t37.6\t127.1\n", UInt8(ascii: "\t"), true),
        ("흡연구역명;위도;경도\n가 부스;37,5;127,0\n", UInt8(ascii: ";"), true),
        ("가 흡연부스,37.51,127.01\n나 흡연부스,37.52,127.02\n다 흡연부스,37.53,127.03\n", UInt8(ascii: ","), false),
    ])
    func delimiterAndHeader(text: String, delimiter: UInt8, header: Bool) {
        let shape = DelimitedTextShape.of(Array(text.utf8))
        #expect(shape.delimiter == delimiter)
        #expect(shape.hasHeader == header, "\(shape.headerReason)")
    }

    @Test(arguments: [
        ("37.5012, 127.0396", "37.5012", "127.0396"), ("(37.5 127.1)", "37.5", "127.1"), ("37.5/127.1", "37.5", "127.1"),
        ("[127.1, 37.5]", "127.1", "37.5"),
    ])
    func bothNumbersInOneCell(cell: String, first: String, second: String) throws {
        let (a, b) = try #require(CoordinatePair.split(cell))
        #expect(a == first && b == second)
    }

    @Test(arguments: ["37.5", "", "37.5, 127.1, 3", "가, 나"])
    func cellsThatAreNotAPair(cell: String) throws {
        let fields = [Field("좌표", cell)]
        let mapping = FieldMapping(name: "n", latitude: "좌표", longitude: "좌표")
        #expect(throws: Never.self) {
            if case .success = RecordValidator.position(of: fields, mapping, in: .korea) { Issue.record("'\(cell)' read as a position") }
        }
    }

    /// A key in the URL is not printed: the source reads it from the environment.
    @Test func aServiceKeyInTheURLBecomesAnEnvironmentVariable() {
        let discovery = SourceDiscovery(origin: .url("https://api.odcloud.kr/api/15073796/v1/uddi:abc?page=1&perPage=10&serviceKey=SECRET"))
        let found = try? discovery.discover(Array(#"{"page":1,"perPage":10,"totalCount":1,"data":[{"흡연구역명":"가 부스","위도":37.5,"경도":127.0}]}"#.utf8))
        #expect(found?.block["url"]?.string == "https://api.odcloud.kr/api/15073796/v1/uddi:abc")
        #expect(found?.block["serviceKeyEnv"]?.string == "DATA_GO_KR_KEY")
        #expect(found?.block["format"]?.string == "odcloud-json")
        #expect(found?.block.indentedText.contains("SECRET") == false)
    }
}

private extension Double {
    var int: Int { Int(self) }
}
