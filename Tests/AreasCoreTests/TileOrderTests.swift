import Foundation
import Testing
@testable import AreasCore
@testable import AreasTestSupport
import AreasTestTraits

/// The packing order against what sort-tile-recursive must give on a square grid, where the
/// right tiles are known exactly, and its basic promise on ragged data: a permutation.
@Suite(.offThePool, .timeLimit(.minutes(5)))
final class TileOrderTests {
    /// 64 x 64 points, 16 to a node: every leaf must be a 4 x 4 block of the grid and every
    /// node above it a 16 x 16 block, whatever order the points came in.
    @Test func gridIsCutIntoSquareTiles() {
        var random = SplitMix64(seed: 7)
        var cells = (0..<64).flatMap { col in (0..<64).map { row in (col, row) } }
        cells.shuffle(using: &random)
        let x = cells.map { UInt16($0.0 * 1_000) }
        let y = cells.map { UInt16($0.1 * 1_000) }
        let order = TileOrder.order(x: x, y: y, nodeSize: 16)
        #expect(order.sorted() == ((0..<UInt32(cells.count)).map { $0 }))
        for (span, side) in [(16, 4), (256, 16)] {
            for start in stride(from: 0, to: order.count, by: span) {
                let group = order[start..<(start + span)].map { cells[Int($0)] }
                let cols = Set(group.map(\.0)), rows = Set(group.map(\.1))
                #expect(cols.count == side, "group of \(span) at \(start) spans \(cols.count) columns")
                #expect(rows.count == side, "group of \(span) at \(start) spans \(rows.count) rows")
                #expect((cols.max()! - cols.min()!) == (side - 1))
                #expect((rows.max()! - rows.min()!) == (side - 1))
            }
        }
    }

    /// Any count, node size and duplicates: every position exactly once.
    @Test func orderIsAPermutation() {
        var random = SplitMix64(seed: 8)
        for round in 0..<300 {
            let n = [0, 1, 2, 15, 16, 17, 255, 256, 257, 1_000, 5_000][round % 11]
            let nodeSize = [2, 3, 16, 100][round % 4]
            let x = (0..<n).map { _ in UInt16.random(in: 0...(round % 3 == 0 ? 3 : .max), using: &random) }
            let y = (0..<n).map { _ in UInt16.random(in: 0...(round % 5 == 0 ? 0 : .max), using: &random) }
            #expect((TileOrder.order(x: x, y: y, nodeSize: nodeSize).sorted()) == ((0..<UInt32(n)).map { $0 }), "round \(round)")
        }
    }
}
