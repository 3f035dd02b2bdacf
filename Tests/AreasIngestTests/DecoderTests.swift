import Foundation
import Testing
@testable import AreasCore
@testable import AreasIngest
@testable import AreasProtocol
@testable import AreasTestSupport
import AreasTestTraits

@Suite(.offThePool, .timeLimit(.minutes(5)))
final class DecoderTests {
    let xml = DataGoKrXMLDecoder()
    let json = OdcloudJSONDecoder()

    @Test func recordedXMLPageDecodesEveryItemInOrder() throws {
        let page = try xml.decode(Fixtures.xmlPage(1))
        #expect(page.totalCount == 2750)
        #expect(page.records.count == 1000)
        // Oracle: count <item> tags in the raw text, and read the first item's field names directly.
        let text = String(decoding: try Fixtures.xmlPage(1), as: UTF8.self)
        #expect((text.components(separatedBy: "<item>").count - 1) == page.records.count)
        #expect(page.records[0].map(\.key) == ([
            "prhsmkNm", "prhsmkScopeDesc", "ctprvnNm", "signguNm", "prhsmkSe", "prhsmkAppnBasis", "prhsmkAr", "ffnlg",
            "phoneNumber", "rdnmadr", "lnmadr", "institutionNm", "latitude", "longitude", "referenceDate", "insttCode",
        ]))
        let firstName = text.components(separatedBy: "<prhsmkNm>")[1].components(separatedBy: "</prhsmkNm>")[0]
        #expect(page.records[0][0].value == (firstName.trimmingCharacters(in: .whitespaces)))
        let last = try xml.decode(Fixtures.xmlPage(3))
        #expect(last.records.count == 750)
    }

    @Test func resultCodesInBothXMLEnvelopes() throws {
        if let error = #expect(throws: (any Error).self, performing: { try xml.decode(Array(Fixtures.gatewayError("30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR").utf8)) }) {
            #expect((error as? UpstreamError) == (.resultCode("30", message: "SERVICE ERROR / SERVICE_KEY_IS_NOT_REGISTERED_ERROR")))
            #expect(!((error as? UpstreamError)?.isTransient ?? true))
            #expect("\(error)".contains("service key not registered"))
        }
        if let error = #expect(throws: (any Error).self, performing: { try xml.decode(Array(Fixtures.headerError("22", "LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR").utf8)) }) {
            #expect(((error as? UpstreamError)?.isTransient) == true)
        }
        #expect(try xml.decode(Array(Fixtures.headerError("03", "NODATA_ERROR").utf8)).isPastEnd == true)
    }

    @Test func brokenXMLIsAnErrorNeverAPartialPage() throws {
        let full = try Fixtures.xmlPage(1)
        var random = SplitMix64(seed: 5)
        for _ in 0..<40 {
            let cut = Int.random(in: 1..<(full.count - 20), using: &random)
            if let error = #expect(throws: (any Error).self, "cut at \(cut)", performing: { try xml.decode(Array(full.prefix(cut))) }) {
                guard case .malformedPage? = error as? UpstreamError else { Issue.record("\(error)"); return }
            }
        }
        let bad: [String: [UInt8]] = [
            "html": Array("<!DOCTYPE html><html><body><h1>서비스 점검 중</h1></body></html>".utf8),
            "empty": [],
            "spaces": Array("  \n ".utf8),
            "binary": (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 7919) },
            "json": Array("{\"response\":1}".utf8),
        ]
        for (name, body) in bad {
            if let error = #expect(throws: (any Error).self, Comment(rawValue: name), performing: { try xml.decode(body) }) {
                guard case .malformedPage? = error as? UpstreamError else { Issue.record("\(name): \(error)"); return }
                #expect(((error as? UpstreamError)?.isTransient) == true)
            }
        }
    }

    @Test func recordedJSONPagesKeepColumnsAsText() throws {
        let page = try json.decode(Fixtures.bytes("samples/yongsan-smoking/page-1.json"))
        #expect(page.totalCount == SampleCounts.yongsan)
        #expect(page.records.count == SampleCounts.yongsan)
        let oracle = try JSONSerialization.jsonObject(with: Data(Fixtures.bytes("samples/yongsan-smoking/page-1.json"))) as? [String: Any]
        let rows = oracle?["data"] as? [[String: Any]] ?? []
        #expect(Set(page.records[0].map(\.key)) == Set(rows[0].keys))
        #expect((page.records[0].first { $0.key == "위도" }?.value) == (rows[0]["위도"] as? String))
        // Anyang sends some coordinates as JSON numbers: they arrive as the same digits.
        let anyang = try json.decode(Fixtures.bytes("samples/anyang-smoking/page-1.json"))
        let numeric = anyang.records[0].first { $0.key == "위도" }?.value ?? ""
        #expect(Double(numeric) != nil)
    }

    @Test func odcloudErrorsAndGarbage() {
        if let error = #expect(throws: (any Error).self, performing: { try json.decode(Array(#"{"code": -4, "msg": "등록되지 않은 인증키 입니다."}"#.utf8)) }) {
            #expect((error as? UpstreamError) == (.odcloudCode(-4, message: "등록되지 않은 인증키 입니다.")))
            #expect(!((error as? UpstreamError)?.isTransient ?? true))
        }
        if let error = #expect(throws: (any Error).self, performing: { try json.decode(Array(#"{"code": -10, "msg": "quota"}"#.utf8)) }) {
            #expect(((error as? UpstreamError)?.isTransient) == true)
        }
        for body in ["not found service", "", "{\"data\": [", "<html></html>", "{\"data\": [{\"a\": {\"b\": 1}}]}"] {
            if let error = #expect(throws: (any Error).self, Comment(rawValue: body), performing: { try json.decode(Array(body.utf8)) }) {
                guard case .malformedPage? = error as? UpstreamError else { Issue.record("\(body): \(error)"); return }
            }
        }
    }
}

/// Inputs the fuzzer once crashed on (Tests/Fuzz/regressions/TARGET/): each now gets an error
/// (or, for HTTP heads that are well formed, an answer).
@Suite(.offThePool, .timeLimit(.minutes(5)))
final class FuzzRegressionTests {
    @Test func everyRegressionInputIsRefusedCleanly() throws {
        let root = Fixtures.path("Tests/Fuzz/regressions")
        var checked = 0
        for target in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] {
            for name in try FileManager.default.contentsOfDirectory(atPath: root + "/" + target) {
                let bytes = try Fixtures.bytes("Tests/Fuzz/regressions/\(target)/\(name)")
                switch target {
                case "xml": #expect(throws: (any Error).self, Comment(rawValue: name)) { try DataGoKrXMLDecoder().decode(bytes) }
                case "json": #expect(throws: (any Error).self, Comment(rawValue: name)) { try OdcloudJSONDecoder().decode(bytes) }
                case "request": #expect(throws: (any Error).self, Comment(rawValue: name)) { try Request.parse(bytes) }
                case "snapshot": #expect(throws: (any Error).self, Comment(rawValue: name)) { try SnapshotFile.decode(bytes) }
                case "http":
                    // Routing trapped on these heads, which the parser accepts: each must route,
                    // or be refused with a status. (HTTPFrontDoorTests sends them to a daemon,
                    // which must answer.)
                    guard case .head(let head, _)? = try? HTTPRequestParser().parse(bytes) else {
                        Issue.record("\(name) is no longer a whole head to the parser")
                        continue
                    }
                    do throws(RequestError) {
                        _ = try HTTPRoute.route(head)
                    } catch {
                        #expect(!error.message.isEmpty, "\(name): a refusal says why")
                    }
                default: Issue.record("unknown regression folder \(target)")
                }
                checked += 1
            }
        }
        #expect(checked > 0)
    }
}

@Suite(.offThePool, .timeLimit(.minutes(5)))
final class UTF8ValidationTests {
    /// The hand-written validator against the standard library's, on random and edge bytes.
    @Test func agreesWithTheStandardLibrary() {
        var random = SplitMix64(seed: 3)
        let edges: [[UInt8]] = [[0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x90, 0x80, 0x80],
                                [0xEC, 0x84, 0x9C], [0xC2], [0xFF], [0xE2, 0x82], Array("서울 abc".utf8)]
        var cases = edges
        for _ in 0..<20_000 {
            cases.append((0..<Int.random(in: 0...8, using: &random)).map { _ in
                [UInt8(0x41), 0x80, 0xBF, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xEC, 0x9C, 0xA0][Int.random(in: 0..<11, using: &random)]
            })
        }
        // Longer runs: ASCII stretches (read eight bytes at a time) and Hangul (its own fast path)
        // with one damaged byte at any offset.
        for _ in 0..<5_000 {
            var bytes = Array(String(repeating: "a", count: Int.random(in: 0...20, using: &random)).utf8)
            bytes += Array("흡연구역 해운대 서울".utf8).prefix(Int.random(in: 0...28, using: &random))
            bytes += Array("xyz".utf8)
            if !bytes.isEmpty && Bool.random(using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = [0x80, 0xED, 0xA0, 0xFF, 0xC2][Int.random(in: 0..<5, using: &random)]
            }
            cases.append(bytes)
        }
        for bytes in cases {
            let ours = bytes.withUnsafeBufferPointer { DataGoKrXMLDecoder.firstInvalidUTF8($0) } == nil
            #expect(ours == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
        }
    }
}

@Suite(.offThePool, .timeLimit(.minutes(5)))
final class XMLPreflightTests {
    /// "<?" and "<!" (other than comments and CDATA) are refused wherever they fall, including
    /// across the scanner's eight-byte steps; '?' and '!' elsewhere are ordinary text.
    @Test func markupIsFoundAtEveryOffset() {
        let decoder = DataGoKrXMLDecoder()
        for offset in 0..<24 {
            let padding = String(repeating: "가", count: offset % 3) + String(repeating: "x", count: offset)
            for bad in ["<?pi x?>", "<!DOCTYPE r>", "<!ENTITY e 'x'>"] {
                let page = "<response><header><resultMsg>\(padding)</resultMsg>\(bad)</header></response>"
                if let error = #expect(throws: (any Error).self, "\(bad) after \(offset)", performing: { try decoder.decode(Array(page.utf8)) }) {
                    guard case .malformedPage(let why)? = error as? UpstreamError else { Issue.record("\(error)"); return }
                    #expect(why.contains("processing instruction") || why.contains("document type"), Comment(rawValue: why))
                }
            }
            let fine = "<response><header><resultCode>00</resultCode><resultMsg>\(padding)정상?! 네!</resultMsg></header><!-- note --><body><items/></body></response>"
            #expect(throws: Never.self, "offset \(offset)") { try decoder.decode(Array(fine.utf8)) }
        }
    }
}
