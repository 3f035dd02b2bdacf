import AreasCore
import AreasTestSupport
import Testing
@testable import AreasProtocol
import AreasTestTraits

/// Request lines: what each reads as, and the error each bad one gets, message and all.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct RequestTests {
    private static func parse(_ line: String) throws -> Request {
        try Request.parse(Array(line.utf8))
    }

    private static func error(_ line: String) -> RequestError? {
        do {
            _ = try parse(line)
            return nil
        } catch {
            return error as? RequestError
        }
    }

    static let point = GeoPoint(uncheckedLatitude: 37.5, longitude: 127)
    static let near = Request.near(point: point, k: 3, maxMeters: nil, kind: .smoking, region: Region(province: "서울"), output: .ids)

    @Test(arguments: [
        #"{"op":"near","lat":37.5,"lon":127,"k":3,"kind":"smoking","province":"서울","output":"ids"}"#,
        #"{ "output" : "ids" , "province":"서울","kind":"smoking","k":3,"lon":127,"lat":37.5,"op":"near" }"#,
        // A repeated member: the last wins. Unknown members are ignored, whatever they hold.
        #"{"op":"near","lat":1,"lat":37.5,"lon":127,"k":3,"kind":"smoking","province":"서울","output":"ids","other":[1,{"x":2}]}"#,
        #"{"\u006fp":"near","l\u0061t":37.5,"lon":127,"k":3,"kind":"smoking","prov\u0069nce":"\uC11C\uC6B8","output":"ids"}"#,
        // Words are matched in place when plain and through the decoder when escaped.
        #"{"op":"ne\u0061r","lat":37.5,"lon":127,"k":3,"kind":"sm\u006fking","province":"서울","output":"i\u0064s"}"#,
    ])
    func membersInAnyOrderRepeatedOrEscaped(line: String) throws {
        #expect(try Self.parse(line) == Self.near)
    }

    @Test(arguments: [
        (#"{"op":"get","id":"a\"b"}"#, Request.get(id: "a\"b")),
        (#"{"op":"along","path":[[37,127],[37.1,127.1]],"meters":50}"#,
         .along(path: [GeoPoint(uncheckedLatitude: 37, longitude: 127), GeoPoint(uncheckedLatitude: 37.1, longitude: 127.1)],
                meters: 50, kind: .all, region: .anywhere, limit: nil, output: .full)),
        (#"{"op":"refresh","wait":true}"#, .refresh(wait: true, force: false)),
        // Names are matched whole: near misses of a known name (longer, shorter, same first
        // eight bytes) are other members, ignored.
        (#"{"op":"near","lat":37.5,"lon":127,"k":3,"maxMeters":250.5,"maxMeterz":1,"maxMeter":2,"provinces":"x","provinc":"y"}"#,
         .near(point: point, k: 3, maxMeters: 250.5, kind: .all, region: .anywhere, output: .full)),
        (#"{"op":"near","lat":37.5,"lon":127,"k":3,"maxMeterz":1}"#,
         .near(point: point, k: 3, maxMeters: nil, kind: .all, region: .anywhere, output: .full)),
        (#"{"op":"near","lat":37.5,"lon":127,"k":3,"kind":"smoking","province":"서울","output":null}"#,
         .near(point: point, k: 3, maxMeters: nil, kind: .smoking, region: Region(province: "서울"), output: .full)),
    ])
    func linesReadAs(line: String, expected: Request) throws {
        #expect(try Self.parse(line) == expected)
    }

    @Test(arguments: [
        (#"{"op":"near","lat":"37","lon":127}"#, "lat must be a number between -90 and 90"),
        (#"{"op":"near","lat":37,"lon":127,"k":1.5}"#, "k must be a whole number from 0 to 10000, got 1.5"),
        (#"{"op":"get","id":7}"#, "id must be a string, got a number"),
        (#"[1,2]"#, "a request must be a JSON object, got an array"),
        (#"{"op":"f\u006cy"}"#, "unknown op 'fly' (expected near, radius, bbox, check, along, clusters, where, search, get, crowd, changes, stats, sources, health, refresh or metrics)"),
        (#"{"op":7}"#, "op must be a string, got a number"),
        (#"{"op":"near","lat":37,"lon":127,"output":"idz"}"#, "output must be full, ids or count, got 'idz'"),
        (#"{"op":"near","lat":37,"lon":127,"kind":"smokingg"}"#, "kind must be smoking, nonsmoking or all, got 'smokingg'"),
        (#"{"op":"near","lat":37,"lon":127,"output":""}"#, "output must be full, ids or count, got ''"),
    ])
    func badLinesSayWhatIsWrong(line: String, message: String) {
        #expect(Self.error(line)?.message == message)
    }

    @Test func anUnknownOpHasItsOwnCode() {
        #expect(Self.error(#"{"op":"fly"}"#)?.code == .unknownOp)
    }

    /// Whatever the general parser refuses, the request reader refuses with the same message;
    /// whatever it accepts as an object, the reader reads.
    @Test func malformedLinesFailAsTheGeneralParserSays() throws {
        let valid = [
            #"{"op":"near","lat":37.5,"lon":127,"k":3,"kind":"smoking","province":"서울","output":"ids"}"#,
            #"{"op":"along","path":[[37,127],[37.1,127.1]],"meters":50,"x":{"y":[true,false,null]}}"#,
            #"{"op":"get","id":"a\"b\\c\u00e9"}"#,
        ].map { Array($0.utf8) }
        var random = SplitMix64(seed: 51)
        let alphabet = Array(#"{}[]":,\ "0123456789.-eE+tfnul"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
        var refused = 0
        for _ in 0..<20_000 {
            var line = valid[Int.random(in: 0..<valid.count, using: &random)]
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0..<line.count, using: &random)
                let byte = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
                switch Int.random(in: 0..<3, using: &random) {
                case 0: line[at] = byte
                case 1: line.remove(at: at)
                default: line.insert(byte, at: at)
                }
                if line.isEmpty { line = [UInt8(ascii: "{")] }
            }
            let text = String(decoding: line, as: UTF8.self)
            let general: Result<JSONValue, JSONParser.Failure> = Result { () throws(JSONParser.Failure) in try JSONParser.parse(line) }
            let reader = Result { try Request.parse(line) }
            switch general {
            case .failure(let failure):
                refused += 1
                guard case .failure(let error as RequestError) = reader else {
                    Issue.record("accepted \(text)")
                    return
                }
                #expect(error.code == .badRequest)
                #expect(error.message == failure.description, "\(text)")
            case .success(let value):
                if case .object = value {
                    // A JSON object: the reader took it as one, then judged it as a request.
                    if case .failure(let error as RequestError) = reader {
                        #expect(error.code == .badRequest || error.code == .unknownOp, "\(text): \(error)")
                        #expect(!error.message.hasPrefix("a request must be a JSON object"), "\(text)")
                    }
                    continue
                }
                guard case .failure(let error as RequestError) = reader else {
                    Issue.record("accepted \(text)")
                    return
                }
                #expect(error.message == "a request must be a JSON object, got \(value.typeName)")
            }
        }
        #expect(refused > 5_000)
    }
}
