import Foundation
import Testing
@testable import AreasIngest
@testable import AreasTestSupport
import AreasTestTraits

/// Paths in a config: relative to its folder, absolute as written, `~/` in the home folder of
/// whoever runs it (the bundled config keeps its snapshot there, not in a /tmp folder another
/// user could have made first).
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct ConfigPathTests {
    @Test(arguments: [
        ("~/.cache/areas/areas.snapshot", "HOME/.cache/areas/areas.snapshot"),
        ("/var/lib/areasd/areas.snapshot", "/var/lib/areasd/areas.snapshot"),
        ("state/areas.snapshot", "/etc/areasd/state/areas.snapshot"),
    ])
    func snapshotPaths(written: String, expected: String) throws {
        let json = #"{"snapshot": "\#(written)", "sources": [{"name": "a", "kind": "smoking", "format": "csv", "file": "a.csv", "fields": {"name": "n", "latitude": "y", "longitude": "x"}}]}"#
        let config = try AreasConfig.parse(Data(json.utf8), path: "/etc/areasd/areasd.json")
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        #expect(config.snapshot == expected.replacingOccurrences(of: "HOME", with: home))
    }

    @Test func theBundledConfigKeepsItsDataInTheUsersHome() throws {
        let config = try AreasConfig.load(path: Fixtures.path("config/areasd.json"))
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        #expect(config.snapshot?.hasPrefix(home + "/") == true)
        // As written, in whoever's home runs it (a home folder may itself lie in /tmp).
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Fixtures.path("config/areasd.json")))) as? [String: Any]
        #expect((written?["snapshot"] as? String)?.hasPrefix("~/") == true)
    }
}
