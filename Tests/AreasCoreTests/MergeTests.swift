import AreasCore
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// Merging against a brute force that compares every record with every area formed before
/// it (no grid), on clustered data where most records have a neighbour within the distance:
/// the same areas, and the invariants an operator relies on.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct MergeTests {
    static let places = ["용산역 광장", "서울역 1번출구", "아이파크몰 8층 옥상", "아이파크몰 달 주차장 4.5층", "전쟁기념관 정문", "흡연부스"]

    /// Records of `sources` sources around a few points, names written as sources write them.
    static func records(seed: UInt64, count: Int, sources: Int) throws -> [Area] {
        var random = SplitMix64(seed: seed)
        var areas: [Area] = []
        for i in 0..<count {
            let source = "s\(random.next() % UInt64(sources))"
            let place = places[Int(random.next() % UInt64(places.count))]
            let spelled = [place, place.replacingOccurrences(of: " ", with: ""), "서울특별시 용산구 \(place)", "\(place)(개방형)"][Int(random.next() % 4)]
            let center = Int(random.next() % 4)
            let lat = 37.53 + Double(center) * 0.0003 + Double.random(in: 0..<1, using: &random) * 0.0002
            let lon = 126.97 + Double(center) * 0.0003 + Double.random(in: 0..<1, using: &random) * 0.0002
            let kind: AreaKind = random.next() % 5 == 0 ? .nonsmoking : .smoking
            areas.append(Area(id: "\(source):\(String(i, radix: 16))", kind: kind, name: spelled,
                              coordinate: try GeoPoint(latitude: lat, longitude: lon), province: "서울특별시", district: "용산구", source: source))
        }
        return areas
    }

    /// The rule of `AreaGroups.merging`, written out as plainly as it reads.
    static func bruteForceLeaders(_ table: AreaTable, policy: MergePolicy, crowdLimit: Int = AreaGroups.defaultCrowdLimit) -> [Int] {
        let areas = Array(table)
        func rank(_ i: Int) -> Int { policy.priority.firstIndex(of: areas[i].source) ?? policy.priority.count }
        // The grid's cells: `meters` tall, and `meters` wide at the table's highest latitude.
        let highest = min(areas.map { abs($0.coordinate.latitude) }.max() ?? 0, 89)
        let latitudeCell = policy.meters / 110_000
        let longitudeCell = min(360, latitudeCell / cos(highest * (Double.pi / 180)))
        let cells: [(y: Int64, x: Int64)] = areas.map { area in
            let y = Int64((area.coordinate.latitude / latitudeCell).rounded(.down))
            let x = Int64((area.coordinate.longitude / longitudeCell).rounded(.down))
            return (y, x)
        }
        // In a crowd: more than the limit of records in the nine cells around its own.
        let crowded: [Bool] = cells.map { cell in
            cells.filter { other in abs(other.y - cell.y) <= 1 && abs(other.x - cell.x) <= 1 }.count > crowdLimit
        }
        func key(_ i: Int) -> [UInt8] { PlaceName.key(areas[i].name, province: areas[i].province, district: areas[i].district) }
        let order = areas.indices.sorted { (rank($0), $0) < (rank($1), $1) }
        var leaders = Array(areas.indices)
        var formed: [Int] = []
        var sourcesOf: [Int: Set<String>] = [:]
        for r in order {
            let candidates = formed.filter { l in
                areas[l].kind == areas[r].kind && !(sourcesOf[l]?.contains(areas[r].source) ?? false)
                    && Geodesy.distance(areas[l].coordinate, areas[r].coordinate) <= policy.meters
                    && PlaceName.samePlace(key(l), key(r)) && (!crowded[r] || key(l) == key(r))
            }
            if let best = candidates.min(by: {
                (Geodesy.distance(areas[$0].coordinate, areas[r].coordinate), rank($0), $0) < (Geodesy.distance(areas[$1].coordinate, areas[r].coordinate), rank($1), $1)
            }) {
                leaders[r] = best
                sourcesOf[best, default: []].insert(areas[r].source)
            } else {
                formed.append(r)
                sourcesOf[r] = [areas[r].source]
            }
        }
        return leaders
    }

    /// With no crowd, with crowds where a few hundred records share a few spots (the default
    /// limit), and with everything a crowd (a limit of 20).
    @Test(arguments: [(1, 300, 3, 15.0, 10_000), (2, 600, 5, 15.0, 10_000), (3, 400, 2, 40.0, 10_000), (4, 200, 4, 3.0, 10_000),
                      (5, 900, 3, 15.0, AreaGroups.defaultCrowdLimit), (6, 600, 5, 15.0, 20), (7, 400, 2, 40.0, 20)])
    func theGridFindsWhatComparingEverythingFinds(seed: UInt64, count: Int, sources: Int, meters: Double, crowdLimit: Int) throws {
        let table = AreaTable(areas: try Self.records(seed: seed, count: count, sources: sources)).sortedByID()
        let policy = MergePolicy(meters: meters, priority: (0..<sources).reversed().map { "s\($0)" })
        let groups = AreaGroups.merging(table, policy: policy, crowdLimit: crowdLimit)
        let expected = Self.bruteForceLeaders(table, policy: policy, crowdLimit: crowdLimit)
        #expect(table.indices.map(groups.leader(of:)) == expected)
        // Clustered data merges often: the test would prove little otherwise.
        #expect(groups.mergedCount > count / (meters >= 15 ? 4 : 10), "\(groups.mergedCount) of \(count) merged")

        // Every record in exactly one area; no area holds two records of one source; each
        // member is of its leader's kind, within the distance, and names the same place.
        var seen = Set<Int>()
        for leader in table.indices where !groups.isMerged(leader) {
            let members = groups.records(of: leader)
            #expect(members.first == leader)
            #expect(Set(members.map { table[$0].source }).count == members.count)
            for member in members {
                #expect(seen.insert(member).inserted)
                #expect(table[member].kind == table[leader].kind)
                #expect(Geodesy.distance(table[member].coordinate, table[leader].coordinate) <= meters)
                #expect(PlaceName.samePlace(table[member].name, table[leader].name, province: "서울특별시", district: "용산구"))
            }
        }
        #expect(seen.count == table.count)
    }

    /// Two sources with thousands of rows at one position (a district file whose rows all got
    /// the office's coordinates): each row of the second joins the first's row of its name, and
    /// the merge measures each record against a few earlier areas, as for the same rows spread
    /// out, not against every earlier area at the spot.
    @Test func rowsAtOnePointMergeInLinearWork() throws {
        let rows = 20_000
        func records(_ source: String, spread: Bool) throws -> [Area] {
            try (0..<rows).map { i in
                let offset = spread ? Double(i) * 0.001 : 0
                return Area(id: "\(source):\(i)", kind: .smoking, name: "흡연구역 \(i / 2)번 (개방형)",
                            coordinate: try GeoPoint(latitude: 37.5 + offset.truncatingRemainder(dividingBy: 1), longitude: 127 + (offset / 1).rounded(.down) * 0.01),
                            province: "서울특별시", district: "용산구", source: source)
            }
        }
        let policy = MergePolicy(meters: 15, priority: ["a", "b"])
        func merged(spread: Bool) throws -> (groups: AreaGroups, table: AreaTable, looked: Int) {
            let table = AreaTable(areas: try records("a", spread: spread) + records("b", spread: spread)).sortedByID()
            var looked = 0
            let groups = AreaGroups.merging(table, policy: policy, crowdLimit: AreaGroups.defaultCrowdLimit, looked: &looked)
            return (groups, table, looked)
        }
        let atOnePoint = try merged(spread: false)
        let spreadOut = try merged(spread: true)
        // Each name is two rows of each source: every row of b joins a row of a of its name,
        // none twice (spread out, the row of a at its position).
        #expect(atOnePoint.groups.mergedCount == rows)
        #expect(spreadOut.groups.mergedCount == rows)
        for position in atOnePoint.table.indices where atOnePoint.groups.isMerged(position) {
            let leader = atOnePoint.groups.leader(of: position)
            #expect(atOnePoint.table[leader].source == "a" && atOnePoint.table[leader].name == atOnePoint.table[position].name)
        }
        // The work, counted as earlier areas each record was measured against: a few per
        // record at one point as spread out. Walking the cell's chain, the rows at one point
        // were measured against every earlier area there, about rows² / 2 of them.
        #expect(atOnePoint.looked <= 4 * 2 * rows, "at one point \(atOnePoint.looked) areas looked at for \(2 * rows) rows, spread out \(spreadOut.looked)")
        #expect(spreadOut.looked <= 4 * 2 * rows)
    }

    /// 50,000 rows at one point, the second source's naming the first's by address (half by
    /// their name being its address, half by their address being its name): each finds its own,
    /// and the merge stays a pass over the records.
    @Test func rowsAtOnePointNamingEachOthersAddressesMergeInLinearWork() throws {
        let rows = 25_000
        let point = try GeoPoint(latitude: 37.5299, longitude: 126.9648)
        var areas: [Area] = []
        for i in 0..<rows {
            areas.append(Area(id: "a:\(i)", kind: .smoking, name: "흡연부스 \(i)", coordinate: point, roadAddress: "서울특별시 용산구 중앙로 \(i)",
                              province: "서울특별시", district: "용산구", source: "a"))
            let named = i % 2 == 0
            areas.append(Area(id: "b:\(i)", kind: .smoking, name: named ? "서울 용산구 중앙로 \(i)" : "현대빌딩",
                              coordinate: point, roadAddress: named ? "" : "흡연부스 \(i)", province: "서울특별시", district: "용산구", source: "b"))
        }
        let table = AreaTable(areas: areas).sortedByID()
        var looked = 0
        let groups = AreaGroups.merging(table, policy: MergePolicy(meters: 15, priority: ["a", "b"]), crowdLimit: AreaGroups.defaultCrowdLimit, looked: &looked)
        #expect(groups.mergedCount == rows)
        var wrong = 0
        for position in table.indices where table[position].source == "b" {
            let leader = table[groups.leader(of: position)]
            if leader.id != "a:" + table[position].id.dropFirst(2) { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) rows of b joined another row's area")
        #expect(looked <= 8 * 2 * rows, "\(looked) areas looked at for \(2 * rows) rows")
    }

    @Test func theIndexServesLeadersOnly() throws {
        let table = AreaTable(areas: try Self.records(seed: 9, count: 500, sources: 4)).sortedByID()
        let policy = MergePolicy(meters: 15, priority: ["s0", "s1", "s2", "s3"])
        let index = AreaIndex(table: table, merge: policy)
        let leaders = Set(table.indices.filter { !index.groups.isMerged($0) })
        #expect(index.count == leaders.count && leaders.count < table.count)
        let point = try GeoPoint(latitude: 37.5305, longitude: 126.9705)
        let all = try index.nearest(to: point, k: table.count)
        #expect(Set(all.map(\.position)) == leaders)
        let smoking = try index.nearest(to: point, k: table.count, kind: .smoking)
        #expect(Set(smoking.map(\.position)) == leaders.filter { table[$0].kind == .smoking })
        let box = try GeoBox(south: 37.52, west: 126.96, north: 37.54, east: 126.98)
        #expect(Set(try index.areas(in: box).map(\.position)) == leaders)
        #expect(index.count(of: .nonsmoking) == leaders.filter { table[$0].kind == .nonsmoking }.count)
        // Zones a point lies in are areas too, never a merged record.
        #expect(try index.check(point).zones.allSatisfy { leaders.contains($0.position) })
        // A merged record's id finds its area.
        for position in table.indices where index.groups.isMerged(position) {
            #expect(index.position(ofAreaWith: table.id(at: position)) == index.groups.leader(of: position))
        }
    }

    @Test func offOrOneSourceMergesNothing() throws {
        let table = AreaTable(areas: try Self.records(seed: 5, count: 200, sources: 3)).sortedByID()
        #expect(AreaGroups.merging(table, policy: .off).isEmpty)
        let one = AreaTable(areas: try Self.records(seed: 5, count: 200, sources: 1)).sortedByID()
        #expect(AreaGroups.merging(one, policy: MergePolicy(meters: 15, priority: ["s0"])).isEmpty)
        #expect(AreaIndex(table: table).count == table.count)
    }
}

