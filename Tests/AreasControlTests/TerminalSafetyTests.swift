import AreasControl
import AreasProtocol
import Foundation
import Testing
import AreasTestTraits

/// Upstream text reaches a terminal: names with escape sequences, CR/LF, NUL and the Unicode
/// line separators must arrive visible and inert; `--json` stays the daemon's exact bytes.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct TerminalSafetyTests {
    /// A name an upstream could publish: a title change (OSC), a screen clear, CR/LF, a NUL,
    /// NEL and LINE SEPARATOR.
    static let hostileName = "흡연\u{1B}]0;owned\u{07}\u{1B}[2J\r\nforged line\u{0}\u{85}\u{2028}end"

    static var answer: String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("ok"); writer.bool(true)
        writer.key("count"); writer.number(1)
        writer.key("truncated"); writer.bool(false)
        writer.key("areas"); writer.beginArray(); writer.beginObject()
        writer.key("id"); writer.string("x:1")
        writer.key("kind"); writer.string("smoking")
        writer.key("name"); writer.string(hostileName)
        writer.key("lat"); writer.number(37.5)
        writer.key("lon"); writer.number(127.0)
        writer.key("address"); writer.string("주소\u{1B}[31m")
        writer.key("fields"); writer.beginObject(); writer.key(escaping: "열\u{1B}[1m"); writer.string("값\r"); writer.endObject()
        writer.endObject(); writer.endArray()
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func inert(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
        }
    }

    @Test(arguments: [["near", "37.5", "127"], ["get", "x:1"], ["near", "37.5", "127", "--output", "ids"]])
    func printedTextIsInert(arguments: [String]) throws {
        let output = ResponseFormatter.render(Array(Self.answer.utf8), for: try ControlCommand.parse(arguments))
        #expect(Self.inert(output.stdout), "\(output.stdout.debugDescription)")
        #expect(Self.inert(output.stderr))
        if arguments[0] == "near" && arguments.count == 3 {
            #expect(output.stdout.contains("흡연\\e]0;owned\\u{7}\\e[2J\\r\\nforged line\\u{0}\\u{85}\\u{2028}end"))
            #expect(output.stdout.split(separator: "\n").count == 2, "a header and one row")
        }
    }

    @Test func jsonStaysExactAndGeoJSONCarriesTheTextAsSent() throws {
        let json = ResponseFormatter.render(Array(Self.answer.utf8), for: try ControlCommand.parse(["near", "37.5", "127", "--json"]))
        #expect(json.stdout == Self.answer + "\n")
        let geo = ResponseFormatter.render(Array(Self.answer.utf8), for: try ControlCommand.parse(["near", "37.5", "127", "--geojson"]))
        let parsed = try JSONParser.parse(Array(geo.stdout.utf8))
        #expect(parsed["features"]?.array.first?["properties"]?["name"]?.string == Self.hostileName)
    }

    @Test func anErrorMessageFromTheDaemonIsInertToo() throws {
        let answer = #"{"ok":false,"error":{"code":"bad_request","message":"no \u001b[2J here"}}"#
        let output = ResponseFormatter.render(Array(answer.utf8), for: try ControlCommand.parse(["near", "37.5", "127"]))
        #expect(output.stderr == "areasctl: bad_request: no \\e[2J here\n")
    }
}
