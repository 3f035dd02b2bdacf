import AreasCore
import AreasProtocol
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// The footprints a real daemon draws from the samples' own words, as its answers state them:
/// each of the eight wordings the samples publish against the radius the law gives it (worked
/// out here from the words, the size and the clamp, not by the daemon's rule), `check` inside a
/// school gate's 50 m where the size alone would say outside, and `sources` counting each basis.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct ZoneFootprintAnswersTests {
    /// The expected basis and radius of a sample zone from its words and its size column.
    static func expected(words: String, size: String) -> (basis: String, radius: Double, understood: Bool) {
        let area = Double(size)
        func clamp(_ r: Double) -> Double { min(max(r, 5), 300) }
        func circle(_ a: Double) -> Double { clamp((a / Double.pi).squareRoot()) }
        switch words {
        case "건물 및 대지 전체", "공원전체", "시설전체": return area.map { ("size", circle($0), true) } ?? ("default", 10, true)
        case "어린이집 시설경계로부터 10m 이내": return ("stated", clamp((area.map { ($0 / Double.pi).squareRoot() } ?? 0) + 10), true)
        case "버스승차대 좌우끝으로부터 반경 10미터이내": return ("stated", 10, true)
        case "학교출입문으로부터 50미터 이내": return ("stated", 50, true)
        case "초등학교 통학로": return area.map { ("route", clamp($0), true) } ?? ("default", 10, true)
        case "지하철역 출입구 주변": return ("default", 10, false)
        default: return ("unknown wording \(words)", 0, false)
        }
    }

    @Test func answersStateTheFootprintTheWordsGive() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        let all = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"kind":"nonsmoking"}"#))
        let zones = (all["areas"]?.array ?? []).filter { $0["source"]?.string == "nonsmoking-zones" }
        try #require(zones.count > 2000)
        var seen: [String: Int] = [:]
        var wordsNotUnderstood = 0
        for (n, zone) in zones.enumerated() {
            let id = try #require(zone["id"]?.string)
            let footprint = try #require(zone["footprint"], "\(id) has no footprint")
            let words = footprint["words"]?.string ?? ""
            // Every 7th zone, and every zone of a wording seen fewer than 20 times, checked in full.
            seen[words, default: 0] += 1
            guard seen[words, default: 0] <= 20 || n % 7 == 0 else { continue }
            let detail = try #require(DaemonQuestions.ask(daemon.socket, Request.get(id: id))?["areas"]?.array.first)
            let fields = detail["fields"]
            #expect(fields?["prhsmkScopeDesc"]?.string == words, "\(id): the words as published")
            let want = Self.expected(words: words, size: fields?["prhsmkAr"]?.string ?? "")
            #expect(footprint["basis"]?.string == want.basis, "\(id): \(words)")
            #expect(footprint["shape"]?.string == "circle")
            let radius = footprint["radiusMeters"]?.double ?? -1
            #expect(abs(radius - want.radius) <= 0.006, "\(id): \(words), size \(fields?["prhsmkAr"]?.string ?? ""): \(radius) m, want \(want.radius)")
            #expect((footprint["approximate"]?.bool == true) == (want.basis == "route"), "\(id)")
            #expect(detail["footprint"] == footprint, "get states the footprint a list does")
            if !want.understood { wordsNotUnderstood += 1 }
        }
        #expect(seen.keys.count == 8, "the samples publish eight wordings: \(seen.keys.sorted())")
        #expect(wordsNotUnderstood > 0)

        // `sources` counts the same footprints by basis.
        let sources = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"sources"}"#)?["sources"]?.array)
        let source = try #require(sources.first { $0["name"]?.string == "nonsmoking-zones" })
        let counts = try #require(source["footprints"])
        var byBasis: [String: Int] = [:]
        var notUnderstood = 0
        for zone in zones {
            byBasis[zone["footprint"]?["basis"]?.string ?? "", default: 0] += 1
            if zone["footprint"]?["words"]?.string == "지하철역 출입구 주변" { notUnderstood += 1 }
        }
        #expect(source["merged"]?.double == 0, "every zone of the source is served, so the counts are of the zones listed")
        for basis in ["shape", "stated", "route", "size", "default"] {
            #expect(counts[basis]?.double == Double(byBasis[basis, default: 0]), "\(basis): \(counts)")
        }
        #expect(counts["wordsNotUnderstood"]?.double == Double(notUnderstood))
        for basis in ["stated", "route", "size", "default"] { #expect(byBasis[basis, default: 0] > 0, "no sample zone rests on \(basis)") }
        // Smoking areas have no footprint.
        let smoking = try #require(sources.first { $0["kind"]?.string == "smoking" })
        #expect(smoking["footprints"] == .null)
    }

    /// 30 m north of a school's gate: inside the 50 m the words state, 20 m from the edge.
    @Test func checkIsInsideAGatesDistanceAndSaysHowFarToLeave() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        let all = try #require(DaemonQuestions.ask(daemon.socket, #"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"kind":"nonsmoking"}"#))
        let school = try #require((all["areas"]?.array ?? []).first {
            $0["footprint"]?["words"]?.string == "학교출입문으로부터 50미터 이내" && $0["source"]?.string == "nonsmoking-zones"
        })
        let gate = try GeoPoint(latitude: try #require(school["lat"]?.double), longitude: try #require(school["lon"]?.double))
        let id = try #require(school["id"]?.string)
        let north = try GeoPoint(latitude: gate.latitude + 30 / Geodesy.earthRadiusMeters * 180 / Double.pi, longitude: gate.longitude)
        let answer = try #require(DaemonQuestions.ask(daemon.socket, Request.check(point: north, region: Region())))
        let zone = try #require(answer["zones"]?.array.first { $0["id"]?.string == id }, "30 m from the gate is inside")
        #expect(answer["inside"]?.bool == true)
        #expect(zone["footprintMeters"]?.double == 50)
        #expect(abs((zone["edgeMeters"]?.double ?? 0) - 20) <= 0.02)
        #expect(abs((zone["distanceMeters"]?.double ?? 0) + (zone["edgeMeters"]?.double ?? 0) - 50) <= 0.011)
        let outside = try GeoPoint(latitude: gate.latitude + 50.05 / Geodesy.earthRadiusMeters * 180 / Double.pi, longitude: gate.longitude)
        let beyond = try #require(DaemonQuestions.ask(daemon.socket, Request.check(point: outside, region: Region())))
        #expect(!(beyond["zones"]?.array ?? []).contains { $0["id"]?.string == id }, "50.05 m from the gate is outside")
        // areasctl shows the walk to leave (and exits 1: inside).
        let run = try Binaries.run("areasctl", ["--socket", daemon.socket, "check", String(north.latitude), String(north.longitude)])
        #expect(run.status == 1 && run.stdout.contains("TO LEAVE") && run.stdout.contains("20 m"), "\(run.stdout.prefix(2000)) \(run.stderr)")
        let get = try Binaries.run("areasctl", ["--socket", daemon.socket, "get", id])
        #expect(get.stdout.contains("footprint") && get.stdout.contains("50 m circle, stated: \"학교출입문으로부터 50미터 이내\""), "\(get.stdout)")
    }
}
