import Foundation
import Testing
@testable import AreasIngest
@testable import AreasTestSupport
import AreasTestTraits

/// A config key is declared once (`ConfigKeys`): the daemon reads a file by the declarations,
/// and the README's table and `ConfigKeys.md` are written from them. `AREAS_WRITE_CONFIG_KEYS=1`
/// writes both after a declaration changed.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct ConfigKeyTableTests {
    static let readme = Fixtures.path("README.md")
    static let article = Fixtures.path(ConfigKeys.articlePath)

    @Test func theReadmesTableIsTheDeclarations() throws {
        let text = try String(contentsOfFile: Self.readme, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "| key | meaning | default |"), "the README has no key table")
        let end = lines[start...].firstIndex { !$0.hasPrefix("|") } ?? lines.endIndex
        let written = lines[start..<end].joined(separator: "\n")
        if written != ConfigKeys.readmeTable, ProcessInfo.processInfo.environment["AREAS_WRITE_CONFIG_KEYS"] == "1" {
            try (lines[..<start] + [ConfigKeys.readmeTable] + lines[end...]).joined(separator: "\n").write(toFile: Self.readme, atomically: true, encoding: .utf8)
        }
        #expect(written == ConfigKeys.readmeTable, "the README's key table is not the declarations' (AREAS_WRITE_CONFIG_KEYS=1 writes it)")
    }

    @Test func theArticleIsTheDeclarations() throws {
        let written = (try? String(contentsOfFile: Self.article, encoding: .utf8)) ?? ""
        if written != ConfigKeys.article, ProcessInfo.processInfo.environment["AREAS_WRITE_CONFIG_KEYS"] == "1" {
            try ConfigKeys.article.write(toFile: Self.article, atomically: true, encoding: .utf8)
        }
        #expect(written == ConfigKeys.article, "\(ConfigKeys.articlePath) is not the declarations' (AREAS_WRITE_CONFIG_KEYS=1 writes it)")
    }

    /// A base file in which each section is read whole, so a key the reader skipped would pass.
    static func base(for section: String) -> String {
        let source = #"{"name":"a","kind":"smoking","format":"csv","file":"a.csv","fields":{"name":"n","latitude":"y","longitude":"x"}}"#
        switch section {
        case "follow": return #"{"follow":{"file":"leader.snapshot"}}"#
        default:
            return #"{"geocoder":{"provider":"kakao"},"crowd":{"places":"p.geojson"},"http":{"listen":"127.0.0.1:1"},"#
                + #""bounds":{"south":33,"west":124,"north":39,"east":132},"footprint":{},"merge":{},"regions":{},"odcloud":{},"sources":["# + source + "]}"
        }
    }

    /// Every declared key is read, with its type: given a value of another type, the file is
    /// refused naming that key.
    @Test func everyDeclaredKeyIsReadByItsType() throws {
        #expect(throws: Never.self) { try AreasConfig.parse(Data(Self.base(for: "").utf8), path: "/etc/areasd/areasd.json") }
        #expect(throws: Never.self) { try AreasConfig.parse(Data(Self.base(for: "follow").utf8), path: "/etc/areasd/areasd.json") }
        for section in ConfigKeys.section.withInner {
            for key in section.keys {
                let (json, name) = try Self.withWrongType(key, in: section)
                let message = ConfigRangeTests.error(json, path: "/etc/areasd/areasd.json")
                #expect(message.contains("\(name)") && !message.contains("unknown key"), "\(section.name) \(key.name): \(message)")
            }
        }
        let unknown = ConfigRangeTests.error(Self.base(for: "").replacingOccurrences(of: #""footprint":{}"#, with: #""footprint":{"minMeter":5}"#), path: "/x.json")
        #expect(unknown.contains("footprint.minMeter: unknown key (did you mean minMeters?)"), "\(unknown)")
    }

    /// The base file with `key` of `section` given `[[]]` (no key takes a list of lists), and
    /// the name the error must give.
    static func withWrongType(_ key: ConfigKey, in section: ConfigSection) throws -> (String, String) {
        let wrong = "[[]]"
        var json = try #require(try JSONSerialization.jsonObject(with: Data(base(for: section.name.hasPrefix("follow") ? "follow" : "").utf8)) as? [String: Any])
        let value = try JSONSerialization.jsonObject(with: Data(wrong.utf8))
        switch section.name {
        case "": json[key.name] = value; return (try text(json), key.name)
        case "sources[]", "sources[].fields", "sources[].geocode":
            var source = try #require((json["sources"] as? [[String: Any]])?.first)
            if section.name == "sources[]" {
                source[key.name] = value
            } else {
                let member = section.name == "sources[].fields" ? "fields" : "geocode"
                var inner = (source[member] as? [String: Any]) ?? ["query": "{a}"]
                inner[key.name] = value
                source[member] = inner
                json["positions"] = "p.csv"
                return (try text(json.merging(["sources": [source]]) { $1 }), "sources[0].\(member).\(key.name)")
            }
            json["sources"] = [source]
            return (try text(json), "sources[0].\(key.name)")
        default:
            var inner = try #require(json[section.name] as? [String: Any])
            inner[key.name] = value
            json[section.name] = inner
            return (try text(json), "\(section.name).\(key.name)")
        }
    }

    static func text(_ json: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
    }
}
