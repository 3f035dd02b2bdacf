import AreasCore
import AreasProtocol
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// `AreaSchema` against what a real daemon writes: on the overlapping samples with the
/// operator's overrides (merged, overridden and dated areas), every area of every answer that
/// carries areas has only members the schema names, in its order, each where its presence
/// says; and `areasctl get` shows each member the area has.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct AreaSchemaTests {
    static func memberNames(_ area: JSONValue) -> [String] {
        guard case .object(let members) = area else { return [] }
        return members.map(\.0)
    }

    /// Checks one area's members; `detailed` for `get`, `distance` when the question had a point.
    static func check(_ area: JSONValue, detailed: Bool, distance: Bool, byTheAnswer: Set<String> = [], _ context: String) {
        let names = memberNames(area)
        let positions = names.compactMap { name in AreaSchema.members.firstIndex { $0.key.name == name } }
        #expect(positions.count == names.count, "\(context): members the schema lacks: \(names.filter { AreaSchema.member(named: $0) == nil })")
        #expect(positions == positions.sorted(), "\(context): out of the schema's order: \(names)")
        for member in AreaSchema.members {
            let present = names.contains(member.key.name)
            switch member.presence {
            case .always: #expect(present, "\(context): \(member.key.name) is missing")
            case .whenSet: break
            case .withQueryPoint: #expect(present == distance, "\(context): \(member.key.name)")
            case .detailedWhenSet: if !detailed { #expect(!present, "\(context): \(member.key.name)") }
            case .detailedOnly: #expect(present == detailed, "\(context): \(member.key.name)")
            case .byTheAnswer: #expect(present == byTheAnswer.contains(member.key.name), "\(context): \(member.key.name)")
            }
        }
    }

    @Test func everyAreaOfEveryAnswerFollowsTheSchema() throws {
        let daemon = try SampleDaemon(bundled: "config/areasd.overlap.json", overrides: true)
        defer { daemon.stop() }
        let all = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132}"#))
        let areas = all["areas"]?.array ?? []
        try #require(!areas.isEmpty)
        // The samples hold what the optional members describe, so their presence is tested too.
        for key in ["sources", "overridden", "referenceDate", "footprint"] {
            #expect(areas.contains { $0[key] != nil }, "no sample area has \(key)")
        }
        for area in areas { Self.check(area, detailed: false, distance: false, "bbox") }
        let point = (lat: areas[0]["lat"]?.double ?? 0, lon: areas[0]["lon"]?.double ?? 0)
        for area in DaemonQuestions.ask(daemon.socket, #"{"op":"near","lat":\#(point.lat),"lon":\#(point.lon),"k":50}"#)?["areas"]?.array ?? [] {
            Self.check(area, detailed: false, distance: true, "near")
        }
        let route = #"{"op":"along","path":[[\#(point.lat),\#(point.lon)],[\#(point.lat + 0.01),\#(point.lon + 0.01)]],"meters":2000}"#
        let routed = DaemonQuestions.ask(daemon.socket, route)?["areas"]?.array ?? []
        #expect(!routed.isEmpty)
        for area in routed { Self.check(area, detailed: false, distance: false, byTheAnswer: ["alongMeters", "sideMeters"], "along") }
        for area in areas {
            let id = try #require(area["id"]?.string)
            let got = try #require(DaemonQuestions.ask(daemon.socket, Request.get(id: id)))
            guard let detail = got["areas"]?.array.first else { continue }  // hidden by an override
            Self.check(detail, detailed: true, distance: false, "get \(id)")
        }
        let check = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"check","lat":\#(point.lat),"lon":\#(point.lon)}"#))
        for zone in check["zones"]?.array ?? [] { Self.check(zone, detailed: false, distance: true, byTheAnswer: ["footprintMeters", "edgeMeters"], "check zone") }
        if let nearest = check["nearestSmoking"], nearest != .null {
            Self.check(nearest, detailed: false, distance: true, byTheAnswer: ["bearingDegrees", "direction"], "check nearestSmoking")
        }
    }

    @Test func getShowsEveryMemberTheAreaHas() throws {
        let daemon = try SampleDaemon(bundled: "config/areasd.overlap.json", overrides: true)
        defer { daemon.stop() }
        let all = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132}"#))
        // A merged, dated area: `get` must show its date, its sources and what it was merged from.
        let merged = try #require((all["areas"]?.array ?? []).first { $0["sources"] != nil && $0["referenceDate"] != nil })
        let id = try #require(merged["id"]?.string)
        let detail = try #require(DaemonQuestions.ask(daemon.socket, Request.get(id: id))?["areas"]?.array.first)
        let run = try Binaries.run("areasctl", ["--socket", daemon.socket, "get", id])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = run.stdout.split(separator: "\n").map(String.init)
        for member in AreaSchema.members where member.key != .fields && member.key != .records {
            guard let value = detail[member.key.name], value != .string("") else { continue }
            #expect(rows.contains { $0.hasPrefix(member.key.name + " ") }, "get shows no \(member.key.name):\n\(run.stdout)")
        }
        #expect(run.stdout.contains("merged from:"))
        for record in detail["records"]?.array ?? [] {
            let recordID = try #require(record["id"]?.string)
            #expect(rows.contains { $0.contains(recordID) }, "\(recordID) is not among the records shown:\n\(run.stdout)")
        }
    }

    /// The map page's script reads areas only by members the schema names: every `a.NAME` (the
    /// script's name for an area, in lists and details alike) is one.
    @Test func theMapPageReadsOnlyMembersTheSchemaNames() throws {
        let script = String(decoding: try Fixtures.bytes("Sources/AreasServer/Map/Page/map.js"), as: UTF8.self)
        let pattern = try NSRegularExpression(pattern: #"(?<![\w.])a\.([A-Za-z_]\w*)"#)
        let names = Set(pattern.matches(in: script, range: NSRange(script.startIndex..., in: script)).compactMap { match in
            Range(match.range(at: 1), in: script).map { String(script[$0]) }
        })
        #expect(names.count >= 5, "the script reads areas as `a`: \(names.sorted())")
        let unknown = names.filter { AreaSchema.member(named: $0) == nil }
        #expect(unknown.isEmpty, "map.js reads members the schema lacks: \(unknown.sorted())")
    }
}
