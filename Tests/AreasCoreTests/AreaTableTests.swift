import Foundation
import Testing
@testable import AreasCore
@testable import AreasTestSupport
import AreasTestTraits

@Suite(.offThePool, .timeLimit(.minutes(5)))
final class AreaTableTests {
    /// Areas with repeated, empty, long and non-ASCII strings and varying field lists.
    private func areas(_ count: Int, seed: UInt64) -> [Area] {
        var random = SplitMix64(seed: seed)
        let provinces = ["서울특별시", "부산광역시", "", "경기도"]
        return SyntheticPoints.clustered(count: count, seed: seed).enumerated().map { i, point in
            let long = String(repeating: "가", count: Int.random(in: 0..<3, using: &random) == 0 ? Int.random(in: 40...6_000, using: &random) : 0)
            let fields = (0..<Int.random(in: 0..<4, using: &random)).map { f in Field("k\(f)", f == 1 ? long : "\(i * f)") }
            return Area(
                id: "t:\(String(Int.random(in: 0..<count, using: &random), radix: 36))", kind: i % 3 == 0 ? .smoking : .nonsmoking,
                name: i % 5 == 0 ? "" : "흡연구역 \(i)\(long)", coordinate: point,
                roadAddress: i % 4 == 0 ? "" : "한강대로 \(i % 7)", lotAddress: i % 2 == 0 ? "지번 \(i % 3)" : "",
                province: provinces[i % provinces.count], district: i % 6 == 0 ? "용산구" : "중구",
                source: i % 2 == 0 ? "t" : "u", fields: fields)
        }
    }

    @Test func tableGivesBackEveryAreaAsStored() {
        let data = areas(2_000, seed: 3)
        let table = AreaTable(areas: data)
        #expect(Array(table) == data)
        #expect(AreaTable().count == 0)
        for position in table.indices.shuffled().prefix(300) {
            let area = data[position]
            #expect((table.id(at: position)) == area.id)
            #expect(table.strings.string(table.records[position].address) == area.address)
            for field in area.fields { #expect((table.field(field.key, of: position)) == area.field(field.key)) }
            #expect((table.field("absent", of: position)) == nil)
        }
        #expect(table.strings.byteCount == LinearScan.distinctStringBytes(of: data), "each distinct string stored once")
    }

    @Test func sortingByIDKeepsTheFirstOfEachRepeatedID() {
        let data = areas(3_000, seed: 5)
        var expected: [Area] = []
        for area in data.enumerated().sorted(by: { ($0.element.id, $0.offset) < ($1.element.id, $1.offset) }).map(\.element)
        where expected.last?.id != area.id {
            expected.append(area)
        }
        #expect(expected.count < data.count, "the data has repeated ids")
        let sorted = AreaTable(areas: data).sortedByID()
        #expect(Array(sorted) == expected)
        for (position, area) in expected.enumerated() { #expect((sorted.position(of: area.id)) == position) }
        for missing in ["", "t", "t:", "t:zzzzzz", "u:0", "s:0"] { #expect((sorted.position(of: missing)) == nil, Comment(rawValue: missing)) }
        let already = AreaTable(areas: expected)
        #expect(Array(already.sortedByID()) == expected)
    }

    /// Asked in increasing order, each from where the one before stopped, the galloping search
    /// finds what a search of the whole table finds: held ids and ids between them, the ends.
    @Test func gallopingFromTheLastPlaceFindsWhatAWholeSearchFinds() {
        let table = AreaTable(areas: areas(3_000, seed: 8)).sortedByID()
        var random = SplitMix64(seed: 9)
        for _ in 0..<20 {
            var asked = (0..<Int.random(in: 1...400, using: &random)).map { _ in
                Int.random(in: 0..<3, using: &random) == 0 ? "t:\(String(Int.random(in: 0..<6_000, using: &random), radix: 36))x" : table.id(at: Int.random(in: 0..<table.count, using: &random))
            }
            asked += ["", "t:", "zzz"]
            asked = Array(Set(asked)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var next = 0
            for id in asked {
                let found = table.position(of: id, from: next)
                #expect(found.position == table.position(of: id), "\(id)")
                #expect(found.next >= next && found.next <= table.count)
                next = found.position.map { $0 + 1 } ?? found.next
            }
        }
    }

    @Test(arguments: [true, false])
    func aBuilderBuildsInIDOrderAndIsLeftEmpty(withFields: Bool) {
        let data = areas(3_000, seed: 6).map { area in
            var area = area
            if !withFields { area.fields = [] }
            return area
        }
        var expected: [Area] = []
        for area in data.enumerated().sorted(by: { ($0.element.id, $0.offset) < ($1.element.id, $1.offset) }).map(\.element)
        where expected.last?.id != area.id {
            expected.append(area)
        }
        var builder = AreaTable.Builder(capacity: 0)
        for area in data.prefix(100) { builder.append(area) }
        builder.reserveCapacity(forRows: data.count)
        // An upstream total that cannot be true reserves a bounded amount and changes nothing.
        builder.reserveCapacity(forRows: Int.max)
        for area in data.dropFirst(100) { builder.append(area) }
        let sorted = builder.buildSortedByID()
        #expect(Array(sorted) == expected)
        #expect(builder.count == 0 && builder.strings.byteCount == 1, "the builder holds nothing once built")
        // Rows already in order come out as they are.
        for area in expected { builder.append(area) }
        #expect(Array(builder.buildSortedByID()) == expected)
    }

    @Test func concatenatedTablesReadAsTheirRowsInOrder() {
        let parts = [areas(700, seed: 11), [], areas(1, seed: 12), areas(1_500, seed: 13).map { area in
            var area = area
            area.fields = []
            return area
        }]
        let joined = AreaTable(concatenating: parts.map { AreaTable(areas: $0) })
        #expect(Array(joined) == parts.flatMap { $0 })
        #expect(Array(AreaTable(concatenating: [])) == [])
    }

    @Test func regionMatchesTheAreaModel() {
        let data = areas(1_000, seed: 8)
        let table = AreaTable(areas: data)
        let regions = [Region(), Region(province: "서울특별시"), Region(province: ""), Region(district: "용산구"),
                       Region(province: "경기도", district: "중구"), Region(province: "서울")]
        let names = RegionNames(table)
        for region in regions {
            let resolved = names.resolve(region)
            #expect((table.indices.filter { resolved.admits(table.records[$0]) }) == (data.indices.filter { region.contains(data[$0]) }), "\(region)")
        }
    }

    @Test func uTF8ValidationAgreesWithTheStandardLibrary() {
        var random = SplitMix64(seed: 21)
        // Bytes drawn mostly from the interesting ranges: lead bytes, continuations, ASCII.
        let alphabet: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xEA, 0xED,
                                 0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF]
        var invalid = 0
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...6, using: &random)).map { _ in
                Bool.random(using: &random) ? alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            if !expected { invalid += 1 }
            #expect(bytes.withUnsafeBufferPointer(StringArena.isValidUTF8) == expected, "\(bytes)")
        }
        #expect(invalid > 1_000)
        for text in ["", "ascii", "흡연구역", "😀 \u{10FFFF}"] {
            #expect(Array(text.utf8).withUnsafeBufferPointer(StringArena.isValidUTF8), Comment(rawValue: text))
        }
    }

    /// Interning against a dictionary: equal strings get one number, first-seen order, through
    /// many rehashes of the table.
    @Test func interningNumbersEachDistinctStringOnce() {
        var random = SplitMix64(seed: 61)
        var builder = StringArena.Builder()
        var oracle: [String: Int] = ["": 0]
        var order = [""]
        // Compared once at the end: an arena that interns nothing would otherwise record an
        // issue for most of the 50,000 strings.
        var mismatches: [(string: String, number: Int, expected: Int)] = []
        for _ in 0..<50_000 {
            let string = ["", "서울특별시", "a", String(Int.random(in: 0..<20_000, using: &random)),
                          "흡연구역 " + String(Int.random(in: 0..<5_000, using: &random)) + String(repeating: "가", count: Int.random(in: 0..<9, using: &random))]
                .randomElement(using: &random)!
            let expected = oracle[string] ?? {
                order.append(string)
                oracle[string] = order.count - 1
                return order.count - 1
            }()
            let number = builder.number(of: string)
            if number != expected { mismatches.append((string, number, expected)) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of 50,000 strings got another number; the first: \(mismatches.first.map { "\"\($0.string)\" \($0.number), not \($0.expected)" } ?? "")")
        let arena = builder.build()
        #expect(builder.refs.map(arena.string) == order)
        #expect(builder.intern("서울특별시") == builder.refs[oracle["서울특별시"]!])
    }

    @Test func invalidBytesAreStoredRepaired() {
        var builder = StringArena.Builder()
        let bytes: [UInt8] = [0x41, 0xFF, 0xED, 0xA0, 0x80, 0x42]
        let ref = bytes.withUnsafeBufferPointer { builder.append($0) }
        let arena = builder.build()
        #expect(arena.string(ref) == (String(decoding: bytes, as: UTF8.self)))
        #expect(arena.withUTF8(ref, StringArena.isValidUTF8))
        #expect(([UInt8]().withUnsafeBufferPointer { builder.append($0) }) == StringArena.empty)
    }
}
