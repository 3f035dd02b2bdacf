import XCTest
@testable import AreasCore
@testable import AreasIngest
@testable import AreasProtocol
@testable import AreasTestSupport

final class RequestTests: XCTestCase {
    private func parse(_ line: String) throws -> Request {
        try Request.parse(Array(line.utf8))
    }

    private func error(_ line: String) -> RequestError? {
        do {
            _ = try parse(line)
            return nil
        } catch {
            return error as? RequestError
        }
    }

    func testMembersInAnyOrderRepeatedOrEscaped() throws {
        let point = GeoPoint(uncheckedLatitude: 37.5, longitude: 127)
        let near = Request.near(point: point, k: 3, maxMeters: nil, kind: .smoking, region: Region(province: "서울"), output: .ids)
        for line in [
            #"{"op":"near","lat":37.5,"lon":127,"k":3,"kind":"smoking","province":"서울","output":"ids"}"#,
            #"{ "output" : "ids" , "province":"서울","kind":"smoking","k":3,"lon":127,"lat":37.5,"op":"near" }"#,
            #"{"op":"near","lat":1,"lat":37.5,"lon":127,"k":3,"kind":"smoking","province":"서울","output":"ids","other":[1,{"x":2}]}"#,
            #"{"\u006fp":"near","l\u0061t":37.5,"lon":127,"k":3,"kind":"smoking","prov\u0069nce":"\uC11C\uC6B8","output":"ids"}"#,
        ] {
            XCTAssertEqual(try parse(line), near, line)
        }
        XCTAssertEqual(try parse(#"{"op":"get","id":"a\"b"}"#), .get(id: "a\"b"))
        XCTAssertEqual(try parse(#"{"op":"along","path":[[37,127],[37.1,127.1]],"meters":50}"#),
                       .along(path: [GeoPoint(uncheckedLatitude: 37, longitude: 127), GeoPoint(uncheckedLatitude: 37.1, longitude: 127.1)],
                              meters: 50, kind: .all, region: .anywhere, limit: nil, output: .full))
        XCTAssertEqual(try parse(#"{"op":"refresh","wait":true}"#), .refresh(wait: true, force: false))
        XCTAssertEqual(error(#"{"op":"near","lat":"37","lon":127}"#)?.message, "lat must be a number between -90 and 90")
        XCTAssertEqual(error(#"{"op":"near","lat":37,"lon":127,"k":1.5}"#)?.message, "k must be a whole number from 0 to 10000, got 1.5")
        XCTAssertEqual(error(#"{"op":"get","id":7}"#)?.message, "id must be a string, got a number")
        XCTAssertEqual(error(#"[1,2]"#)?.message, "a request must be a JSON object, got an array")
        XCTAssertEqual(error(#"{"op":"fly"}"#)?.code, .unknownOp)
        // Words are matched in place when plain and through the decoder when escaped.
        XCTAssertEqual(error(#"{"op":"f\u006cy"}"#)?.message, "unknown op 'fly' (expected near, radius, bbox, check, along, get, stats, health or refresh)")
        XCTAssertEqual(error(#"{"op":7}"#)?.message, "op must be a string, got a number")
        XCTAssertEqual(error(#"{"op":"near","lat":37,"lon":127,"output":"idz"}"#)?.message, "output must be full, ids or count, got 'idz'")
        XCTAssertEqual(error(#"{"op":"near","lat":37,"lon":127,"kind":"smokingg"}"#)?.message, "kind must be smoking, nonsmoking or all, got 'smokingg'")
        XCTAssertEqual(error(#"{"op":"near","lat":37,"lon":127,"output":""}"#)?.message, "output must be full, ids or count, got ''")
        XCTAssertEqual(try parse(#"{"op":"ne\u0061r","lat":37.5,"lon":127,"k":3,"kind":"sm\u006fking","province":"서울","output":"i\u0064s"}"#), near)
        // Names are matched whole: near misses of a known name (longer, shorter, same first
        // eight bytes) are other members, ignored.
        XCTAssertEqual(try parse(#"{"op":"near","lat":37.5,"lon":127,"k":3,"maxMeters":250.5,"maxMeterz":1,"maxMeter":2,"provinces":"x","provinc":"y"}"#),
                       .near(point: point, k: 3, maxMeters: 250.5, kind: .all, region: .anywhere, output: .full))
        XCTAssertEqual(try parse(#"{"op":"near","lat":37.5,"lon":127,"k":3,"maxMeterz":1}"#),
                       .near(point: point, k: 3, maxMeters: nil, kind: .all, region: .anywhere, output: .full))
        XCTAssertEqual(try parse(#"{"op":"near","lat":37.5,"lon":127,"k":3,"kind":"smoking","province":"서울","output":null}"#),
                       .near(point: point, k: 3, maxMeters: nil, kind: .smoking, region: Region(province: "서울"), output: .full))
    }

    /// Whatever the general parser refuses, the request reader refuses with the same message;
    /// whatever it accepts as an object, the reader reads.
    func testMalformedLinesFailAsTheGeneralParserSays() {
        let valid = [
            #"{"op":"near","lat":37.5,"lon":127,"k":3,"kind":"smoking","province":"서울","output":"ids"}"#,
            #"{"op":"along","path":[[37,127],[37.1,127.1]],"meters":50,"x":{"y":[true,false,null]}}"#,
            #"{"op":"get","id":"a\"b\\c\u00e9"}"#,
        ].map { Array($0.utf8) }
        var random = SplitMix64(seed: 51)
        let alphabet = Array(#"{}[]":,\ "0123456789.-eE+tfnul"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
        var refused = 0
        for _ in 0..<20_000 {
            var line = valid.randomElement(using: &random)!
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0..<line.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: line[at] = alphabet.randomElement(using: &random)!
                case 1: line.remove(at: at)
                default: line.insert(alphabet.randomElement(using: &random)!, at: at)
                }
                if line.isEmpty { line = [UInt8(ascii: "{")] }
            }
            let general: Result<JSONValue, JSONParser.Failure> = Result { () throws(JSONParser.Failure) in try JSONParser.parse(line) }
            let reader = Result { try Request.parse(line) }
            switch general {
            case .failure(let failure):
                refused += 1
                guard case .failure(let error as RequestError) = reader else { return XCTFail("accepted \(String(decoding: line, as: UTF8.self))") }
                XCTAssertEqual(error.code, .badRequest)
                XCTAssertEqual(error.message, failure.description, String(decoding: line, as: UTF8.self))
            case .success(let value):
                if case .object = value { continue }
                guard case .failure(let error as RequestError) = reader else { return XCTFail("accepted \(String(decoding: line, as: UTF8.self))") }
                XCTAssertEqual(error.message, "a request must be a JSON object, got \(value.typeName)")
            }
        }
        XCTAssertGreaterThan(refused, 5_000)
    }
}
