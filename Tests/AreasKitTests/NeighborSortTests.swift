import XCTest
@testable import AreasKit

/// The bucketed sort against the standard library's, on the shapes a radius query produces and
/// on ones it rarely does: crowds at one distance, a single far outlier, zeros.
final class NeighborSortTests: XCTestCase {
    func testMatchesTheStandardSort() {
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
            XCTAssertEqual(sorted, neighbors.sorted(), "round \(round), \(n) neighbours")
        }
    }
}
