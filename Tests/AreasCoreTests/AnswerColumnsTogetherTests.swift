import Testing
@testable import AreasCore
@testable import AreasTestSupport
import AreasTestTraits

/// A laid-out index keeps what `near`, `radius` and `bbox` answers read together: the records
/// right before the text (whose answers' strings lead it), and the zones' footprints right
/// after the area tree, with the fields' lists after the text and the other trees after the
/// footprints. Checked on the columns as a writer is given them, told apart by where their
/// values lie in memory.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct AnswerColumnsTogetherTests {
    /// Where each column's values lie, in the order the layout gives the columns.
    struct ColumnOrder: FlatLayoutWriter {
        var starts: [UnsafeRawPointer?] = []

        mutating func number(_ value: UInt64) {}
        mutating func begin(_ part: FlatLayoutPart) {}
        mutating func column<Element: BitwiseCopyable>(_ column: Column<Element>) {
            starts.append(column.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) })
        }
    }

    static func start<Element>(of column: Column<Element>) -> UnsafeRawPointer? {
        column.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func theRecordsLeadTheTextAndTheFootprintsFollowTheTree() throws {
        let areas = SyntheticAreas.withUpstreamFields(3_000, source: "zones", seed: 11)
        let table = AreaTable(concatenating: [AreaTable(areas: areas)])
        let index = AreaIndex(table: table)
        #expect(index.footprints.packed.count == areas.count)
        #expect(LinearScan.answerTextComesFirst(in: index.areas))

        var order = ColumnOrder()
        index.write(to: &order)
        var tree = ColumnOrder()
        index.tree.write(to: &tree)
        let starts = order.starts
        let records = try #require(starts.firstIndex(of: Self.start(of: index.areas.records)))
        let text = try #require(starts.firstIndex(of: Self.start(of: index.areas.strings.bytes)))
        #expect(text == records + 1, "the text right after the records")
        // The fields' columns (values and key lists) come after the text, none between.
        for fields in [index.areas.fields.starts, index.areas.fields.lists, index.areas.fields.listStarts] {
            #expect(try #require(starts.firstIndex(of: Self.start(of: fields))) > text)
        }
        #expect(try #require(starts.firstIndex(of: Self.start(of: index.areas.fields.values))) > text)

        // The tree's columns are one run (found by its first, the entries' latitudes), and the
        // footprints come right after it.
        let treeStart = try #require(starts.firstIndex(of: tree.starts[0]))
        #expect(Array(starts[treeStart..<min(starts.count, treeStart + tree.starts.count)]) == tree.starts)
        let footprints = try #require(starts.firstIndex(of: Self.start(of: index.footprints.packed)))
        #expect(footprints == treeStart + tree.starts.count, "the footprints right after the area tree")
        #expect(try #require(starts.firstIndex(of: Self.start(of: index.smokingPositions))) > footprints)
        for band in index.footprints.bands {
            #expect(try #require(starts.firstIndex(of: Self.start(of: band.radii))) > footprints)
        }
    }
}
