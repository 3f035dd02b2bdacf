import Foundation
import Testing
@testable import AreasCore
@testable import AreasTestSupport
import AreasTestTraits

/// The footprint rule on the wordings district offices publish, each rule on both sides of its
/// edge, and `check` testing the footprint the rule drew.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct FootprintRuleTests {
    let policy = FootprintPolicy.standard

    /// The point `meters` due north of `point` (a meridian is a great circle).
    func north(of point: GeoPoint, meters: Double) -> GeoPoint {
        GeoPoint(uncheckedLatitude: point.latitude + meters / Geodesy.earthRadiusMeters * 180 / Double.pi, longitude: point.longitude)
    }

    /// The radius of a circle of `area` m².
    func circle(_ area: Double) -> Double { (area / Double.pi).squareRoot() }

    @Test(arguments: [
        ("10m", 10.0), ("10 m", 10), ("10미터", 10), ("반경 10미터이내", 10), ("50m이내", 50), ("１０ｍ 이내", 10), ("10 M", 10),
        ("버스승차대 좌우끝으로부터 반경 10미터이내", 10), ("학교출입문으로부터 50미터 이내", 50), ("출입구 5분 거리 20m", 20),
        ("1,000m 이내", 1000), ("2.5m", 2.5), ("10 meters", 10),
    ])
    func statedDistances(words: String, meters: Double) {
        #expect(ExtentWords(words).statedMeters == meters, "\(words)")
    }

    @Test(arguments: ["100㎡", "100m²", "100m2", "10mm", "1km", "시설전체", "제3호 시설", "", "   "])
    func wordsStatingNoDistance(words: String) {
        #expect(ExtentWords(words).statedMeters == nil, "\(words)")
    }

    @Test func distanceFromABoundaryAddsTheFacilitysRadius() {
        let fromBoundary = policy.footprint(words: "어린이집 시설경계로부터 10m 이내", zoneType: nil, size: "314.159")
        #expect(fromBoundary.basis == .stated)
        #expect(abs(fromBoundary.radiusMeters - (circle(314.159) + 10)) < 1e-9)
        #expect(policy.footprint(words: "건축물 외벽으로부터 10미터", zoneType: nil, size: "1256.6").radiusMeters == circle(1256.6) + 10)
        // Without a size, the boundary is the position itself.
        #expect(policy.footprint(words: "건물 경계로부터 10m", zoneType: nil, size: "").radiusMeters == 10)
        // From a stop or a gate: the distance alone, whatever the size.
        #expect(policy.footprint(words: "학교출입문으로부터 50미터 이내", zoneType: nil, size: "20000").radiusMeters == 50)
        // The boundary word after the number measures nothing.
        #expect(policy.footprint(words: "10m 이내 (건물 포함)", zoneType: nil, size: "1000").radiusMeters == 10)
    }

    @Test func schoolRoutes() {
        let route = policy.footprint(words: "초등학교 통학로", zoneType: "통학로", size: "150")
        #expect(route == ZoneFootprint(basis: .route, radiusMeters: 150, approximate: true))
        #expect(policy.footprint(words: "", zoneType: "보행로", size: "200m").radiusMeters == 200)
        #expect(policy.footprint(words: "어린이 보행로", zoneType: nil, size: "310").basis == .route)
        // A stated distance comes first.
        #expect(policy.footprint(words: "통학로 좌우 10m", zoneType: "통학로", size: "150") == ZoneFootprint(basis: .stated, radiusMeters: 10))
        // A route without a length: the default, its words read.
        let noLength = policy.footprint(words: "초등학교 통학로", zoneType: "통학로", size: "")
        #expect(noLength == ZoneFootprint(basis: .default, radiusMeters: 10))
    }

    @Test func wholeFacilities() {
        #expect(policy.footprint(words: "공원전체", zoneType: nil, size: "20000") == ZoneFootprint(basis: .size, radiusMeters: circle(20000)))
        #expect(policy.footprint(words: "건물 및 대지 전체", zoneType: nil, size: " 1,200 ").radiusMeters == circle(1200))
        #expect(policy.footprint(words: "부지", zoneType: nil, size: "1200㎡").radiusMeters == circle(1200))
        #expect(policy.footprint(words: "", zoneType: nil, size: "948").basis == .size)
        // Whole, but no size: the default, nothing misread.
        #expect(policy.footprint(words: "시설전체", zoneType: nil, size: nil) == ZoneFootprint(basis: .default, radiusMeters: 10))
    }

    @Test func wordsAndSizesNotUnderstoodAreSaid() {
        let around = policy.footprint(words: "지하철역 출입구 주변", zoneType: nil, size: "1000")
        #expect(around == ZoneFootprint(basis: .default, radiusMeters: 10, wordsNotUnderstood: true))
        for size in ["n/a", "-5", "0"] {
            #expect(policy.footprint(words: "", zoneType: nil, size: size) == ZoneFootprint(basis: .default, radiusMeters: 10, sizeNotUnderstood: true), "\(size)")
        }
        // A length is no area: outside a route it is not read.
        #expect(policy.footprint(words: "시설전체", zoneType: nil, size: "150m") == ZoneFootprint(basis: .default, radiusMeters: 10, sizeNotUnderstood: true))
    }

    @Test func everyRadiusIsClampedAndSaysSo() {
        #expect(policy.footprint(words: "476m 이내", zoneType: nil, size: nil) == ZoneFootprint(basis: .stated, radiusMeters: 300, clamped: true))
        #expect(policy.footprint(words: "2.5m", zoneType: nil, size: nil) == ZoneFootprint(basis: .stated, radiusMeters: 5, clamped: true))
        #expect(policy.footprint(words: "", zoneType: nil, size: "1") == ZoneFootprint(basis: .size, radiusMeters: 5, clamped: true))
        #expect(policy.footprint(words: "", zoneType: nil, size: "1000000000000") == ZoneFootprint(basis: .size, radiusMeters: 300, clamped: true))
        #expect(policy.footprint(words: "", zoneType: "통학로", size: "5000").radiusMeters == 300)
        // Just inside the limits: not clamped.
        #expect(policy.footprint(words: "300m", zoneType: nil, size: nil).clamped == false)
        #expect(policy.footprint(words: "5m", zoneType: nil, size: nil).clamped == false)
        let wide = FootprintPolicy(minimumMeters: 10, maximumMeters: 1000)
        #expect(wide.footprint(words: "476m 이내", zoneType: nil, size: nil).radiusMeters == 476)
    }

    @Test func eachSourceReadsItsOwnColumns() {
        let policy = FootprintPolicy(columns: ["xml": .dataGoKrXML, "mine": ZoneColumns(extent: "범위", zoneType: nil, size: "넓이")])
        func zone(_ source: String, _ fields: [Field]) -> Area {
            Area(id: "\(source):z", kind: .nonsmoking, name: "z", coordinate: GeoPoint(uncheckedLatitude: 37.5, longitude: 127), source: source, fields: fields)
        }
        #expect(policy.radius(of: zone("xml", [Field("prhsmkScopeDesc", "학교출입문으로부터 50미터 이내")])) == 50)
        #expect(policy.radius(of: zone("mine", [Field("범위", "반경 20m"), Field("prhsmkScopeDesc", "50m")])) == 20)
        #expect(policy.radius(of: zone("mine", [Field("넓이", "1256.6")])) == circle(1256.6))
        // A source without columns of its own reads the standard files' names, then the size field.
        #expect(policy.radius(of: zone("csv", [Field("금연구역범위상세", "10m 이내")])) == 10)
        #expect(policy.radius(of: zone("csv", [Field("prhsmkAr", "1256.6")])) == circle(1256.6))
        #expect(policy.radius(of: zone("csv", [Field("금연구역면적", "1256.6")])) == circle(1256.6))
    }

    /// A person 30 m from a school gate is inside the zone the law draws (50 m), and one 50.1 m
    /// away is not; likewise at the edge of every rule, against the distance itself.
    @Test func checkTestsTheFootprintTheRuleDrew() throws {
        let gate = GeoPoint(uncheckedLatitude: 37.55, longitude: 126.97)
        let cases: [(words: String, zoneType: String, size: String, radius: Double)] = [
            ("학교출입문으로부터 50미터 이내", "학교절대정화구역", "20000", 50),
            ("어린이집 시설경계로부터 10m 이내", "어린이놀이시설", "314.159", 20),
            ("초등학교 통학로", "통학로", "150", 150),
            ("공원전체", "도시공원", "20000", 79.79),
            ("지하철역 출입구 주변", "지하철역 출입구", "", 10),
        ]
        for (n, c) in cases.enumerated() {
            let zone = Area(id: "z:\(n)", kind: .nonsmoking, name: "zone \(n)", coordinate: gate, source: "z",
                            fields: [Field("금연구역범위상세", c.words), Field("금연구역구분", c.zoneType), Field("금연구역면적", c.size)])
            let index = AreaIndex(areas: [zone])
            let radius = index.footprintRadius(of: 0)
            #expect(abs(radius - c.radius) < 0.01, "\(c.words): \(radius)")
            for (offset, inside) in [(-0.05, true), (0.05, false)] {
                let point = north(of: gate, meters: radius + offset)
                #expect(abs(Geodesy.distance(gate, point) - (radius + offset)) < 0.001)
                #expect(try index.check(point).inside == inside, "\(c.words) at \(radius + offset) m")
            }
            #expect(try index.check(north(of: gate, meters: 30)).inside == (c.radius > 30))
            guard let (footprint, words) = index.footprint(of: 0) else {
                Issue.record("zone \(n) has no footprint")
                continue
            }
            #expect(index.areas.strings.string(words) == c.words)
            #expect(footprint.radiusMeters == radius)
        }
    }

    /// Zone words with a run of 4,000 digits (a hostile district file's 금연구역범위상세): read
    /// once, byte by byte, like any words; before, a number too long to be one was read again
    /// from each of its bytes (16 s of refresh CPU for 1,200 rows). Work counted in bytes read.
    @Test func aLongRunOfDigitsIsReadOnce() {
        func steps(_ text: String) -> (steps: Int, meters: Double?) {
            var text = text
            var steps = 0
            let found = text.withUTF8 { ExtentWords.firstDistance(in: $0, steps: &steps) }
            return (steps, found?.meters)
        }
        let hostile = String(repeating: "7", count: 4_000) + " 이내"
        let control = "반경 10m 이내"
        let (hostileSteps, hostileMeters) = steps(hostile)
        let (controlSteps, controlMeters) = steps(control)
        #expect(hostileMeters == nil && controlMeters == 10)
        #expect(hostileSteps <= 2 * hostile.utf8.count, "4,000 digits took \(hostileSteps) steps for \(hostile.utf8.count) bytes; \(control) \(controlSteps) for \(control.utf8.count)")
        // A real distance after the run is still found.
        #expect(steps(hostile + " 반경 10m").meters == 10)
        #expect(ExtentWords(hostile).statedMeters == nil && ZoneSize(String(repeating: "9", count: 400)) == .unreadable)
    }
}
