import AreasCore
import AreasIngest
import Testing
import AreasTestTraits

/// What a follower takes of a leader's snapshot, case by case against the one it serves.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ShrinkGuardTests {
    static func catalog(_ counts: [String: Int]) throws -> Catalog {
        var areas: [Area] = []
        for (source, count) in counts {
            for i in 0..<count {
                areas.append(Area(id: "\(source):\(i)", kind: .nonsmoking, name: "\(i)",
                                  coordinate: try GeoPoint(latitude: 37 + Double(i) * 1e-4, longitude: 127), source: source))
            }
        }
        return Catalog(areas: areas, fetchedAt: counts.mapValues { _ in 1_700_000_000 })
    }

    @Test func theCases() throws {
        let served = try Self.catalog(["a": 100, "b": 100])
        func refusal(_ next: Catalog, force: Bool = false) -> String? { ShrinkGuard.refusal(of: next, replacing: served, maxShrink: 0.5, force: force) }
        #expect(refusal(try Self.catalog(["a": 100, "b": 90])) == nil)
        #expect(refusal(try Self.catalog(["a": 100, "b": 20]))?.contains("shrink source b from 100 to 20") == true)
        #expect(refusal(try Self.catalog(["a": 100, "b": 20]), force: true) == nil)
        #expect(refusal(try Self.catalog(["a": 40, "b": 40]))?.contains("from 200 to 80 areas") == true)
        // A source the leader no longer names was dropped from its config, not lost.
        #expect(refusal(try Self.catalog(["a": 100, "b": 100, "c": 5]).merging([:], keeping: ["a", "b", "c"])) == nil)
        #expect(refusal(try Self.catalog(["a": 100, "c": 60])) == nil)
        #expect(refusal(Catalog(), force: true)?.contains("holds no areas") == true)
        // Thousands of empty sources beside real areas.
        var many: [String: Int] = ["a": 100, "b": 100]
        for i in 0..<1_000 { many["empty-\(i)"] = 0 }
        let padded = Catalog(table: try Self.catalog(["a": 100, "b": 100]).table, fetchedAt: many.mapValues { _ in 1_700_000_000 })
        #expect(refusal(padded, force: true)?.contains("names 1002 sources, more than the 1000") == true)
    }
}
