import XCTest
@testable import AreasKit

/// The tree's locality rests on the curve being one: every cell visited once, each step to a
/// neighbouring cell.
final class HilbertCurveTests: XCTestCase {
    func testFirstCellsTraceAUnitStepPathOverACornerSquare() {
        // The first 4^8 positions of a curve of order 16 fill one 256 × 256 corner square.
        let side = 256
        var cellAt = [Int](repeating: -1, count: side * side)
        for x in 0..<side {
            for y in 0..<side {
                let d = Int(HilbertCurve.index(x: UInt32(x), y: UInt32(y)))
                XCTAssertLessThan(d, side * side, "(\(x), \(y)) lies beyond the corner square's run")
                guard d < side * side else { return }
                XCTAssertEqual(cellAt[d], -1, "position \(d) visited twice")
                cellAt[d] = x * side + y
            }
        }
        for d in 1..<(side * side) {
            let (x0, y0) = (cellAt[d - 1] / side, cellAt[d - 1] % side)
            let (x1, y1) = (cellAt[d] / side, cellAt[d] % side)
            XCTAssertEqual(abs(x1 - x0) + abs(y1 - y0), 1, "step \(d) jumps from (\(x0), \(y0)) to (\(x1), \(y1))")
        }
    }

    func testWholeGridIsOneBijectionAtItsCorners() {
        let last = HilbertCurve.side - 1
        let corners = [(0, 0), (0, last), (last, 0), (last, last)].map { HilbertCurve.index(x: $0.0, y: $0.1) }
        XCTAssertEqual(Set(corners).count, 4)
        // The curve starts at one corner and ends at an adjacent one.
        XCTAssertTrue(corners.contains(0))
        XCTAssertTrue(corners.contains(UInt32.max))
    }

    func testStepsStayUnitLengthAcrossTheGrid() {
        // Random stretches anywhere in the grid: neighbours on the curve are neighbours in the plane.
        var random = SplitMix64(seed: 5)
        var byIndex: [UInt32: (Int, Int)] = [:]
        for _ in 0..<200 {
            let x0 = Int.random(in: 0..<Int(HilbertCurve.side) - 64, using: &random) & ~63
            let y0 = Int.random(in: 0..<Int(HilbertCurve.side) - 64, using: &random) & ~63
            byIndex.removeAll(keepingCapacity: true)
            // A 64 × 64 block aligned to 64 is one contiguous run of the curve.
            for x in x0..<(x0 + 64) {
                for y in y0..<(y0 + 64) { byIndex[HilbertCurve.index(x: UInt32(x), y: UInt32(y))] = (x, y) }
            }
            XCTAssertEqual(byIndex.count, 64 * 64)
            let indices = byIndex.keys.sorted()
            XCTAssertEqual(indices.last! - indices.first!, 64 * 64 - 1, "an aligned block is not one run")
            for (previous, next) in zip(indices, indices.dropFirst()) {
                let (a, b) = (byIndex[previous]!, byIndex[next]!)
                XCTAssertEqual(abs(a.0 - b.0) + abs(a.1 - b.1), 1)
            }
        }
    }
}
