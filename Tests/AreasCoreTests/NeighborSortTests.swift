import Foundation
import Testing
@testable import AreasCore
@testable import AreasTestSupport
import AreasTestTraits

/// The bucketed sort against the standard library's, on the shapes a radius query produces and
/// on ones it rarely does: crowds at one distance, a single far outlier, zeros.
@Suite(.offThePool, .timeLimit(.minutes(5)))
final class NeighborSortTests {
    @Test func matchesTheStandardSort() {
        var random = SplitMix64(seed: 61)
        for round in 0..<2_000 {
            let n = [0, 1, 2, 17, 25, 67, 150, 1_000][round % 8]
            var payloads = Array(0..<UInt32(n * 2))
            payloads.shuffle(using: &random)
            let neighbors: [PackedRTree.Neighbor] = (0..<n).map { i in
                let distance: Double
                switch round % 5 {
                case 0: distance = Double.random(in: 0...500, using: &random)                 // a disc
                case 1: distance = [0, 120.5, 120.5, 300][Int.random(in: 0..<4, using: &random)] // crowds
                case 2: distance = i == 0 ? 1e7 : Double.random(in: 0...1, using: &random)      // one outlier
                case 3: distance = 0
                default: distance = (Double.random(in: 0...1, using: &random)).squareRoot() * 2_000
                }
                return PackedRTree.Neighbor(payload: payloads[i], distanceMeters: distance)
            }
            let sorted = neighbors.withUnsafeBufferPointer { NeighborSort.sorted($0) }
            #expect(sorted == neighbors.sorted(), "round \(round), \(n) neighbours")
        }
    }

    /// A radius so small that its square underflows: bucketing then divides by zero, and the
    /// neighbours at distance 0 (zero times infinity) must still come out in payload order.
    @Test func radiusWhoseSquareUnderflows() {
        let payloads = (0..<UInt32(40)).map { ($0 * 7) % 40 }
        let neighbors = payloads.map { PackedRTree.Neighbor(payload: $0, distanceMeters: 0) }
        for farthest in [1e-200, .leastNormalMagnitude / 1024, .leastNonzeroMagnitude] {
            let sorted = neighbors.withUnsafeBufferPointer { NeighborSort.sorted($0, farthest: farthest) }
            #expect(sorted == neighbors.sorted(), "farthest \(farthest)")
        }
        let tree = PackedRTree(entries: Array(repeating: GeoBox(GeoPoint(uncheckedLatitude: 37.5, longitude: 127)), count: 40))
        let found = tree.search(within: 1e-200, of: GeoPoint(uncheckedLatitude: 37.5, longitude: 127))
        #expect(found.map(\.payload) == Array(0..<40))
    }
}
