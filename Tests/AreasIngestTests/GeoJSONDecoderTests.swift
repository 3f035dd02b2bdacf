import AreasCore
import Foundation
import Testing
@testable import AreasIngest
@testable import AreasTestSupport
import AreasTestTraits

/// The GeoJSON reader on every geometry type and on what a hostile or careless file holds: each
/// bad feature refused with its own reason while the rest are read, a file that is no
/// FeatureCollection refused with where and why, and a feature of 300,000 vertices refused
/// without being stored.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct GeoJSONDecoderTests {
    static func collection(_ features: [String]) -> [UInt8] {
        Array(#"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#.utf8)
    }

    static func feature(_ name: String, _ geometry: String) -> String {
        #"{"type": "Feature", "properties": {"name": "\#(name)", "n": 12.5, "none": null, "deep": {"a": [1]}}, "geometry": \#(geometry)}"#
    }

    static let square = "[[127.0, 37.5], [127.001, 37.5], [127.001, 37.501], [127.0, 37.501], [127.0, 37.5]]"
    static let hole = "[[127.0004, 37.5004], [127.0004, 37.5006], [127.0006, 37.5006], [127.0006, 37.5004], [127.0004, 37.5004]]"

    func rows(_ body: [UInt8]) throws -> [[Field]] { try GeoJSONDecoder().decode(body).records }

    @Test func everyGeometryType() throws {
        let records = try rows(Self.collection([
            Self.feature("point", #"{"type": "Point", "coordinates": [127.0, 37.5, 12.0]}"#),
            Self.feature("points", #"{"coordinates": [[127.0, 37.5], [127.1, 37.6]], "type": "MultiPoint"}"#),
            Self.feature("line", #"{"type": "LineString", "coordinates": [[127.0, 37.5], [127.001, 37.5], [127.002, 37.501]]}"#),
            Self.feature("lines", #"{"type": "MultiLineString", "coordinates": [[[127.0, 37.5], [127.001, 37.5]], [[127.0, 37.6], [127.0, 37.601]]]}"#),
            Self.feature("park", #"{"type": "Polygon", "coordinates": [\#(Self.square), \#(Self.hole)]}"#),
            Self.feature("parks", #"{"type": "MultiPolygon", "coordinates": [[\#(Self.square)], [[[127.01, 37.5], [127.011, 37.5], [127.011, 37.501], [127.01, 37.5]]]]}"#),
        ]))
        #expect(records.count == 7)
        func value(_ key: String, _ row: [Field]) -> String? { row.first { $0.key == key }?.value }
        #expect(records.map { value("name", $0) } == ["point", "points", "points", "line", "lines", "park", "parks"])
        #expect(value("n", records[0]) == "12.5" && value("none", records[0]) == "" && value("deep", records[0]) == "")
        #expect(value(GeoJSONDecoder.positionKey, records[0]) == "37.5, 127.0")
        #expect(value(GeoJSONDecoder.positionKey, records[2]) == "37.6, 127.1")
        #expect(value(ShapeText.fieldKey, records[0]) == nil, "a point has no shape")
        let park = try #require(value(ShapeText.fieldKey, records[5]).flatMap(ShapeText.decode))
        #expect(park.kind == .polygon && park.parts.count == 1 && park.parts[0].count == 2 && park.parts[0][0].count == 4, "rings kept, not closed")
        // Served at a point inside the park and outside its hole.
        let served = try #require(value(GeoJSONDecoder.positionKey, records[5])?.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) })
        let at = GeoPoint(uncheckedLatitude: served[0], longitude: served[1])
        var held = false
        ShapeIndex([(0, park, 0)]).forEach(holding: at) { _ in held = true }
        #expect(held)
        let parks = try #require(value(ShapeText.fieldKey, records[6]).flatMap(ShapeText.decode))
        #expect(parks.parts.count == 2)
        let lines = try #require(value(ShapeText.fieldKey, records[4]).flatMap(ShapeText.decode))
        #expect(lines.kind == .line && lines.parts.count == 2)
    }

    @Test func eachBadFeatureIsRefusedWithItsReasonAndTheRestRead() throws {
        let bad: [(String, RecordValidator.Rejection)] = [
            (#"{"type": "Polygon", "coordinates": [[[127.0, 37.5], [127.001, 37.5], [127.001, 37.501], [127.0, 37.501]]]}"#, .ringNotClosed),
            (#"{"type": "Polygon", "coordinates": [\#(Self.square), [[127.003, 37.5], [127.003, 37.501], [127.004, 37.501], [127.003, 37.5]]]}"#, .holeOutsideShell),
            (#"{"type": "Polygon", "coordinates": [[[127.0, 37.5], [127.001, 37.501], [127.002, 37.502], [127.001, 37.501], [127.0, 37.5]]]}"#, .noArea),
            (#"{"type": "Polygon", "coordinates": [[[127.0, 37.5], [127.1, 37.5], [127.0, 37.5]]]}"#, .tooFewPositions),
            (#"{"type": "LineString", "coordinates": [[127.0, 37.5]]}"#, .tooFewPositions),
            (#"{"type": "Point", "coordinates": [NaN, 37.5]}"#, .notFinite),
            (#"{"type": "Point", "coordinates": [1e999, 37.5]}"#, .notFinite),
            (#"{"type": "Point", "coordinates": [127.0, 95.0]}"#, .outsideTheGlobe),
            (#"{"type": "Point", "coordinates": [127.0]}"#, .noGeometry),
            (#"{"type": "GeometryCollection", "geometries": []}"#, .noGeometry),
            (#"{"type": "Polygon", "coordinates": "here"}"#, .noGeometry),
            ("null", .noGeometry),
        ]
        let body = Self.collection(bad.enumerated().map { Self.feature("bad \($0)", $1.0) } + [Self.feature("good", #"{"type": "Point", "coordinates": [127.0, 37.5]}"#)])
        let records = try rows(body)
        #expect(records.count == bad.count + 1)
        for (i, (_, reason)) in bad.enumerated() {
            #expect(records[i].first { $0.key == GeoJSONDecoder.rejectionKey }?.value == reason.rawValue, "feature \(i)")
        }
        #expect(!records[bad.count].contains { $0.key == GeoJSONDecoder.rejectionKey })
        // Through the validator: counted by reason, and no field of this build's own is kept.
        let source = SourceConfig(name: "parks", kind: .nonsmoking, format: .geojson, location: .file("/dev/null"), serviceKeyEnv: nil, pageSize: 1,
                                  fields: FieldMapping(name: "name", latitude: GeoJSONDecoder.positionKey, longitude: GeoJSONDecoder.positionKey),
                                  concurrency: 1, timeoutSeconds: 1, retries: 0, retryDelaySeconds: 0, maxPages: 1, maxShrink: 1, province: nil)
        let validator = RecordValidator(source: source, bounds: .korea)
        for (i, record) in records.enumerated() {
            switch validator.validate(record) {
            case .rejected(let reason): #expect(i < bad.count && reason == bad[i].1, "feature \(i)")
            case .accepted(let area, _):
                #expect(i == bad.count)
                #expect(!area.fields.contains { $0.key.hasPrefix("\u{1}") })
            case .unplaced: Issue.record("feature \(i) asked for a geocoder")
            }
        }
    }

    @Test func aZoneAroundTheWholeCountryIsRefused() throws {
        let country = #"{"type": "Polygon", "coordinates": [[[124.5, 33.5], [131.5, 33.5], [131.5, 38.5], [124.5, 38.5], [124.5, 33.5]]]}"#
        let records = try rows(Self.collection([Self.feature("korea", country)]))
        let source = SourceConfig(name: "parks", kind: .nonsmoking, format: .geojson, location: .file("/dev/null"), serviceKeyEnv: nil, pageSize: 1,
                                  fields: FieldMapping(name: "name", latitude: GeoJSONDecoder.positionKey, longitude: GeoJSONDecoder.positionKey),
                                  concurrency: 1, timeoutSeconds: 1, retries: 0, retryDelaySeconds: 0, maxPages: 1, maxShrink: 1, province: nil)
        guard case .rejected(.tooWide) = RecordValidator(source: source, bounds: .korea).validate(records[0]) else {
            Issue.record("a zone around the whole country was taken")
            return
        }
    }

    @Test func aFeatureOfTooManyVerticesIsRefusedUnstored() throws {
        var ring = (0..<300_000).map { i -> String in
            let angle = Double(i) / 300_000 * 2 * Double.pi
            return "[\(127 + 0.01 * cos(angle)), \(37.5 + 0.01 * sin(angle))]"
        }
        ring.append(ring[0])
        let body = Self.collection([Self.feature("huge", #"{"type": "Polygon", "coordinates": [[\#(ring.joined(separator: ","))]]}"#),
                                    Self.feature("small", #"{"type": "Point", "coordinates": [127.0, 37.5]}"#)])
        let records = try rows(body)
        #expect(records.count == 2)
        #expect(records[0].first { $0.key == GeoJSONDecoder.rejectionKey }?.value == RecordValidator.Rejection.tooManyVertices.rawValue)
        #expect(records[0].reduce(0) { $0 + $1.value.utf8.count } < 1_000, "nothing of the shape is kept")
    }

    @Test(arguments: [
        ("", "not a JSON object"),
        ("[1, 2]", "not a JSON object"),
        (#"{"type": "Feature", "features": []}"#, "not a FeatureCollection"),
        (#"{"type": "FeatureCollection"}"#, "without \"features\""),
        (#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]"#, "ends"),
        (#"{"type": "FeatureCollection", "features": [{"properties": {"a": tru}}]}"#, "expected true"),
        (#"{"type": "FeatureCollection", "features": [{"properties": {"a": \#(String(repeating: "[", count: 10_000))}}]}"#, "nested more than 64 deep"),
    ])
    func aFileThatIsNoFeatureCollectionIsRefusedSayingWhy(text: String, says: String) {
        do {
            _ = try GeoJSONDecoder().decode(Array(text.utf8))
            Issue.record("read: \(text.prefix(80))")
        } catch {
            #expect("\(error)".contains(says), "\(error)")
            #expect("\(error)".contains("invalid GeoJSON at byte"))
        }
    }
}
