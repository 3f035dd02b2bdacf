import AreasCore
import AreasProtocol
import AreasSystem
import AreasTestSupport
import Foundation
import Testing
@testable import AreasIngest
import AreasTestTraits

/// Sources by data set id, against a stand-in of the portal on loopback: its Swagger document
/// per data set (no key) and the uploads' pages (the key), built from Yongsan's real files (the
/// odcloud answer of 2021 and the file of 2024-07-19), the real daemon and client asking it.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct DatasetSourceTests {
    static let key = "portal-KEY-77"
    static let dataset = "15073796"

    /// One upload: its uddi, dated title, columns and rows.
    struct Upload {
        var uddi: String
        var title: String
        var rows: [[(String, String)]]
        var columns: [String] { rows.first?.map(\.0) ?? [] }
    }

    /// The portal: per data set, the uploads its document lists (in that order), and every
    /// request it was sent.
    final class StandInPortal: Sendable {
        let uploads = LockedValue<[String: [Upload]]>([:])
        /// A data set whose document answers this instead.
        let documentFaults = LockedValue<[String: LoopbackHTTPServer.Reply]>([:])
        let asked = LockedValue<[LoopbackHTTPServer.Request]>([])
        private let _server = LockedValue<LoopbackHTTPServer?>(nil)
        var server: LoopbackHTTPServer { _server.withLock { $0! } }

        init() throws {
            let server = try LoopbackHTTPServer { [weak self] request in
                guard let self else { return .close }
                self.asked.withLock { $0.append(request) }
                if request.path == "/oas/docs" {
                    let dataset = (request.query["namespace"] ?? "").replacingOccurrences(of: "/v1", with: "")
                    if let fault = self.documentFaults.withLock({ $0[dataset] }) { return fault }
                    return .text(200, StandInPortal.document(dataset, self.uploads.withLock { $0[dataset] } ?? []), contentType: "application/json")
                }
                // /api/{dataset}/v1/uddi:...
                let parts = request.path.split(separator: "/").map(String.init)
                guard parts.count == 4, parts[0] == "api", request.query["serviceKey"] == DatasetSourceTests.key,
                      let upload = self.uploads.withLock({ $0[parts[1]] })?.first(where: { $0.uddi == parts[3] }) else {
                    return .text(401, #"{"code": -4, "msg": "등록되지 않은 인증키 입니다."}"#, contentType: "application/json")
                }
                let page = Int(request.query["page"] ?? "1") ?? 1, perPage = Int(request.query["perPage"] ?? "10") ?? 10
                let slice = Array(upload.rows.dropFirst((page - 1) * perPage).prefix(perPage))
                return .text(200, StandInPortal.page(slice, page: page, perPage: perPage, total: upload.rows.count), contentType: "application/json")
            }
            _server.withLock { $0 = server }
        }

        /// The Swagger 2.0 document the portal publishes for `dataset`.
        static func document(_ dataset: String, _ uploads: [Upload]) -> String {
            let paths = uploads.enumerated().map { i, upload in
                ##""/\##(dataset)/v1/\##(upload.uddi)": {"get": {"summary": \##(JSONValue.string(upload.title).indentedText), "parameters": [], "responses": {"200": {"schema": {"type": "object", "properties": {"data": {"type": "array", "items": {"$ref": "#/definitions/\##(dataset)_model_\##(i)"}}}}}}}}"##
            }
            let models = uploads.enumerated().map { i, upload in
                #""\#(dataset)_model_\#(i)": {"type": "object", "properties": {\#(upload.columns.map { #"\#(JSONValue.string($0).indentedText): {"type": "string"}"# }.joined(separator: ", "))}}"#
            }
            return #"{"swagger": "2.0", "info": {"title": "흡연구역", "version": "1.0.0"}, "host": "api.odcloud.kr", "basePath": "/api", "paths": {\#(paths.joined(separator: ", "))}, "definitions": {\#(models.joined(separator: ", "))}}"#
        }

        static func page(_ rows: [[(String, String)]], page: Int, perPage: Int, total: Int) -> String {
            let data = rows.map { row in "{" + row.map { "\(JSONValue.string($0.0).indentedText): \(JSONValue.string($0.1).indentedText)" }.joined(separator: ", ") + "}" }
            return #"{"currentCount": \#(rows.count), "data": [\#(data.joined(separator: ", "))], "matchCount": \#(total), "page": \#(page), "perPage": \#(perPage), "totalCount": \#(total)}"#
        }

        func documentRequests() -> [LoopbackHTTPServer.Request] { asked.withLock { $0.filter { $0.path == "/oas/docs" } } }
        func pageRequests() -> [LoopbackHTTPServer.Request] { asked.withLock { $0.filter { $0.path.hasPrefix("/api/") } } }
        func stop() { server.stop() }
    }

    /// Yongsan's real uploads: the odcloud answer (2021) and the 2024-07-19 file, and a third
    /// made from the second with its columns renamed as districts rename them and ten rows gone.
    static func realUploads() throws -> (older: Upload, newer: Upload, renamed: Upload) {
        let answer = try JSONParser.parse(Fixtures.bytes("Tests/RealData/seoul-yongsan-odcloud/seoul-yongsan-odcloud.json"))
        let olderRows: [[(String, String)]] = answer["data"]?.array.compactMap { row in
            guard case .object(let members) = row else { return nil }
            return members.map { ($0.0, $0.1.string ?? "") }
        } ?? []
        let text = try TextEncoding.cp949.utf8Text(Fixtures.bytes("Tests/RealData/seoul-yongsan-smoking-20240719.csv"))
        let lines = String(decoding: text, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let newerRows = lines.dropFirst().map { line in Array(zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init))) }
        let renames = ["위도": "Y좌표", "경도": "X좌표", "시설 구분": "시설구분"]
        let renamedRows = newerRows.dropLast(10).map { row in row.map { (renames[$0.0] ?? $0.0, $0.1) } }
        return (Upload(uddi: "uddi:8c2a1f1e-0b7e-4a0c-9d22-1a2b3c4d5e6f", title: "서울특별시 용산구_흡연구역_20211028", rows: olderRows),
                Upload(uddi: "uddi:3f9e6b2a-5c1d-4e8f-a7b6-0c1d2e3f4a5b", title: "서울특별시 용산구_흡연구역_20240719", rows: newerRows),
                Upload(uddi: "uddi:d41c7e90-2b3a-4f5e-8c6d-7e8f9a0b1c2d", title: "서울특별시 용산구_흡연구역_20250301", rows: Array(renamedRows)))
    }

    /// Distinct places of an upload by name and position, counted here, not by the daemon.
    static func places(_ upload: Upload, name: String, latitude: String, longitude: String) -> Int {
        Set(upload.rows.compactMap { row -> [String]? in
            let cells = Dictionary(row, uniquingKeysWith: { first, _ in first })
            guard let n = cells[name], let lat = cells[latitude].flatMap(Double.init), let lon = cells[longitude].flatMap(Double.init), lat != 0 else { return nil }
            return [n.trimmingCharacters(in: .whitespaces), String(lat), String(lon)]
        }).count
    }

    static func config(_ folder: String, _ portal: StandInPortal, sources: String) -> String {
        #"{"snapshot": "\#(folder)/a.snapshot", "refreshIntervalSeconds": 86400, "odcloud": {"oasUrl": "\#(portal.server.baseURL)/oas/docs", "apiUrl": "\#(portal.server.baseURL)/api"}, "sources": [\#(sources)]}"#
    }

    static func source(_ name: String, _ dataset: String, fields: String = "") -> String {
        #"{"name": "\#(name)", "kind": "smoking", "format": "odcloud-json", "dataset": "\#(dataset)", "serviceKeyEnv": "TEST_PORTAL_KEY", "pageSize": 50, "retries": 0, "timeoutSeconds": 5\#(fields)}"#
    }

    /// A data set with two uploads serves the newer, its columns chosen from its first page;
    /// a third upload with renamed columns and rows gone is taken at the next refresh, its
    /// columns chosen again. One document and the pages a refresh: the first page read to
    /// choose the columns is not asked for again. The key goes to the pages only.
    @Test func theNewestUploadIsServedAndANewOneTakenWithItsColumns() throws {
        let portal = try StandInPortal()
        defer { portal.stop() }
        let (older, newer, renamed) = try Self.realUploads()
        portal.uploads.withLock { $0[Self.dataset] = [newer, older] }
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.config(folder, portal, sources: Self.source("yongsan", Self.dataset)).write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
        let socket = folder + "/areasd.sock"
        let (process, log) = try Binaries.startDaemon(["--config", folder + "/areasd.json", "--socket", socket], environment: ["TEST_PORTAL_KEY": Self.key])
        defer { process.terminate(); process.waitUntilExit() }
        #expect(DaemonQuestions.waitUntilLoaded(socket, seconds: 30), "\(log.text)")

        func served() throws -> JSONValue { try #require(DaemonQuestions.ask(socket, #"{"op":"sources"}"#)?["sources"]?.array.first) }
        var source = try served()
        #expect(source["revision"]?["uddi"]?.string == newer.uddi && source["revision"]?["date"]?.string == "2024-07-19", "\(source)")
        #expect(source["revision"]?["fields"]?["latitude"]?.string == "위도" && source["revision"]?["fields"]?["name"]?.string == "서울특별시 용산구 설치 위치", "\(source)")
        let newerPlaces = Self.places(newer, name: "서울특별시 용산구 설치 위치", latitude: "위도", longitude: "경도")
        #expect(source["areas"]?.double == Double(newerPlaces) && source["rows"]?.double == Double(newer.rows.count), "\(source) against \(newerPlaces) places")
        let pagesFirst = portal.pageRequests().count
        #expect(pagesFirst == (newer.rows.count + 49) / 50, "one request a page: \(portal.pageRequests().map(\.rawQuery))")

        // A new upload, its columns renamed, ten rows gone.
        portal.uploads.withLock { $0[Self.dataset] = [newer, older, renamed] }
        let documentsBefore = portal.documentRequests().count
        let refresh = try Binaries.run("areasctl", ["--socket", socket, "refresh"], seconds: 60)
        #expect(refresh.status == 0, "\(refresh.stdout)\(refresh.stderr)")
        source = try served()
        #expect(source["revision"]?["uddi"]?.string == renamed.uddi && source["revision"]?["title"]?.string == renamed.title, "\(source)")
        #expect(source["revision"]?["fields"]?["latitude"]?.string == "Y좌표" && source["revision"]?["fields"]?["longitude"]?.string == "X좌표", "\(source)")
        let renamedPlaces = Self.places(renamed, name: "서울특별시 용산구 설치 위치", latitude: "Y좌표", longitude: "X좌표")
        #expect(source["areas"]?.double == Double(renamedPlaces) && renamedPlaces < newerPlaces, "\(source) against \(renamedPlaces) places")
        #expect(portal.documentRequests().count == documentsBefore + 1)
        #expect(portal.pageRequests().count - pagesFirst == (renamed.rows.count + 49) / 50, "the first page asked once: \(portal.pageRequests().map(\.rawQuery))")
        // The key: in every page request, in no document request, log line or answer.
        #expect(portal.documentRequests().allSatisfy { !$0.rawQuery.contains(Self.key) && $0.query["serviceKey"] == nil })
        let sourcesText = try Binaries.run("areasctl", ["--socket", socket, "sources", "--json"]).stdout
        #expect(!log.text.contains(Self.key) && !sourcesText.contains(Self.key))
        // areasctl sources names the upload and the columns chosen.
        let table = try Binaries.run("areasctl", ["--socket", socket, "sources"], environment: ["COLUMNS": "300"]).stdout
        #expect(table.contains("yongsan serves upload \(renamed.title) (2025-03-01, \(renamed.uddi)), columns chosen: name 서울특별시 용산구 설치 위치, latitude Y좌표, longitude X좌표"), "\(table)")
        #expect(log.text.contains("upload \(renamed.title) (2025-03-01, \(renamed.uddi)) with the columns chosen: name 서울특별시 용산구 설치 위치"), "\(log.text)")
    }

    /// A data set whose document lists no upload fails alone, naming it; a document that cannot
    /// be read later keeps the areas and the upload served before, and says so.
    @Test func aDataSetWithoutUploadsFailsAloneAndAnUnreadableDocumentKeepsTheLast() throws {
        let portal = try StandInPortal()
        defer { portal.stop() }
        let (_, newer, _) = try Self.realUploads()
        portal.uploads.withLock { $0[Self.dataset] = [newer]; $0["15040636"] = [] }
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.config(folder, portal, sources: Self.source("yongsan", Self.dataset) + ", " + Self.source("jungnang", "15040636"))
            .write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
        let socket = folder + "/areasd.sock"
        let (process, log) = try Binaries.startDaemon(["--config", folder + "/areasd.json", "--socket", socket], environment: ["TEST_PORTAL_KEY": Self.key])
        defer { process.terminate(); process.waitUntilExit() }
        #expect(DaemonQuestions.waitUntilLoaded(socket, seconds: 30), "\(log.text)")
        var sources = DaemonQuestions.ask(socket, #"{"op":"sources"}"#)?["sources"]?.array ?? []
        let jungnang = sources.first { $0["name"]?.string == "jungnang" }
        #expect(jungnang?["lastStatus"]?.string == "failed" && jungnang?["lastError"]?.string == "the portal's document of data set 15040636 lists no uploads", "\(jungnang ?? .null)")
        #expect(sources.first { $0["name"]?.string == "yongsan" }?["areas"]?.double ?? 0 > 50)

        portal.documentFaults.withLock { $0[Self.dataset] = .text(500, "<html>점검 중</html>", contentType: "text/html") }
        _ = try Binaries.run("areasctl", ["--socket", socket, "refresh"], seconds: 60)
        sources = DaemonQuestions.ask(socket, #"{"op":"sources"}"#)?["sources"]?.array ?? []
        let yongsan = try #require(sources.first { $0["name"]?.string == "yongsan" })
        #expect(yongsan["lastStatus"]?.string == "failed" && yongsan["areas"]?.double ?? 0 > 50, "\(yongsan)")
        #expect(yongsan["lastError"]?.string == "the portal's document of data set 15073796 answered HTTP 500; still serving its upload \(newer.title) (2024-07-19)", "\(yongsan)")
        #expect(yongsan["revision"]?["uddi"]?.string == newer.uddi, "the upload served is still named: \(yongsan)")
    }

    /// An upload of addresses only (Jungnang's real file, as the portal would page it): its
    /// columns chosen with the geocoder's questions, every row placed by the geocoder (a stand-in
    /// speaking Kakao's API, a position in Jungnang for every address), as a discovered file is.
    @Test func anUploadOfAddressesOnlyIsGeocoded() throws {
        let portal = try StandInPortal()
        defer { portal.stop() }
        let text = try String(contentsOfFile: Fixtures.path("Tests/RealData/seoul-jungnang-smoking-facilities-20260212.csv"), encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        // Quoted cells hold commas: a row is read as its columns only when it splits cleanly.
        let rows = lines.dropFirst().compactMap { line -> [(String, String)]? in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return cells.count == header.count ? Array(zip(header, cells)) : nil
        }
        try #require(rows.count > 200)
        portal.uploads.withLock { $0["15040636"] = [Upload(uddi: "uddi:0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9", title: "서울특별시 중랑구_흡연시설_20260212", rows: rows)] }
        let asked = LockedValue(Set<String>())
        let geocoder = try LoopbackHTTPServer { request in
            let query = request.query["query"] ?? ""
            asked.withLock { _ = $0.insert(query) }
            let hash = query.unicodeScalars.reduce(UInt64(1_469_598_103_934_665_603)) { ($0 ^ UInt64($1.value)) &* 1_099_511_628_211 }
            let (lat, lon) = (37.57 + Double(hash % 4_000) / 100_000, 127.07 + Double(hash / 4_000 % 4_000) / 100_000)
            return .text(200, #"{"meta":{"total_count":1},"documents":[{"x":"\#(lon)","y":"\#(lat)"}]}"#, contentType: "application/json")
        }
        defer { geocoder.stop() }
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let withGeocoder = Self.config(folder, portal, sources: Self.source("jungnang", "15040636", fields: #", "province": "서울특별시", "district": "중랑구""#))
            .replacingOccurrences(of: #""sources":"#, with: #""geocoder": {"provider": "kakao", "url": "\#(geocoder.baseURL)", "keyEnv": "TEST_GEO_KEY", "requestsPerSecond": 1000}, "sources":"#)
        try withGeocoder.write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
        let socket = folder + "/areasd.sock"
        let (process, log) = try Binaries.startDaemon(["--config", folder + "/areasd.json", "--socket", socket],
                                                      environment: ["TEST_PORTAL_KEY": Self.key, "TEST_GEO_KEY": "g"])
        defer { process.terminate(); process.waitUntilExit() }
        #expect(DaemonQuestions.waitUntilLoaded(socket, seconds: 60), "\(log.text)")
        let source = try #require(DaemonQuestions.ask(socket, #"{"op":"sources"}"#)?["sources"]?.array.first)
        #expect(source["revision"]?["fields"]?["address"]?.string == "주소" && source["revision"]?["fields"]?["latitude"] == nil, "\(source)")
        #expect(source["rows"]?.double == Double(rows.count) && (source["geocoded"]?.double ?? 0) >= Double(rows.count) * 0.9, "\(source)")
        #expect((source["areas"]?.double ?? 0) > 100 && !asked.withLock { $0 }.isEmpty, "\(source)")
        #expect(asked.withLock { $0 }.allSatisfy { $0.contains("중랑구") || $0.contains("서울") }, "the questions name the district: \(asked.withLock { Array($0.prefix(3)) })")
    }

    /// Hostile documents, each refused or bounded with its reason: a thousand uploads (the
    /// newest still found), no titles, dates in the future, a model of 10,000 columns, a body
    /// past the limit, not JSON.
    @Test func hostileDocumentsAreRefusedOrBounded() async throws {
        let now = 1_796_000_000.0  // 2026-12-01
        func upload(_ i: Int, _ title: String, columns: Int = 3) -> DatasetSourceTests.Upload {
            Upload(uddi: "uddi:\(i)", title: title, rows: [(0..<columns).map { ("c\($0)", "") }])
        }
        let thousand = (0..<1_000).map { upload($0, "파일_\(20_000_101 + $0 % 28 + ($0 % 12) * 100)") } + [upload(1_000, "파일_20260115")]
        let newest = try DatasetDocument.newest(in: Array(StandInPortal.document("1", thousand).utf8), dataset: "1", now: now)
        #expect(newest.uddi == "uddi:1000" && newest.date == "2026-01-15")
        func failure(_ uploads: [DatasetSourceTests.Upload]) -> String {
            do throws(DatasetDocument.Failure) {
                _ = try DatasetDocument.newest(in: Array(StandInPortal.document("1", uploads).utf8), dataset: "1", now: now)
                return "chosen"
            } catch {
                return error.reason
            }
        }
        #expect(failure((0..<5).map { upload($0, "") }) == "no upload of data set 1 can be chosen among 5 uploads: 5 without a dated title")
        #expect(failure([upload(0, "파일_20991231"), upload(1, "파일_20301231")]) == "no upload of data set 1 can be chosen among 2 uploads: 2 dated in the future")
        let future = try DatasetDocument.newest(in: Array(StandInPortal.document("1", [upload(0, "파일_20991231"), upload(1, "파일_20240719")]).utf8), dataset: "1", now: now)
        #expect(future.uddi == "uddi:1", "a date in the future is no newest upload")
        #expect(failure([upload(0, "파일_20240719", columns: 10_000)]) == "no upload of data set 1 can be chosen among 1 uploads: 1 with more than 1000 columns")
        #expect(failure([]) == "the portal's document of data set 1 lists no uploads")
        do throws(DatasetDocument.Failure) {
            _ = try DatasetDocument.newest(in: Array("<html>".utf8), dataset: "1", now: now)
            Issue.record("HTML read as a document")
        } catch {
            #expect(error.reason.hasPrefix("the portal's document of data set 1 is not JSON"), "\(error.reason)")
        }
        // A body without end: refused at the limit, not read whole.
        let endless = try LoopbackHTTPServer { _ in .endless(contentType: "application/json", pattern: Array(#"{"paths": {"#.utf8)) }
        defer { endless.stop() }
        var odcloud = OdcloudConfig()
        odcloud.oasURL = endless.baseURL + "/oas/docs"
        do throws(DatasetDocument.Failure) {
            _ = try await DatasetDocument.newest(of: "1", odcloud: odcloud, timeoutSeconds: 20, now: now)
            Issue.record("an endless document was read")
        } catch {
            #expect(error.reason.contains("could not be read") && error.reason.contains("\(DatasetDocument.maximumBytes)"), "\(error.reason)")
        }
    }

    /// `areasd --discover --dataset ID` prints the source of the newest upload by its id, the
    /// columns chosen from its first page; without the key it says which variable it needs.
    @Test func discoverByDatasetPrintsTheSourceOfTheNewestUpload() throws {
        let portal = try StandInPortal()
        defer { portal.stop() }
        let (older, newer, _) = try Self.realUploads()
        portal.uploads.withLock { $0[Self.dataset] = [older, newer] }
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The config names the portal (its `odcloud`): the stand-in here.
        try Self.config(folder, portal, sources: Self.source("other", "1")).write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
        let run = try Binaries.run("areasd", ["--config", folder + "/areasd.json", "--discover", "--dataset", Self.dataset, "--kind", "smoking"],
                                   environment: ["DATA_GO_KR_KEY": Self.key])
        #expect(run.status == 0, "\(run.stderr)")
        let block = try JSONParser.parse(Array(run.stdout.utf8))
        #expect(block["dataset"]?.string == Self.dataset && block["format"]?.string == "odcloud-json" && block["url"] == nil, "\(run.stdout)")
        #expect(block["fields"]?["latitude"]?.string == "위도" && block["name"]?.string == "서울특별시-용산구-흡연구역", "\(run.stdout)")
        #expect(run.stderr.contains("its newest upload \(newer.title) (2024-07-19, \(newer.uddi))"), "\(run.stderr)")
        let keyless = try Binaries.run("areasd", ["--config", folder + "/areasd.json", "--discover", "--dataset", Self.dataset], environment: ["DATA_GO_KR_KEY": ""])
        #expect(keyless.status == 1 && keyless.stderr.contains("DATA_GO_KR_KEY is not set"), "\(keyless.stderr)")
        let alone = try Binaries.run("areasd", ["--dataset", Self.dataset])
        #expect(alone.status == 2 && alone.stderr.contains("--dataset goes with --discover"), "\(alone.stderr)")
    }

    /// The config names what is wrong with a source by id.
    @Test(arguments: [
        (#""format": "odcloud-json", "dataset": "15073796", "url": "https://api.odcloud.kr/api/x""#, #"give "dataset", "url" or "pages", not both"#),
        (#""format": "csv", "dataset": "15073796""#, "only an odcloud-json source is a portal data set by id"),
        (#""format": "odcloud-json", "dataset": "용산구""#, "is not a data set id"),
        (#""format": "odcloud-json", "url": "https://api.odcloud.kr/api/x", "fields": "auto""#, #""auto" is for a source by "dataset""#),
        (#""format": "odcloud-json", "dataset": "15073796", "fields": "guess""#, #"give "auto" or an object"#),
    ])
    func aBadSourceByIdIsNamed(members: String, says: String) throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"{"sources": [{"name": "s", "kind": "smoking", \#(members)}]}"#.write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
        let run = try Binaries.run("areasd", ["--check-config", "--config", folder + "/areasd.json"], environment: ["DATA_GO_KR_KEY": "k"])
        #expect(run.status != 0 && (run.stdout + run.stderr).contains(says), "\(run.stdout)\(run.stderr)")
    }
}
