@testable import AreasCore
import AreasTestSupport
import Foundation
import Testing

/// `search` against an oracle that reads every area: the same areas for every query, in the
/// order its rules give; the folding that lets two writings of a name match; the index laid
/// out and read back; and the questions too broad to answer.
@Suite struct SearchTests {
    /// Names and addresses shaped as the data's are: districts, stations and exits, parks,
    /// road and lot addresses, a few Latin and full-width letters, some merged records.
    static let areas: [Area] = {
        var random = SplitMix64(seed: 47)
        let districts = [("서울특별시", "용산구"), ("서울특별시", "중구"), ("서울특별시", "강남구"), ("부산광역시", "해운대구"), ("경기도", "안양시 동안구")]
        let places = ["서울역 광장", "이태원역", "강남역", "해운대 해수욕장", "용산 가족공원", "남산 공원", "역삼동 주민센터", "KT 강남지사", "ＳＫ 빌딩", "어린이 놀이터(308동)"]
        let roads = ["한강대로", "이태원로", "테헤란로", "해운대해변로", "평화로"]
        var areas: [Area] = []
        for i in 0..<3_000 {
            let (province, district) = districts[Int.random(in: 0..<districts.count, using: &random)]
            let place = places[Int.random(in: 0..<places.count, using: &random)]
            let name = Int.random(in: 0..<4, using: &random) == 0 ? place : "\(district) \(place) \(Int.random(in: 1...12, using: &random))번출구"
            let road = Int.random(in: 0..<5, using: &random) == 0 ? "" : "\(province) \(district) \(roads[Int.random(in: 0..<roads.count, using: &random)]) \(Int.random(in: 1...300, using: &random))"
            let lot = "\(province) \(district) \(["한강로2가", "이태원동", "역삼동", "우동"][Int.random(in: 0..<4, using: &random)]) \(Int.random(in: 1...999, using: &random))-\(Int.random(in: 1...9, using: &random))"
            areas.append(Area(id: "s\(i % 3):\(String(i, radix: 16))", kind: i % 4 == 0 ? .smoking : .nonsmoking, name: name,
                              coordinate: GeoPoint(uncheckedLatitude: 35 + Double.random(in: 0...3, using: &random), longitude: 126.5 + Double.random(in: 0...3, using: &random)),
                              roadAddress: road, lotAddress: lot, province: province, district: district, source: "s\(i % 3)"))
        }
        return areas
    }()
    static let index = AreaIndex(areas: areas, merge: MergePolicy(meters: 30, priority: ["s0", "s1", "s2"]))
    /// Each record's name, road and lot address, folded once for the oracle.
    static let folded: [(name: [UInt32], road: [UInt32], lot: [UInt32])] = index.areas.indices.map { position in
        let area = index.areas[position]
        return (SearchText.fold(area.name), SearchText.fold(area.roadAddress), SearchText.fold(area.lotAddress))
    }

    /// What a search must answer, found by reading every served area: every word in the name
    /// or an address, ranked exact, prefix, name, address, then by distance, then by id.
    static func oracle(_ query: String, near point: GeoPoint?, kind: KindFilter = .all) -> [AreaIndex.SearchMatch] {
        let words = SearchText.words(of: query)
        let whole = words.flatMap { $0 }
        var found: [AreaIndex.SearchMatch] = []
        for position in index.areas.indices where index.isServed(position) {
            let record = index.areas.records[position]
            guard kind == .all || kind.rawValue == record.kind.rawValue else { continue }
            let (name, road, lot) = folded[position]
            func holds(_ text: [UInt32], _ word: [UInt32]) -> Bool {
                guard text.count >= word.count else { return false }
                return (0...(text.count - word.count)).contains { text[$0..<($0 + word.count)].elementsEqual(word) }
            }
            guard !words.isEmpty, words.allSatisfy({ holds(name, $0) || holds(road, $0) || holds(lot, $0) }) else { continue }
            let rank: AreaIndex.SearchMatch.Rank = !words.allSatisfy({ holds(name, $0) }) ? .address
                : name == whole ? .exactName : name.starts(with: whole) ? .namePrefix : .name
            found.append(.init(position: position, rank: rank, distanceMeters: point.map { Geodesy.distance($0, record.coordinate) }))
        }
        return ordered(found, near: point)
    }

    /// The order the README promises, written out here rather than borrowed from the code's
    /// `Rank`: the exact name, then a name that begins with the query, other names, addresses.
    static func tier(_ rank: AreaIndex.SearchMatch.Rank) -> Int {
        switch rank {
        case .exactName: return 0
        case .namePrefix: return 1
        case .name: return 2
        case .address: return 3
        }
    }

    /// Matches in the answer's order, with their distances from `point`.
    static func ordered(_ matches: [AreaIndex.SearchMatch], near point: GeoPoint?) -> [AreaIndex.SearchMatch] {
        matches.map { match in
            var match = match
            match.distanceMeters = point.map { Geodesy.distance($0, index.areas.records[match.position].coordinate) }
            return match
        }.sorted { a, b in
            tier(a.rank) != tier(b.rank) ? tier(a.rank) < tier(b.rank)
                : (a.distanceMeters ?? 0) != (b.distanceMeters ?? 0) ? (a.distanceMeters ?? 0) < (b.distanceMeters ?? 0) : a.position < b.position
        }
    }

    /// An exact name, a name beginning with the query, a name holding it and an address holding
    /// it, the exact name the farthest: they come in that order, each named by hand.
    @Test func theExactNameThenThePrefixThenOtherNamesThenAddresses() throws {
        let station = GeoPoint(uncheckedLatitude: 37.5547, longitude: 126.9707)
        func north(_ meters: Double) -> GeoPoint { GeoPoint(uncheckedLatitude: station.latitude + meters / 111_195, longitude: station.longitude) }
        let areas = [
            Area(id: "t:exact", kind: .smoking, name: "서울역", coordinate: north(900), source: "t"),
            Area(id: "t:prefix", kind: .smoking, name: "서울역 광장 흡연부스", coordinate: north(10), source: "t"),
            Area(id: "t:inside", kind: .smoking, name: "용산 서울역 앞", coordinate: north(5), source: "t"),
            Area(id: "t:address", kind: .smoking, name: "흡연부스", coordinate: north(1), roadAddress: "서울특별시 용산구 서울역 3번출구", source: "t"),
        ]
        let index = AreaIndex(areas: areas)
        let found = try index.search("서울역", near: station, limit: 10).matches.map { index.areas[$0.position].id }
        #expect(found == ["t:exact", "t:prefix", "t:inside", "t:address"], "\(found)")
    }

    @Test func everyQueryFindsWhatReadingEveryAreaFinds() throws {
        var random = SplitMix64(seed: 4747)
        var queries = ["서울역", "서울역 광장", "용산구 서울역", "이태원", "강남 역", "ＫＴ", "kt", "sk빌딩", "놀이터(308동)", "놀이터 308", "308동",
                       "해운대구 우동", "한강대로", "이태원로 12", "역삼동", "5번출구", "평화로 1", "없는 이름", "구", "1", "동 역"]
        // And pieces cut from the data itself: a word, a run of letters across a space, a whole name.
        for _ in 0..<60 {
            let area = Self.areas[Int.random(in: 0..<Self.areas.count, using: &random)]
            let text = [area.name, area.roadAddress, area.lotAddress].filter { !$0.isEmpty }.randomElement(using: &random) ?? area.name
            let characters = Array(text)
            let start = Int.random(in: 0..<characters.count, using: &random)
            queries.append(String(characters[start..<min(characters.count, start + Int.random(in: 1...8, using: &random))]))
            queries.append(area.name)
        }
        let point = GeoPoint(uncheckedLatitude: 36.5, longitude: 127.5)
        var nonEmpty = 0
        for query in queries where !SearchText.words(of: query).isEmpty {
            let unordered = Self.oracle(query, near: nil)
            for near in [nil, point] {
                let expected = Self.ordered(unordered, near: near)
                do {
                    let result = try Self.index.search(query, near: near, limit: 25)
                    let (found, truncated) = (result.matches, result.truncated)
                    #expect(found == Array(expected.prefix(25)), "'\(query)' near \(String(describing: near))")
                    #expect(truncated == (expected.count > 25), "'\(query)'")
                    if !found.isEmpty { nonEmpty += 1 }
                } catch {
                    // Refused only past the candidate limit, which 3,000 areas never reach.
                    Issue.record("'\(query)': \(error)")
                }
            }
        }
        #expect(nonEmpty > 120)
        // Kinds filter as everywhere.
        let smoking = try Self.index.search("서울역", kind: .smoking, limit: 1000).matches
        #expect(smoking == Self.oracle("서울역", near: nil, kind: .smoking) && !smoking.isEmpty)
    }

    /// A whole name finds its area first among those at the same distance rank; `놀이터(308동)`
    /// is not `놀이터(310동)`.
    @Test func aWholeNameComesFirst() throws {
        for area in Self.areas.prefix(200) {
            let found = try Self.index.search(area.name, near: area.coordinate, limit: 5).matches
            let first = try #require(found.first, "\(area.name)")
            #expect(first.rank == .exactName, "\(area.name): \(first)")
            #expect(Self.index.areas[first.position].name == area.name)
        }
        let playground = try Self.index.search("어린이 놀이터(308동)", limit: 100).matches
        #expect(!playground.isEmpty && playground.allSatisfy { Self.index.areas[$0.position].name.contains("308") })
    }

    @Test(arguments: [
        ("서울역 광장", "서울역광장"), ("ＫＴ 강남", "kt강남"), ("5번-출구", "5번출구"), ("Seoul Station", "seoulstation"),
        ("\u{1109}\u{1165}\u{110B}\u{116E}\u{11AF}", "서울"), ("\u{1100}", "ㄱ"), ("\u{1100}가", "ㄱ가"), ("(주) 용산", "주용산"), ("１２３", "123"), ("ÉCOLE", "école"),
    ])
    func writingsThatDifferOnlyInFormFoldAlike(_ typed: String, _ folded: String) {
        #expect(SearchText.fold(typed) == folded.unicodeScalars.map(\.value), "\(typed)")
    }

    /// The index in any number of parts holds, for every pair of letters, exactly the served
    /// areas whose name or address has it, ascending: counted here from every area's text.
    @Test(arguments: [1, 2, 3, 7])
    func theIndexHoldsEachPairsAreasInAnyNumberOfParts(_ parts: Int) {
        let index = Self.index
        var expected: [UInt64: [UInt32]] = [:]
        for position in index.areas.indices where index.isServed(position) {
            var keys = Set<UInt64>()
            for text in [Self.folded[position].name, Self.folded[position].road, Self.folded[position].lot] where !text.isEmpty {
                for i in text.indices { keys.insert(UInt64(text[i]) << 32 | UInt64(i + 1 < text.count ? text[i + 1] : 0)) }
            }
            for key in keys { expected[key, default: []].append(UInt32(position)) }
        }
        let builder = SearchIndexBuilder(index.areas, served: { index.isServed($0) }, parts: parts)
        #expect(builder.partCount == parts)
        for part in 0..<parts { builder.count(part: part) }
        builder.lay()
        for part in (0..<parts).reversed() { builder.place(part: part) }
        let built = builder.index()
        #expect(Array(built.keys) == expected.keys.sorted())
        let wrong = expected.filter { key, areas in Array(built.postings[built.run(of: key)]) != areas }
        #expect(wrong.isEmpty, "\(wrong.count) keys with other areas, e.g. \(String(describing: wrong.first?.key))")
        #expect(built.byteCount == index.search.byteCount)
    }

    @Test func theIndexLaidOutIsTheIndexReadBack() throws {
        var writer = ColumnsWriter()
        Self.index.search.write(to: &writer)
        var reader = writer.reader()
        let read = try SearchIndex(reading: &reader, count: Self.index.areas.count)
        #expect(read.byteCount == Self.index.search.byteCount)
        // A posting past the table, or out of order, is refused by name.
        var broken = ColumnsWriter()
        Self.index.search.write(to: &broken)
        broken.columns[2] = broken.columns[2].reversed()
        var brokenReader = broken.reader()
        #expect(throws: FlatLayoutError.self) { try SearchIndex(reading: &brokenReader, count: Self.index.areas.count) }
        var short = writer.reader()
        #expect(throws: FlatLayoutError.self) { try SearchIndex(reading: &short, count: 10) }
    }

    /// A syllable in nearly every area is more than a search reads: without a position it is
    /// refused with what to narrow, not answered after reading everything; with one, it is
    /// answered with the nearest areas that hold it, as reading every area by distance finds.
    @Test func aQueryInEveryAreaIsRefusedOrAnsweredFromTheNearest() throws {
        let many = (0..<60_000).map { (i: Int) -> Area in
            let name: String = (i % 3 == 0 ? "역사 " : "역 ") + String(i)
            let latitude: Double = 37 + Double(i % 250) * 0.001
            let longitude: Double = 127 + Double(i / 250) * 0.001
            return Area(id: "m:\(i)", kind: .smoking, name: name, coordinate: GeoPoint(uncheckedLatitude: latitude, longitude: longitude), source: "m")
        }
        let index = AreaIndex(areas: many)
        #expect {
            try index.search("역", limit: 10)
        } throws: { error in
            String(describing: error).contains("more than a search reads") && String(describing: error).contains("add a word")
        }
        #expect(try index.search("역 59999", limit: 10).matches.count == 1)
        let point = GeoPoint(uncheckedLatitude: 37.1234, longitude: 127.0567)
        let nearest = try index.search("역", near: point, limit: 10)
        #expect(nearest.nearestOnly && nearest.truncated)
        let distances: [(position: Int, meters: Double)] = index.areas.indices.map { (position: Int) in
            (position, Geodesy.distance(point, index.areas.records[position].coordinate))
        }
        let expected: [Int] = distances.sorted { a, b in a.meters != b.meters ? a.meters < b.meters : a.position < b.position }.prefix(10).map(\.position)
        // Every name begins with the word, so all rank alike and come by distance.
        #expect(nearest.matches.map(\.position) == expected, "\(nearest.matches)")
        #expect(nearest.matches.allSatisfy { $0.rank == .namePrefix })
    }
}

/// Columns kept as they were written, to read back as a snapshot would.
struct ColumnsWriter: FlatLayoutWriter {
    var numbers: [UInt64] = []
    var columns: [[UInt8]] = []

    mutating func number(_ value: UInt64) { numbers.append(value) }

    mutating func column<Element: BitwiseCopyable>(_ column: Column<Element>) {
        columns.append(column.withUnsafeBufferPointer { Array(UnsafeRawBufferPointer($0)) })
    }

    func reader() -> ColumnsReader { ColumnsReader(numbers: numbers, columns: columns) }
}

struct ColumnsReader: FlatLayoutReader {
    var numbers: [UInt64]
    var columns: [[UInt8]]

    mutating func number() throws(FlatLayoutError) -> UInt64 {
        guard !numbers.isEmpty else { throw FlatLayoutError("no number left") }
        return numbers.removeFirst()
    }

    mutating func column<Element: BitwiseCopyable>(of type: Element.Type) throws(FlatLayoutError) -> Column<Element> {
        guard !columns.isEmpty else { throw FlatLayoutError("no column left") }
        let bytes = columns.removeFirst()
        let count = bytes.count / MemoryLayout<Element>.stride
        return Column(unsafeUninitializedCount: count) { buffer in
            bytes.withUnsafeBytes { raw in
                for i in 0..<count { buffer[i] = raw.loadUnaligned(fromByteOffset: i * MemoryLayout<Element>.stride, as: Element.self) }
            }
        }
    }
}
