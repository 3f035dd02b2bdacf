import AreasControl
import AreasCore
import AreasProtocol
import AreasSystem
import Foundation
import Testing
import AreasTestTraits

/// areasctl's command lines: each must become the request the daemon's own parser reads back as
/// the same question (the parser is the oracle), and each bad line a usage error.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ControlCommandTests {
    @Test(arguments: [
        (["near", "37.53", "126.97", "-k", "3"], Request.near(point: GeoPoint(uncheckedLatitude: 37.53, longitude: 126.97), k: 3, maxMeters: nil, kind: .all, region: Region(), output: .full)),
        (["near", "37.53", "126.97", "--max-meters", "500", "--kind", "smoking", "--output", "ids"],
         Request.near(point: GeoPoint(uncheckedLatitude: 37.53, longitude: 126.97), k: 10, maxMeters: 500, kind: .smoking, region: Region(), output: .ids)),
        (["radius", "37.5", "127", "300", "--limit", "5"],
         Request.radius(point: GeoPoint(uncheckedLatitude: 37.5, longitude: 127), meters: 300, kind: .all, region: Region(), limit: 5, output: .full)),
        (["bbox", "37.5", "126.9", "37.6", "127.0", "--province", "서울"],
         Request.bbox(box: GeoBox(uncheckedSouth: 37.5, west: 126.9, north: 37.6, east: 127.0), kind: .all, region: Region(province: "서울"), limit: nil, output: .full)),
        (["check", "37.528916", "126.967984"], Request.check(point: GeoPoint(uncheckedLatitude: 37.528916, longitude: 126.967984), region: Region())),
        (["get", "yongsan:027a36e0cd0ad58b"], Request.get(id: "yongsan:027a36e0cd0ad58b")),
        (["stats"], Request.stats),
        (["health"], Request.health),
        (["refresh", "--force"], Request.refresh(wait: true, force: true)),
    ])
    func commandBecomesTheRequestTheDaemonReads(arguments: [String], expected: Request) throws {
        let command = try ControlCommand.parse(arguments)
        #expect(command.request == expected)
        #expect(try Request.parse(command.line) == expected)
    }

    @Test func alongSendsEveryPointInOrder() throws {
        let command = try ControlCommand.parse(["along", "--meters", "30", "37.55,126.97", "37.56,126.98", "37.57,126.99"])
        let along = try #require(try Request.parse(command.line).question as? Request.Along)
        #expect(along.meters == 30)
        #expect(along.path.map(\.latitude) == [37.55, 37.56, 37.57])
        #expect(along.path.map(\.longitude) == [126.97, 126.98, 126.99])
    }

    @Test func outputFormatAndSocketComeFromTheirFlags() throws {
        #expect(try ControlCommand.parse(["stats", "--json"]).format == .json)
        #expect(try ControlCommand.parse(["near", "37", "127", "--geojson"]).format == .geojson)
        #expect(try ControlCommand.parse(["health"]).format == .table)
        #expect(try ControlCommand.parse(["--socket", "/tmp/x.sock", "health"]).socketPath == "/tmp/x.sock")
        #expect(try ControlCommand.parse(["refresh", "--quiet"]).quiet)
    }

    @Test(arguments: [
        ["near", "37.53"],
        ["near", "north", "126.97"],
        ["near", "37.53", "inf"],
        ["bbox", "1", "2", "3"],
        ["get"],
        ["stats", "extra"],
        ["fly"],
        [],
        ["near", "37", "127", "--kind", "cigars"],
        ["near", "37", "127", "--output", "xml"],
        ["near", "37", "127", "--json", "--geojson"],
        ["along", "37.5;127"],
        ["along"],
    ])
    func badCommandLinesAreUsageErrors(arguments: [String]) {
        #expect(throws: UsageError.self) { try ControlCommand.parse(arguments) }
    }
}

/// An option's text is its field's text as an HTTP parameter: for every value, the command line
/// asks what the same parameter asks over HTTP, and refuses what HTTP refuses in the same
/// words, with the option's name for the parameter's. The HTTP router is the oracle.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct OptionCodecTests {
    static func head(_ target: String) throws -> HTTPRequestHead {
        let text = "GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n"
        guard case .head(let head, _) = try HTTPRequestParser().parse(Array(text.utf8)) else { throw HTTPError(.badRequest, "incomplete") }
        return head
    }

    static let texts = ["3", "0", "1", "10000", "10001", "1.5", "-5", "500", "20100001", "22", "23", "smoking", "all", "cigars",
                        "ids", "count", "xml", "서울", "용산구", "37.5,127", "37.5", "95,127", "abc", "1e3", ""]
    /// Each command with an option, its operands on the command line and as parameters.
    static let commands: [(verb: String, operands: [String], parameters: String)] = [
        ("near", ["37.5", "127"], "lat=37.5&lon=127"),
        ("radius", ["37.5", "127", "300"], "lat=37.5&lon=127&meters=300"),
        ("bbox", ["37", "126", "38", "127"], "south=37&west=126&north=38&east=127"),
        ("check", ["37.5", "127"], "lat=37.5&lon=127"),
        ("clusters", ["37", "126", "38", "127"], "south=37&west=126&north=38&east=127"),
        ("along", ["37.5,127", "37.6,127.1"], "path=37.5,127;37.6,127.1"),
    ]

    static var cases: [(String, String)] {
        commands.flatMap { command in
            // `--at` and `--near` give the position, in place of the operands (SearchAnswersTests).
            (ControlCommand.table.command(command.verb)?.options ?? []).filter { $0.hasPrefix("-") && !["--json", "--geojson", "--format", "--quiet", "--at", "--near"].contains($0) }
                .map { (command.verb, $0) }
        }
    }

    @Test(arguments: cases)
    func anOptionAsksWhatItsParameterAsks(verb: String, option: String) throws {
        let command = try #require(Self.commands.first { $0.verb == verb })
        let field = try #require(RequestField.allCases.first { field in ControlCommand.table.option(option) != nil && Self.optionName(field) == option })
        let operation = try #require(RequestOperation(name: verb))
        for text in Self.texts {
            // The command line's defaults, said as parameters: a route 50 m wide, a map at zoom 7.
            var defaults = ""
            if verb == "along" && field != .meters { defaults += "&meters=50" }
            if verb == "clusters" && field != .zoom { defaults += "&zoom=7" }
            let plain = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,-")
            let escaped = text.addingPercentEncoding(withAllowedCharacters: plain) ?? text
            let target = "\(operation.endpointPath)?\(command.parameters)\(defaults)&\(field.name)=\(escaped)"
            let head = try Self.head(target)
            let http: Result<Request, RequestError> = Result { () throws(RequestError) in
                guard case .request(let request, _, _, _) = try HTTPRoute.route(head) else {
                    throw RequestError(.badRequest, "not a query")
                }
                return request
            }
            var arguments = [verb] + command.operands + [option, text]
            if verb == "clusters" && field != .zoom { arguments += ["--zoom", "7"] }
            let cli = Result { () throws(UsageError) in try ControlCommand.parse(arguments).request }
            switch (http, cli) {
            case (.success(let asked), .success(let parsed)):
                #expect(parsed == asked, "\(arguments) asks \(String(decoding: parsed.line, as: UTF8.self)), \(target) asks \(String(decoding: asked.line, as: UTF8.self))")
            case (.failure(let refusal), .failure(let usage)):
                // A word where a number goes is refused before any check: the text is named.
                if field.shape == .number && RequestValue.decimalNumber(text) == nil {
                    #expect(usage == .invalidValue(option, text))
                } else {
                    #expect(usage == .wrongArguments(option + refusal.message.dropFirst(field.name.count)), "\(arguments)")
                }
            case (.success, .failure(let usage)):
                // Only a narrower range the command line declares: at least one nearest.
                #expect(field == .k && text == "0" && usage == .wrongArguments("-k 0 asks for no areas: give -k from 1 to 10000"), "\(arguments): \(usage), while \(target) is asked")
            case (.failure(let refusal), .success):
                Issue.record("\(arguments) was taken, while \(target) is refused: \(refusal.message)")
            }
        }
    }

    static func optionName(_ field: RequestField) -> String? {
        ["k": "-k", "maxMeters": "--max-meters", "meters": "--meters", "limit": "--limit", "zoom": "--zoom", "previous": "--previous",
         "kind": "--kind", "province": "--province", "district": "--district", "output": "--output", "force": "--force"][field.name]
    }
}

private extension RequestOperation {
    var endpointPath: String {
        if case .query(let path) = endpoint { return path }
        return ""
    }
}
