import AreasTestSupport
import Testing
@testable import AreasCore
import AreasTestTraits

/// Every tree query against `LinearScan`, which looks at every point: same ids, same order,
/// over data sets chosen for the shapes that break spatial indexes.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct PackedRTreeTests {
    struct Dataset: Sendable, CustomTestStringConvertible {
        let name: String
        let points: [GeoPoint]
        let classes: [UInt8]
        /// Each data set's own stream of query points and sizes.
        let seed: UInt64
        var testDescription: String { "\(name) (\(points.count) points)" }
    }

    static let datasets: [Dataset] = {
        var random = SplitMix64(seed: 42)
        // Mostly one kind or the other; some in both, and some in none (never returned), so
        // leaves whose every entry is admitted and leaves that need each entry tested both occur.
        func classes(_ n: Int, someInNone: Bool = false) -> [UInt8] {
            (0..<n).map { _ in [1, 2, 1, 2, 1, 2, 3, someInNone ? 0 : 1][Int.random(in: 0..<8, using: &random)] }
        }
        let duplicates: [GeoPoint] = (0..<600).map { i in
            let spots = [(37.5, 127.0), (37.5, 127.001), (35.1, 129.0)]
            let spot = spots[i % spots.count]
            return GeoPoint(uncheckedLatitude: spot.0, longitude: spot.1)
        }
        let line: [GeoPoint] = (0..<1_500).map { i in GeoPoint(uncheckedLatitude: 36.0, longitude: 126.0 + Double(i) * 0.001) }
        let diagonal: [GeoPoint] = (0..<800).map { i in
            GeoPoint(uncheckedLatitude: 34.0 + Double(i) * 0.002, longitude: 126.0 + Double(i) * 0.002)
        }
        let uniform = SyntheticPoints.uniform(count: 4_000, seed: 1)
        let clustered = SyntheticPoints.clustered(count: 6_000, seed: 2)
        return [
            Dataset(name: "uniform", points: uniform, classes: classes(uniform.count, someInNone: true), seed: 1),
            Dataset(name: "clustered", points: clustered, classes: classes(clustered.count), seed: 2),
            Dataset(name: "duplicates", points: duplicates, classes: classes(duplicates.count), seed: 3),
            Dataset(name: "line", points: line, classes: classes(line.count), seed: 4),
            Dataset(name: "diagonal", points: diagonal, classes: classes(diagonal.count), seed: 5),
            Dataset(name: "single", points: [GeoPoint(uncheckedLatitude: 37.55, longitude: 126.97)], classes: [1], seed: 6),
            Dataset(name: "empty", points: [], classes: [], seed: 7),
        ]
    }()

    /// Half near the data, half anywhere around Korea.
    private static func queryPoint(_ data: Dataset, _ random: inout SplitMix64) -> GeoPoint {
        if !data.points.isEmpty && Bool.random(using: &random) {
            let p = data.points[Int.random(in: 0..<data.points.count, using: &random)]
            return GeoPoint(
                uncheckedLatitude: p.latitude + Double.random(in: -0.01...0.01, using: &random),
                longitude: p.longitude + Double.random(in: -0.01...0.01, using: &random))
        }
        return SyntheticPoints.point(in: .korea, using: &random)
    }

    /// All classes, each one alone, and one that matches nothing.
    private static let masks: [UInt8] = [0xFF, 1, 2, 4]

    @Test(arguments: datasets, [16, 4])
    func boxSearchMatchesBruteForce(data: Dataset, nodeSize: Int) {
        var random = SplitMix64(seed: 100 &+ data.seed &* 31 &+ UInt64(nodeSize))
        let tree = PackedRTree(entries: data.points.map(GeoBox.init), classes: data.classes, nodeSize: nodeSize)
        let scan = LinearScan(points: data.points, classes: data.classes)
        for q in 0..<600 {
            let center = Self.queryPoint(data, &random)
            var box = SyntheticPoints.box(around: center, fraction: [0.0, 0.000001, 0.0001, 0.01, 0.3][q % 5])
            if q % 7 == 0, let p = data.points.randomElement(using: &random) {
                // An edge exactly through a point: edges are inclusive.
                box = GeoBox(uncheckedSouth: p.latitude, west: Swift.min(box.west, p.longitude),
                             north: Swift.max(p.latitude, box.north), east: Swift.max(box.east, p.longitude))
            }
            if q % 11 == 0, let p = data.points.randomElement(using: &random) {
                box = GeoBox(p)  // a box of zero area on a point
            }
            let mask = Self.masks[q % Self.masks.count]
            let expected = scan.search(intersecting: box, classMask: mask)
            #expect(tree.search(intersecting: box, classMask: mask).sorted() == expected, "box \(box) mask \(mask)")
            let limited = tree.search(intersecting: box, classMask: mask, limit: 3)
            #expect(limited.count == Swift.min(3, expected.count))
            #expect(Set(limited).isSubset(of: Set(expected)))
        }
    }

    @Test(arguments: datasets)
    func radiusSearchMatchesBruteForce(data: Dataset) {
        var random = SplitMix64(seed: 200 &+ data.seed)
        let tree = PackedRTree(entries: data.points.map(GeoBox.init), classes: data.classes)
        let scan = LinearScan(points: data.points, classes: data.classes)
        for q in 0..<600 {
            let center = Self.queryPoint(data, &random)
            var meters = [0, 10, 500, 2_000, 20_000, 300_000][q % 6] * Double.random(in: 0.5...1.5, using: &random)
            if q % 5 == 0, let p = data.points.randomElement(using: &random) {
                meters = Geodesy.distance(center, p)  // a point exactly at the radius
            }
            if q % 13 == 0 { meters = 0 }
            let mask = Self.masks[q % Self.masks.count]
            let expected = scan.search(within: meters, of: center, classMask: mask)
            #expect(tree.search(within: meters, of: center, classMask: mask) == expected, "radius \(meters) at \(center)")
            #expect(tree.search(within: meters, of: center, classMask: mask, limit: 5) == Array(expected.prefix(5)))
        }
    }

    @Test(arguments: datasets, [16, 3])
    func nearestMatchesBruteForce(data: Dataset, nodeSize: Int) {
        var random = SplitMix64(seed: 300 &+ data.seed &* 31 &+ UInt64(nodeSize))
        let tree = PackedRTree(entries: data.points.map(GeoBox.init), classes: data.classes, nodeSize: nodeSize)
        let scan = LinearScan(points: data.points, classes: data.classes)
        for q in 0..<500 {
            let center = Self.queryPoint(data, &random)
            let k = [0, 1, 10, 100, data.points.count + 5][q % 5]
            var maxMeters: Double? = q % 3 == 0 ? [0, 300, 5_000][q % 9 / 3] : nil
            if q % 17 == 0, let p = data.points.randomElement(using: &random) {
                maxMeters = Geodesy.distance(center, p)
            }
            let mask = Self.masks[q % Self.masks.count]
            let expected = scan.nearest(to: center, k: k, maxMeters: maxMeters, classMask: mask)
            #expect(tree.nearest(to: center, k: k, maxMeters: maxMeters, classMask: mask) == expected,
                    "k=\(k) max=\(String(describing: maxMeters)) at \(center)")
        }
    }

    /// Rectangles among the entries switch the tree to its rectangle storage; the oracle
    /// measures to the nearest point of each rectangle.
    @Test(arguments: [16, 5])
    func rectangleEntriesMatchBruteForce(nodeSize: Int) {
        var random = SplitMix64(seed: 400 &+ UInt64(nodeSize))
        let centers = SyntheticPoints.clustered(count: 3_000, seed: 401)
        let boxes = centers.enumerated().map { i, center in
            i % 4 == 0 ? GeoBox(center) : SyntheticPoints.box(around: center, fraction: [1e-8, 1e-6, 1e-4][i % 3])
        }
        let classes: [UInt8] = boxes.indices.map { $0 % 3 == 0 ? 1 : 2 }
        let tree = PackedRTree(entries: boxes, classes: classes, nodeSize: nodeSize)
        for q in 0..<300 {
            let center = Bool.random(using: &random)
                ? centers[Int.random(in: 0..<centers.count, using: &random)]
                : SyntheticPoints.point(in: .korea, using: &random)
            let mask = Self.masks[q % Self.masks.count]
            let measured = boxes.indices.filter { classes[$0] & mask != 0 }.map {
                PackedRTree.Neighbor(payload: UInt32($0), distanceMeters: Geodesy.minimumDistance(from: center, to: boxes[$0]))
            }.sorted()
            let k = [1, 10, 50][q % 3]
            #expect(tree.nearest(to: center, k: k, classMask: mask) == Array(measured.prefix(k)), "nearest k=\(k) at \(center)")
            let meters = [0.0, 200, 3_000][q % 3]
            #expect(tree.search(within: meters, of: center, classMask: mask) == measured.filter { $0.distanceMeters <= meters },
                    "radius \(meters) at \(center)")
            let query = SyntheticPoints.box(around: center, fraction: [0, 1e-5, 1e-3][q % 3])
            let inside = boxes.indices.filter { classes[$0] & mask != 0 && boxes[$0].intersects(query) }.map(UInt32.init)
            #expect(tree.search(intersecting: query, classMask: mask).sorted() == inside, "bbox \(query)")
        }
    }

    @Test func tiesAtTheSameCoordinatesComeOutByPayload() {
        let spot = GeoPoint(uncheckedLatitude: 37.5, longitude: 127.0)
        let tree = PackedRTree(entries: Array(repeating: GeoBox(spot), count: 50), nodeSize: 4)
        let got = tree.nearest(to: spot, k: 7)
        #expect(got.map(\.payload) == [0, 1, 2, 3, 4, 5, 6])
        #expect(got.allSatisfy { $0.distanceMeters == 0 })
        #expect(tree.search(within: 0, of: spot).map(\.payload) == Array(0..<50))
    }

    @Test func anEmptyTreeAnswersNothing() {
        let tree = PackedRTree(entries: [])
        let p = GeoPoint(uncheckedLatitude: 37, longitude: 127)
        #expect(tree.count == 0)
        #expect(tree.nearest(to: p, k: 10) == [])
        #expect(tree.search(within: 1e6, of: p) == [])
        #expect(tree.search(intersecting: .korea) == [])
    }
}
