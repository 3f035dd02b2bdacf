import AreasCore
import AreasIngest
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// Lines of an `overrides` file, each bad in one way: a clear message naming the line, and the
/// good lines around it still read.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct OverridesFileTests {
    @Test(arguments: [
        ("frobnicate,x,,,,,", "line 3: action 'frobnicate' is not one of hide, move, rename, add"),
        ("hide,,,,,,", "line 3: hide without an id"),
        ("move,a:1,,,37.5,,", "line 3: move a:1: missing coordinates"),
        ("move,a:1,,,91,127,", "line 3: move a:1: out of bounds"),
        ("move,a:1,,,10.5,127.0,", "line 3: move a:1: out of bounds"),
        ("move,a:1,,,37.5x,127.0,", "line 3: move a:1: non-numeric coordinates"),
        ("move,a:1,,,127.0,37.5,", "line 3: latitude and longitude swapped"),
        ("rename,a:1,,,,,", "line 3: rename a:1 without a name"),
        ("add,new,이름,booth,37.5,127.0,", "line 3: add new: kind 'booth' is not smoking or nonsmoking"),
        ("add,a:new,이름,smoking,37.5,127.0,", "line 3: add a:new: an added area's id is a name of its own"),
    ])
    func aBadLineIsNamedAndTheRestApply(line: String, message: String) throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/overrides.csv"
        try "action,id,name,kind,latitude,longitude,note\nhide,a:0,,,,,gone\n\(line)\nadd,new-1,새 부스,smoking,37.53,126.97,new\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let file = try OverridesFile(path: path, bounds: .korea)
        #expect(file.problems.count == 1 && file.problems.first?.hasPrefix("\(path) \(message)") == true, "\(file.problems)")
        #expect(file.lines.map(\.action) == [.hide, .add])
        #expect(file.added.count == 1 && file.added.id(at: 0) == "overrides:new-1")
    }

    @Test func jsonRowsAreReadAlike() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/overrides.json"
        try #"[{"action":"move","id":"a:1","latitude":37.5,"longitude":127.0,"note":"이전"},{"action":"hide"}]"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let file = try OverridesFile(path: path, bounds: .korea)
        let point = try GeoPoint(latitude: 37.5, longitude: 127.0)
        #expect(file.lines.count == 1 && file.lines.first?.coordinate == point)
        #expect(file.problems == ["\(path) row 2: hide without an id"])
    }

    @Test func aMissingFileSaysWhere() {
        #expect(throws: UpstreamError.self) { try OverridesFile(path: "/nonexistent/overrides.csv", bounds: .korea) }
    }
}
