import Testing
@testable import AreasCore
@testable import AreasTestSupport
import AreasTestTraits

/// Areas' upstream columns are kept as each row's values and the number of its key list, each
/// distinct list once: rows published alike share one; the table gives back every field as
/// stored, through ordering, concatenation and a laid-out file, and a file whose lists do not
/// fit its rows is refused.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct FieldKeyListsTests {
    /// Rows as two sources publish them: zones with the same twelve columns, booths with three
    /// or four, and a few with none.
    static func areas(_ count: Int) -> [Area] {
        let zoneKeys = (0..<12).map { "항목\($0)" }
        return SyntheticPoints.clustered(count: count, seed: 12).enumerated().map { i, point in
            let fields: [Field] = switch i % 5 {
            case 0: []
            case 1, 2: zoneKeys.map { Field($0, "\($0) 값 \(i % 17)") }
            case 3: [Field("설치 위치", "부스 \(i)"), Field("관리기관", "용산구청"), Field("시설형태", "개방형")]
            default: [Field("설치 위치", "부스 \(i)"), Field("관리기관", "중구청"), Field("시설형태", "부스형"), Field("비고", i % 2 == 0 ? "" : "야간")]
            }
            return Area(id: "f:\(String(i * 7919 % count, radix: 36))-\(i)", kind: i % 5 < 3 ? .nonsmoking : .smoking, name: "구역 \(i)", coordinate: point,
                        province: "서울특별시", district: "용산구", source: i % 5 < 3 ? "zones" : "booths", fields: fields)
        }
    }

    @Test func rowsPublishedAlikeShareOneKeyList() {
        let data = Self.areas(5_000)
        let table = AreaTable(areas: data)
        let distinctLists = Set(data.map { $0.fields.map(\.key) })
        #expect(distinctLists.count == 4)
        #expect(table.fields.listStarts.count - 1 == distinctLists.count)
        #expect(table.fields.keys.count == distinctLists.reduce(0) { $0 + $1.count })
        let values = data.reduce(0) { $0 + $1.fields.count }
        #expect(table.fields.values.count == values)
        // Against a key beside every value: the keys are gone but for the lists, one number a row added.
        let pairsBytes = (data.count + 1) * 4 + 2 * values * 4
        #expect(table.fields.byteCount == pairsBytes - values * 4 + data.count * 4 + (distinctLists.count + 1) * 4 + table.fields.keys.count * 4)
        #expect(Array(table) == data)
        for position in stride(from: 0, to: data.count, by: 37) {
            for field in data[position].fields { #expect(table.field(field.key, of: position) == field.value) }
            #expect(table.field("없는 항목", of: position) == nil)
            var read: [Field] = []
            table.withBuffers { buffers in buffers.forEachField(of: position) { key, value in read.append(Field(String(decoding: key, as: UTF8.self), String(decoding: value, as: UTF8.self))) } }
            #expect(read == data[position].fields)
        }
    }

    @Test func orderingAndConcatenatingKeepEachRowsFields() {
        let data = Self.areas(3_000)
        let sorted = AreaTable(areas: data).sortedByID()
        var builder = AreaTable.Builder(capacity: 0)
        for area in data { builder.append(area) }
        let built = builder.buildSortedByID()
        let expected = data.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        #expect(Array(sorted) == expected && Array(built) == expected)
        let halves = [AreaTable(areas: data.prefix(1_000)), AreaTable(areas: data.dropFirst(1_000).filter { $0.fields.count != 3 })]
        let joined = AreaTable(concatenating: halves)
        #expect(Array(joined) == Array(data.prefix(1_000)) + data.dropFirst(1_000).filter { $0.fields.count != 3 })
        #expect(joined.fields.listStarts.count - 1 == 4 + 3, "each table's lists, one after the other")
    }

    @Test func aLayoutReadsBackAndOneWhoseListsDoNotFitIsRefused() throws {
        let table = AreaTable(areas: Self.areas(2_000)).sortedByID()
        var writer = ColumnsWriter()
        table.write(to: &writer)
        var reader = writer.reader()
        #expect(try AreaTable(reading: &reader) == table)
        // The columns after the arena and the records: value starts, key list numbers,
        // values, key list starts, keys.
        let (lists, listStarts) = (writer.columns.count - 4, writer.columns.count - 2)
        func refusal(_ change: (inout ColumnsWriter) -> Void) -> String {
            var hostile = writer
            change(&hostile)
            var reader = hostile.reader()
            do {
                _ = try AreaTable(reading: &reader)
                return "read"
            } catch {
                return error.reason
            }
        }
        func set(_ value: UInt32, at index: Int, of column: Int, in writer: inout ColumnsWriter) {
            withUnsafeBytes(of: value.littleEndian) { for (i, byte) in $0.enumerated() { writer.columns[column][4 * index + i] = byte } }
        }
        #expect(refusal { set(4, at: 1, of: lists, in: &$0) }.contains("is not one of the 4"))
        // A row of twelve values given the list of a row with none.
        let twelve = try #require(table.indices.first { table.fields.valueRange(of: $0).count == 12 })
        let none = try #require(table.indices.first { table.fields.valueRange(of: $0).isEmpty })
        #expect(refusal { set(table.fields.lists[none], at: twelve, of: lists, in: &$0) }.contains("area \(twelve)'s key list (\(table.fields.lists[none])) is not one of the 4 or not as long as its values"))
        #expect(refusal { set(UInt32.max, at: 2, of: listStarts, in: &$0) }.contains("the key lists"))
        #expect(refusal { set(3, at: 0, of: listStarts + 1, in: &$0) }.contains("field key reference (3) that starts no string"))
    }

    /// Formats before key lists stored each row's keys and values alternating: read into lists.
    @Test func fieldsStoredAsPairsAreReadIntoKeyLists() throws {
        let table = AreaTable(areas: Self.areas(2_000)).sortedByID()
        let data = Array(table)
        var writer = ColumnsWriter()
        table.write(to: &writer)
        var pairStarts: [UInt32] = [0]
        var pairs: [StringArena.Ref] = []
        table.withBuffers { buffers in
            for position in table.indices {
                buffers.forEachFieldRef(of: position) { pairs += [$0, $1] }
                pairStarts.append(UInt32(pairs.count / 2))
            }
        }
        writer.columns.removeLast(5)
        writer.columns.append(pairStarts.withUnsafeBytes { Array($0) })
        writer.columns.append(pairs.withUnsafeBytes { Array($0) })
        var reader = writer.reader()
        let read = try AreaTable(reading: &reader, keyedFields: false)
        #expect(Array(read) == data)
        #expect(read.fields.listStarts.count - 1 == 4)
        var odd = writer
        odd.columns[odd.columns.count - 1].removeLast(4)
        var oddReader = odd.reader()
        #expect(throws: FlatLayoutError("an odd number (\(pairs.count - 1)) of field references")) { try AreaTable(reading: &oddReader, keyedFields: false) }
    }
}
