import AreasTestTraits
import AreasTestSupport
import Foundation
import Testing
@testable import AreasCore
@testable import AreasIngest
@testable import AreasProtocol
@testable import AreasServer

/// `changes` against the data itself: a district file changed as publishers change theirs
/// (rows removed, added, re-addressed, renamed, moved), refreshed twice; applying the changes
/// since each version to that version's areas gives the next version's exactly, and the log
/// survives a restart and travels with the file to a follower.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct ChangesTests {
    static let header = "이름,위도,경도,주소\n"
    static let first = [
        "용산역 광장,37.52990,126.96480,서울특별시 용산구 한강대로 405",
        "이태원역 1번 출구,37.53450,126.99440,서울특별시 용산구 이태원로 177",
        "숙대입구역 2번 출구,37.54480,126.97260,서울특별시 용산구 한강대로 306",
        "삼각지역 11번 출구,37.53480,126.97330,서울특별시 용산구 한강대로 184",
        "녹사평역 3번 출구,37.53450,126.98690,서울특별시 용산구 녹사평대로 195",
    ]

    /// Every area the service serves, by id, as a full answer gives it.
    static func everything(_ server: TestServer) throws -> [String: JSONValue] {
        let answer = try server.ask(#"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"limit":10000}"#)
        return Dictionary(uniqueKeysWithValues: (answer["areas"]?.array ?? []).compactMap { area in area["id"]?.string.map { ($0, area) } })
    }

    /// `areas` with `changes` applied: vanished dropped, appeared added, changed replaced.
    static func applying(_ changes: JSONValue, to areas: [String: JSONValue]) -> [String: JSONValue] {
        var result = areas
        for gone in changes["vanished"]?.array ?? [] { if let id = gone["id"]?.string { result[id] = nil } }
        for area in changes["appeared"]?.array ?? [] { if let id = area["id"]?.string { result[id] = area } }
        for area in changes["changed"]?.array ?? [] {
            guard let id = area["id"]?.string, case .object(let members) = area else { continue }
            result[id] = .object(members.filter { $0.0 != "what" })
        }
        return result
    }

    /// A service in-process on a district file of `Self.first` in `folder` (config members
    /// `extra` beside its one source), and how to publish the file's next release.
    static func boothsServer(in folder: String, extra: String = "") async throws -> (TestServer, publish: ([String]) throws -> Void) {
        let file = folder + "/booths.csv"
        let publish = { (rows: [String]) throws in try Data((Self.header + rows.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file)) }
        try publish(Self.first)
        let json = #"{\#(extra)"sources": [{"name": "yongsan", "kind": "smoking", "format": "csv", "file": "\#(file)", "fields": {"name": "이름", "latitude": "위도", "longitude": "경도", "address": "주소"}}]}"#
        return (try await TestServer(config: try AreasConfig.parse(Data(json.utf8), path: folder + "/areasd.json")), publish)
    }

    @Test func applyingTheChangesSinceAVersionGivesTheNext() async throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (server, publish) = try await Self.boothsServer(in: folder)
        defer { server.stop() }
        let v1 = try #require(try server.ask(#"{"op":"health"}"#)["version"]?.string)
        let areas1 = try Self.everything(server)
        #expect(areas1.count == 5)
        #expect(try server.ask(#"{"op":"changes","since":"\#(v1)"}"#)["appeared"]?.array.isEmpty == true, "the current version: nothing since")

        // The publisher's next release: one row gone, one new, one re-addressed, one renamed.
        var second = Self.first
        second.remove(at: 4)
        second[1] = "이태원역 1번 출구,37.53450,126.99440,서울특별시 용산구 이태원로 179"
        second[2] = "숙대입구역 2번 출구 흡연부스,37.54480,126.97260,서울특별시 용산구 한강대로 306"
        second.append("효창공원앞역 6번 출구,37.53900,126.96120,서울특별시 용산구 백범로 287")
        try publish(second)
        _ = await server.service.startRefresh(force: false).report()
        let v2 = try #require(try server.ask(#"{"op":"health"}"#)["version"]?.string)
        #expect(v2 != v1)
        let areas2 = try Self.everything(server)
        let since1 = try server.ask(#"{"op":"changes","since":"\#(v1)"}"#)
        #expect(since1["since"]?.string == v1 && since1["version"]?.string == v2)
        #expect(Self.applying(since1, to: areas1) == areas2, "\(since1)")
        let readdressed = since1["changed"]?.array.first { $0["name"]?.string == "이태원역 1번 출구" }
        #expect(readdressed?["what"]?.array.compactMap(\.string) == ["address"], "\(since1)")
        #expect(since1["vanished"]?.array.contains { $0["name"]?.string == "녹사평역 3번 출구" && $0["lastSeen"]?.string?.hasSuffix("Z") == true } == true)
        // Renamed at its position and address: the same place, its id kept.
        let renamed = since1["changed"]?.array.first { $0["name"]?.string == "숙대입구역 2번 출구 흡연부스" }
        #expect(renamed?["what"]?.array.compactMap(\.string) == ["name"], "\(since1)")
        #expect(renamed?["id"]?.string.map { areas1[$0]?["name"]?.string == "숙대입구역 2번 출구" } == true)
        #expect(since1["appeared"]?.array.compactMap { $0["name"]?.string } == ["효창공원앞역 6번 출구"], "\(since1)")
        // Without `since`: from the version before.
        #expect(try server.ask(#"{"op":"changes"}"#) == since1)

        // And again: a row moved 100 m, the gone one back.
        var third = second
        third[0] = "용산역 광장,37.52900,126.96480,서울특별시 용산구 한강대로 405"
        third.append(Self.first[4])
        try publish(third)
        _ = await server.service.startRefresh(force: false).report()
        let v3 = try #require(try server.ask(#"{"op":"health"}"#)["version"]?.string)
        let areas3 = try Self.everything(server)
        #expect(Self.applying(try server.ask(#"{"op":"changes","since":"\#(v1)"}"#), to: areas1) == areas3)
        let since2 = try server.ask(#"{"op":"changes","since":"\#(v2)"}"#)
        #expect(Self.applying(since2, to: areas2) == areas3)
        // Moved 100 m under its name and address: its id kept, `position` changed.
        let moved = since2["changed"]?.array.first { $0["name"]?.string == "용산역 광장" }
        #expect(moved?["what"]?.array.compactMap(\.string) == ["position"], "\(since2)")
        #expect(moved?["id"]?.string.map { areas1[$0] != nil } == true)
        // An area no release touched keeps the time it was first served; a changed one says when.
        let untouched = try #require(areas1.values.first { $0["name"]?.string == "삼각지역 11번 출구" })
        #expect(areas3[untouched["id"]?.string ?? ""]?["firstSeen"] == untouched["firstSeen"] && untouched["firstSeen"]?.string?.hasSuffix("Z") == true)
        #expect(moved?["changedAt"]?.string != nil && untouched["changedAt"] == nil, "\(String(describing: moved))")
        let none = try server.ask(#"{"op":"changes","since":"\#(v3)"}"#)
        #expect(none["appeared"]?.array.isEmpty == true && none["changed"]?.array.isEmpty == true && none["vanished"]?.array.isEmpty == true)
        for unknown in ["0-0", "another daemon's"] {
            #expect(try server.ask(#"{"op":"changes","since":"\#(unknown)"}"#).errorCode == "gone", "\(unknown)")
        }
        #expect(try server.ask(#"{"op":"changes","since":""}"#).errorCode == "bad_request")

        // The log is in the file: a start on it, and a follower taking it, answer alike.
        let path = server.directory + "/areas.snapshot"
        for copy in [path, folder + "/follower.snapshot"] {
            if copy != path { try FileManager.default.copyItem(atPath: path, toPath: copy) }
            var notes: [SnapshotStore.Note] = []
            let loaded = try #require(SnapshotStore(path: copy).load(notes: &notes))
            #expect(loaded.version == v3)
            let changes = loaded.changes.changes(since: v1, current: v3, index: loaded.index)
            let served = server.service.state.changes.changes(since: v1, current: v3, index: server.service.state.index)
            #expect(changes != nil && changes?.changes == served?.changes && changes?.more == false)
            #expect(loaded.changes.steps == server.service.state.changes.steps)
        }
    }

    /// Past `maxResults` (3 here), pages in id order that together list every change once,
    /// each ending with the `next` cursor for the one after; a forged cursor is a bad request,
    /// and one from before a refresh is `gone`.
    @Test func changesPastMaxResultsArePaged() async throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (server, publish) = try await Self.boothsServer(in: folder, extra: #""maxResults": 3, "#)
        defer { server.stop() }
        let v1 = try #require(try server.ask(#"{"op":"health"}"#)["version"]?.string)
        // Two rows gone, two renamed, six new: ten changes.
        var second = Array(Self.first.prefix(3))
        second[0] = "용산역 광장 흡연부스,37.52990,126.96480,서울특별시 용산구 한강대로 405"
        second[1] = "이태원역 1번 출구 흡연부스,37.53450,126.99440,서울특별시 용산구 이태원로 177"
        second += (1...6).map { "새 흡연부스 \($0),37.5\(10 + $0),126.9\(50 + $0),서울특별시 용산구 한강대로 \($0)" }
        try publish(second)
        _ = await server.service.startRefresh(force: false).report()
        let state = server.service.state
        let whole = try #require(state.changes.changes(since: v1, current: state.version, index: state.index))
        let expected = whole.changes.map(\.id)
        #expect(expected.count == 10, "\(expected)")

        var seen: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try server.ask(#"{"op":"changes","since":"\#(v1)"\#(cursor.map { #","cursor":"\#($0)""# } ?? "")}"#)
            #expect(page["ok"]?.bool == true, "\(page)")
            let ids = ["appeared", "changed", "vanished"].flatMap { key in page[key]?.array.compactMap { $0["id"]?.string } ?? [] }
            #expect(ids.count <= 3 && !ids.isEmpty)
            seen += ids.sorted()
            cursor = page["next"]?.string
            #expect((cursor != nil) == (page["truncated"]?.bool == true))
            pages += 1
        } while cursor != nil && pages < 10
        #expect(pages == 4 && seen == seen.sorted() && seen.count == Set(seen).count, "\(seen)")
        #expect(Set(seen) == Set(expected) && seen.count == expected.count)

        let first = try server.ask(#"{"op":"changes","since":"\#(v1)"}"#)
        let next = try #require(first["next"]?.string)
        #expect(try server.ask(#"{"op":"changes","since":"\#(v1)","cursor":"forged"}"#).errorCode == "bad_request")
        #expect(try server.ask(#"{"op":"changes","since":"\#(v1)","cursor":""}"#).errorCode == "bad_request")
        try publish(Self.first)
        _ = await server.service.startRefresh(force: false).report()
        let after = try server.ask(#"{"op":"changes","since":"\#(v1)","cursor":"\#(next)"}"#)
        #expect(after.errorCode == "gone" && after["error"]?["message"]?.string?.contains("first page") == true, "\(after)")
    }
}
