import Foundation
import Testing
@testable import AreasCore
@testable import AreasIngest
import AreasTestSupport
import AreasTestTraits

/// A step of the change log, however many runs of ids it is walked in, against what comparing
/// the two releases' areas by id says; and `changes` paged from any cursor against all of it.
@Suite(.timeLimit(.minutes(2)))
struct ChangeLogStepTests {
    /// A release of `count` booths, then one in which a few moved, a few were renamed and a
    /// few replaced by new ones (with the same position, so some merge with their neighbour).
    static func releases(count: Int, seed: UInt64) -> (old: [Area], new: [Area]) {
        var random = SplitMix64(seed: seed)
        func booth(_ n: Int) -> Area {
            Area(id: "b:" + String(n, radix: 36), kind: n % 5 == 0 ? .nonsmoking : .smoking, name: "흡연부스 \(n)",
                 coordinate: GeoPoint(uncheckedLatitude: 37.4 + Double(n % 997) * 0.0003, longitude: 126.8 + Double(n / 997) * 0.0003),
                 roadAddress: "서울특별시 용산구 한강대로 \(n % 500)", province: "서울특별시", district: "용산구", source: "bench", fields: [])
        }
        let old = (0..<count).map(booth)
        var new = old
        for k in 0..<count / 20 {
            let i = Int.random(in: 0..<new.count, using: &random)
            switch k % 3 {
            case 0: new[i].coordinate = GeoPoint(uncheckedLatitude: new[i].coordinate.latitude + 0.00036, longitude: new[i].coordinate.longitude)
            case 1: new[i].name += " 흡연부스"
            default:
                let position = new[i].coordinate
                new[i] = booth(count + k)
                new[i].coordinate = position
            }
        }
        return (old.sorted { $0.id < $1.id }, new.sorted { $0.id < $1.id })
    }

    @Test(arguments: [1, 2, 3, 7])
    func aStepWalkedInRunsIsWhatComparingByIdSays(runs: Int) {
        let (oldAreas, newAreas) = Self.releases(count: 3_000, seed: UInt64(runs))
        let (old, new) = (Catalog(areas: oldAreas, fetchedAt: ["bench": 1.7e9]), Catalog(areas: newAreas, fetchedAt: ["bench": 1.8e9]))
        let (oldIndex, newIndex) = (old.index(), new.index())
        let log = ChangeLog.first(records: old.table.count, at: 1.7e9)
            .next(from: (old.table, oldIndex, "v1", 1.7e9), to: (new.table, newIndex), version: "v2", at: 1.8e9, runs: runs)
        let step = log.steps.last

        // The oracle: each release's served areas by id, compared whole.
        func served(_ catalog: Catalog, _ index: AreaIndex) -> [String: Area] {
            Dictionary(uniqueKeysWithValues: catalog.table.indices.filter(index.isServed).map { (catalog.table.id(at: $0), catalog.table[$0]) })
        }
        let (before, after) = (served(old, oldIndex), served(new, newIndex))
        let appeared = after.keys.filter { before[$0] == nil }.sorted()
        let vanished = before.keys.filter { after[$0] == nil }.sorted()
        let changed = before.keys.filter { id in after[id].map { $0 != before[id] } ?? false }.sorted()
        #expect(!appeared.isEmpty && !vanished.isEmpty && changed.count > 50)
        #expect(step?.appeared == appeared)
        #expect(step?.vanished.map(\.id) == vanished)
        #expect(step?.changed.map(\.id) == changed)
        #expect(step?.changed.allSatisfy { before[$0.id]?.name == $0.name && before[$0.id]?.coordinate.latitude == $0.latitude } == true)
        // Every record's times: first seen at the first release if it was in it, else now.
        let oldIds = Set(oldAreas.map(\.id))
        #expect(new.table.indices.allSatisfy { log.firstSeen[$0] == (oldIds.contains(new.table.id(at: $0)) ? 1.7e9 : 1.8e9) })
        #expect(new.table.indices.allSatisfy { (log.changedAt[$0] == 1.8e9) == changed.contains(new.table.id(at: $0)) || !newIndex.isServed($0) })
    }

    /// A snapshot's steps are read after it loads, as they were written; a steps text this
    /// build cannot read (under a good checksum) loads as no steps, so every earlier version
    /// is `gone` rather than answered from a wrong history.
    @Test func aSnapshotsStepsAreReadAfterItLoadsAndAnUnreadableTextIsNoHistory() throws {
        let (oldAreas, newAreas) = Self.releases(count: 500, seed: 4)
        let (old, new) = (Catalog(areas: oldAreas, fetchedAt: ["bench": 1.7e9]), Catalog(areas: newAreas, fetchedAt: ["bench": 1.75e9]))
        let (oldIndex, newIndex) = (old.index(), new.index())
        let log = ChangeLog.first(records: old.table.count, at: 1.7e9)
            .next(from: (old.table, oldIndex, "v1", 1.7e9), to: (new.table, newIndex), version: "v2", at: 1.75e9)
        var bytes = SnapshotFile.encode(new, index: newIndex, createdAt: 1.75e9, changes: log)
        let loaded = try SnapshotFile.decode(bytes).changes
        #expect(loaded.steps == log.steps && log.steps.count == 1)
        #expect(loaded.changes(since: "v1", current: "v2", index: newIndex)?.changes == log.changes(since: "v1", current: "v2", index: newIndex)?.changes)

        // The text's first key, "version", misspelt: still JSON, not a step.
        let key = Array(#"{"version":"#.utf8)
        let at = try #require(bytes.indices.first { bytes[$0..<min($0 + key.count, bytes.count)].elementsEqual(key) })
        bytes[at + 2] = UInt8(ascii: "w")
        SnapshotFile.seal(&bytes)
        let garbled = try SnapshotFile.decode(bytes)
        #expect(garbled.catalog.table.count == new.table.count)
        #expect(garbled.changes.steps.isEmpty && garbled.changes.changes(since: "v1", current: "v2", index: newIndex) == nil)
    }

    /// Pages of every size, each from the cursor the page before ended at, list exactly what
    /// one answer with no limit lists, in the same order, ending where it says no more follow.
    @Test func pagesFromAnyCursorJoinIntoTheWholeList() {
        var (areas, _) = Self.releases(count: 2_000, seed: 9)
        var catalog = Catalog(areas: areas, fetchedAt: ["bench": 1.7e9])
        var index = catalog.index()
        var log = ChangeLog.first(records: catalog.table.count, at: 1.7e9)
        var version = "v0"
        for release in 1...4 {
            areas = Self.releases(count: 2_000, seed: UInt64(release)).new.map { area in
                var area = area
                area.name += release.isMultiple(of: 2) ? "" : " \(release)"
                return area
            }
            let next = Catalog(areas: areas, fetchedAt: ["bench": 1.7e9 + Double(release)])
            let nextIndex = next.index()
            log = log.next(from: (catalog.table, index, version, 1.7e9 + Double(release - 1)), to: (next.table, nextIndex), version: "v\(release)",
                           at: 1.7e9 + Double(release))
            (catalog, index, version) = (next, nextIndex, "v\(release)")
        }
        for since in ["v0", "v2"] {
            let whole = log.changes(since: since, current: version, index: index)
            #expect(whole?.more == false && (whole?.changes.count ?? 0) > 100)
            for limit in [1, 7, 100, 5_000] {
                var joined: [ChangeLog.Change] = []
                var after: String?
                var pages = 0
                repeat {
                    let page = log.changes(since: since, current: version, index: index, after: after, limit: limit)
                    #expect((page?.changes.count ?? 0) <= limit && page?.changes.isEmpty == false)
                    joined += page?.changes ?? []
                    after = page?.more == true ? page?.changes.last?.id : nil
                    pages += 1
                } while after != nil && pages <= 3_000
                let same = joined == whole?.changes
                #expect(same, "since \(since), pages of \(limit): \(joined.count) listed, \(Set(joined.map(\.id)).count) ids, against \(whole?.changes.count ?? 0)")
            }
        }
        #expect(log.changes(since: "v9", current: version, index: index) == nil)
    }
}
