import Testing
@testable import AreasCore
@testable import AreasTestSupport
import AreasTestTraits

/// A table's text lays the strings answers read (what records name) before those only the
/// upstream fields name, so that questions keep only that part of a mapped snapshot resident.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct AnswerTextFirstTests {
    static func answersComeFirst(_ table: AreaTable) -> Bool { LinearScan.answerTextComesFirst(in: table) }

    @Test func concatenationLaysEveryTablesAnswerTextFirst() {
        let parts = [SyntheticAreas.withUpstreamFields(900, source: "booths", seed: 1), [], SyntheticAreas.withUpstreamFields(2_500, source: "zones", seed: 2), SyntheticAreas.withUpstreamFields(3, source: "zz", seed: 3)]
        let tables = parts.map { AreaTable(areas: $0) }
        // Built row by row, each table interleaves its records' strings with its fields'.
        #expect(!Self.answersComeFirst(tables[2]))
        let text = tables.reduce(1) { $0 + max($1.strings.byteCount - 1, 0) }
        let joined = AreaTable(concatenating: tables)
        #expect(Array(joined) == parts.flatMap { $0 })
        #expect(Self.answersComeFirst(joined))
        #expect(joined.strings.byteCount == text, "every string copied once, none lost")
        for position in joined.indices.shuffled().prefix(300) {
            #expect(joined.field("위도", of: position) == String(joined.records[position].coordinate.latitude))
        }
    }

    @Test func aSingleTableIsLaidOutAgainOnlyWhenItNeedsTo() {
        let data = SyntheticAreas.withUpstreamFields(1_200, source: "zones", seed: 4)
        let interleaved = AreaTable(areas: data)
        let laidOut = AreaTable(concatenating: [interleaved])
        #expect(Array(laidOut) == data)
        #expect(Self.answersComeFirst(laidOut))
        #expect(laidOut.strings.bytes.storage !== interleaved.strings.bytes.storage)
        // Already answers first: handed back as it is, its text not copied.
        let again = AreaTable(concatenating: [laidOut])
        #expect(again.strings.bytes.storage === laidOut.strings.bytes.storage)
        #expect(Array(again) == data)
        // Records only, no field text: nothing to move.
        let plain = AreaTable(areas: data.map { area in
            var area = area
            area.fields = []
            return area
        })
        #expect(AreaTable(concatenating: [plain]).strings.bytes.storage === plain.strings.bytes.storage)
    }

    @Test func theMarksPlaceEachStringAsAStableSplitWould() {
        let table = AreaTable(areas: SyntheticAreas.withUpstreamFields(600, source: "zones", seed: 5))
        table.withBuffers { buffers in
            let marks = AnswerText(records: buffers.records, arena: buffers.arena)
            // The strings in arena order, split into the two kinds, each kind keeping its order.
            var starts: [Int] = []
            var offset = 1
            while offset < buffers.arena.count {
                starts.append(offset)
                offset = StringArena.end(of: StringArena.Ref(offset), in: buffers.arena)
            }
            let named = Set(buffers.records.flatMap { [$0.id, $0.name, $0.roadAddress, $0.lotAddress, $0.province, $0.district, $0.source] })
            var next = (answer: 1, field: 1 + marks.byteCount)
            for start in starts {
                let length = StringArena.end(of: StringArena.Ref(start), in: buffers.arena) - start
                let isNamed = named.contains(StringArena.Ref(start))
                #expect(marks.isAnswerText(start) == isNamed)
                #expect(Int(marks.moved(StringArena.Ref(start), answerBase: 1, fieldBase: 1 + marks.byteCount)) == (isNamed ? next.answer : next.field))
                if isNamed { next.answer += length } else { next.field += length }
            }
            #expect(next.answer == 1 + marks.byteCount)
            #expect(next.field == buffers.arena.count)
            #expect(marks.moved(StringArena.empty, answerBase: 9, fieldBase: 99) == StringArena.empty)
        }
    }
}
