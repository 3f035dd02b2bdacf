import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits
@testable import AreasCore
@testable import AreasIngest
@testable import AreasProtocol
@testable import AreasServer
@testable import AreasControl

/// Answers a hostile data set could make huge, asked in process through the service, each
/// against a control of the same shape and size: every bound measured in bytes, not time.
@Suite(.offThePool, .timeLimit(.minutes(3)))
struct HostileAnswersTests {
    static let centre = GeoPoint(uncheckedLatitude: 37.5299, longitude: 126.9648)

    /// A service answering from `areas`, with `maxResults`.
    static func service(_ areas: [Area], maxResults: Int = 10_000) throws -> AreaService {
        let text = #"{"maxResults":\#(maxResults),"sources":[{"name":"z","kind":"nonsmoking","format":"data-go-kr-xml","pages":"/nonexistent"}]}"#
        let config = try AreasConfig.parse(Data(text.utf8), path: "hostile.json")
        let state = ServingState(.indexing(Catalog(areas: areas, fetchedAt: ["z": 1]), footprint: config.footprint), hasData: true,
                                 lastReport: nil, snapshotPath: "", builtAt: 1)
        return AreaService(config: config, state: state, snapshotPath: "/nonexistent", logger: Logger(threshold: .error, environment: [:], sink: { _ in }))
    }

    static func answer(_ service: AreaService, _ line: String) throws -> (bytes: Int, value: JSONValue) {
        var writer = JSONWriter(capacity: 4_096)
        Array(line.utf8).withUnsafeBufferPointer { service.respond(to: $0, peerUID: 0, view: service.view(), into: &writer) }
        let bytes = writer.bytes
        return (bytes.count, try JSONParser.parse(bytes))
    }

    /// Ten nested parks around one point, each a polygon of `vertices` vertices.
    static func parks(vertices: Int) -> [Area] {
        (0..<10).map { k in
            let radius = 50.0 + 20 * Double(k)
            let ring = (0..<vertices).map { i -> ShapeVertex in
                let angle = Double(i) / Double(vertices) * 2 * .pi
                return ShapeVertex(GeoPoint(uncheckedLatitude: centre.latitude + radius * sin(angle) / 111_195,
                                            longitude: centre.longitude + radius * cos(angle) / 111_195 / cos(centre.latitude * .pi / 180)))
            }
            return Area(id: "z:park\(k)", kind: .nonsmoking, name: "공원 \(k)", coordinate: centre, source: "z",
                        fields: [Field("금연구역범위상세", "공원 전체"), Field(ShapeText.fieldKey, ShapeText.encode(Shape(kind: .polygon, parts: [[ring]])))])
        }
    }

    /// A `check` inside ten nested parks of 99,998 vertices each answers in kilobytes, each
    /// park drawn simplified and said so; `get` gives one park whole. Before, 24.8 MB.
    @Test func shapesInListedAnswersAreDrawnWithinAnAllowance() throws {
        let hostile = try Self.service(Self.parks(vertices: 99_998))
        let control = try Self.service(Self.parks(vertices: 100))
        let line = #"{"op":"check","lat":37.5299,"lon":126.9648}"#
        let (hostileBytes, answer) = try Self.answer(hostile, line)
        let (controlBytes, controlAnswer) = try Self.answer(control, line)
        let zones = answer["zones"]?.array ?? []
        #expect(zones.count == 10 && controlAnswer["zones"]?.array.count == 10)
        #expect(hostileBytes <= 300_000, "check among ten parks of 99,998 vertices: \(hostileBytes) bytes; among parks of 100: \(controlBytes)")
        let simplified = zones.filter { $0["footprint"]?["simplified"]?.bool == true }
        #expect(simplified.count == 10, "every park drawn with fewer vertices says so")
        let drawn = zones.compactMap { $0["footprint"]?["geometry"]?["coordinates"]?.array.first?.array.count }
        #expect(drawn.reduce(0, +) <= ShapeAllowance.perAnswer + 10 && !drawn.isEmpty, "\(drawn)")
        #expect(controlAnswer["zones"]?.array.allSatisfy { $0["footprint"]?["simplified"] == nil } == true, "a small shape is drawn whole")
        // The same bound for the other listed answers and GeoJSON.
        for other in [#"{"op":"near","lat":37.5299,"lon":126.9648,"k":10}"#, #"{"op":"bbox","south":37.52,"west":126.95,"north":37.54,"east":126.98}"#,
                      #"{"op":"radius","lat":37.5299,"lon":126.9648,"meters":500}"#] {
            #expect(try Self.answer(hostile, other).bytes <= 300_000, "\(other)")
        }
        // `get` draws it whole.
        let (getBytes, got) = try Self.answer(hostile, #"{"op":"get","id":"z:park0"}"#)
        let whole = got["areas"]?.array.first?["footprint"]?["geometry"]?["coordinates"]?.array.first?.array.count
        #expect(whole == 99_999 && got["areas"]?.array.first?["footprint"]?["simplified"] == nil, "get: \(String(describing: whole)) positions, \(getBytes) bytes")
    }

    /// 30,000 school-route circles of 300 m around one point, `maxResults` 1,000: `check`
    /// says inside, lists the 1,000 nearest and says the list is cut, in as many bytes as a
    /// check among 1,000 zones. Before, all 30,000 (10.6 MB).
    @Test func checkListsAtMostMaxResultsZones() throws {
        func zones(_ count: Int) -> [Area] {
            (0..<count).map { i in
                Area(id: "z:" + String(i, radix: 36), kind: .nonsmoking, name: "학교 통학로 \(i)",
                     coordinate: GeoPoint(uncheckedLatitude: Self.centre.latitude + Double(i % 173) * 1e-6, longitude: Self.centre.longitude + Double(i / 173) * 1e-6),
                     source: "z", fields: [Field("prhsmkScopeDesc", "반경 300m 이내")])
            }
        }
        let line = #"{"op":"check","lat":37.5299,"lon":126.9648}"#
        let (manyBytes, many) = try Self.answer(try Self.service(zones(30_000), maxResults: 1_000), line)
        let (fewBytes, few) = try Self.answer(try Self.service(zones(1_000), maxResults: 1_000), line)
        #expect(many["inside"]?.bool == true && many["truncated"]?.bool == true && many["zones"]?.array.count == 1_000)
        #expect(few["truncated"]?.bool == false && few["zones"]?.array.count == 1_000, "\(few["truncated"] as Any) \(few["zones"]?.array.count as Any) \(few["summary"] as Any)")
        #expect(Double(manyBytes) <= 1.1 * Double(fewBytes), "30,000 zones: \(manyBytes) bytes; 1,000 zones: \(fewBytes)")
        // Nearest first: the listed zones are the nearest 1,000 of the 30,000.
        let distances = many["zones"]?.array.compactMap { $0["distanceMeters"]?.double } ?? []
        #expect(distances.count == 1_000 && distances == distances.sorted())
    }
}

/// `check` in words a person acts on: inside only a zone drawn from a route's length (its
/// course unpublished), the sentence says "probably" and why, and areasctl shows the footprint
/// as "about" its radius; inside a zone drawn as its publisher states it, it says no smoking.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct ApproximateZoneTests {
    @Test func aZoneDrawnFromARoutesLengthIsProbable() throws {
        let gate = GeoPoint(uncheckedLatitude: 37.5299, longitude: 126.9648)
        let route = Area(id: "z:route", kind: .nonsmoking, name: "초등학교 통학로", coordinate: gate, source: "z",
                         fields: [Field("prhsmkScopeDesc", "통학로"), Field("prhsmkSe", "통학로"), Field("prhsmkAr", "300")])
        let park = Area(id: "z:park", kind: .nonsmoking, name: "어린이공원", coordinate: GeoPoint(uncheckedLatitude: 37.5399, longitude: 126.9648), source: "z",
                        fields: [Field("prhsmkScopeDesc", "공원 경계로부터 10m 이내")])
        let service = try HostileAnswersTests.service([route, park])
        let (_, probable) = try HostileAnswersTests.answer(service, #"{"op":"check","lat":37.5299,"lon":126.9648}"#)
        #expect(probable["inside"]?.bool == true && probable["summary"]?.string?.hasPrefix("Probably no smoking here: inside 1 approximate non-smoking zone (초등학교 통학로: a route whose course is not published") == true,
                "\(probable["summary"] ?? .null)")
        let (_, firm) = try HostileAnswersTests.answer(service, #"{"op":"check","lat":37.5399,"lon":126.9648}"#)
        #expect(firm["summary"]?.string?.hasPrefix("No smoking here: inside 1 non-smoking zone (어린이공원)") == true, "\(firm["summary"] ?? .null)")
        // areasctl's table says the route's footprint is about its length.
        var writer = JSONWriter(capacity: 4_096)
        Array(#"{"op":"check","lat":37.5299,"lon":126.9648}"#.utf8).withUnsafeBufferPointer { service.respond(to: $0, peerUID: 0, view: service.view(), into: &writer) }
        guard case .object(let members) = try JSONParser.parse(writer.bytes) else { Issue.record("no answer object"); return }
        let shown = ResponseFormatter.check(ResponseFormatter.Object(members))
        #expect(shown.contains("about 300 m"), "\(shown)")
    }
}
