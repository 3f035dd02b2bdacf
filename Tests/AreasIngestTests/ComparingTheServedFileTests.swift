import AreasTestTraits
import AreasTestSupport
import AreasSystem
import Foundation
import Testing
@testable import AreasCore
@testable import AreasIngest

/// A refresh compares each source's new rows with its run of the served file, mapped: the walk
/// lets the pages it has read go as it goes, so a comparison never holds the whole file's
/// records resident beside the new rows (a second refresh's peak), and pairs exactly as
/// without.
@Suite(.offThePool, .timeLimit(.minutes(3)))
struct ComparingTheServedFileTests {
    @Test func theWalkLetsGoWhatItReadAndPairsAsWithout() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (oldAreas, newAreas) = ChangeLogStepTests.releases(count: 300_000, seed: 11)
        let old = Catalog(areas: oldAreas, fetchedAt: ["bench": 1.7e9])
        let new = AreaTable(areas: newAreas)
        let served = try SnapshotFile.writeMapped(old, index: old.index(), to: folder + "/areas.snapshot")
        let mapped = served.catalog
        try #require(mapped.table.records.storage is MappedFile, "the comparison reads the mapped file, as a refresh does")
        // The records: read in the walk's order. (The names a walk compares lie in the order
        // the rows were published, not in id order, so their pages are read all over.)
        func resident() -> Int { mapped.table.records.withUnsafeBufferPointer { ResidentPages().count(UnsafeRawBufferPointer($0)) } }
        let recordBytes = mapped.table.count * MemoryLayout<AreaTable.Record>.stride

        // Letting go: at each call, what the walk read since the last one is resident, no more.
        mapped.releaseMappedPages()
        var mostResident = 0
        let lettingGo = new.difference(new.indices, from: mapped.table, mapped.table.indices, lettingGo: {
            mostResident = max(mostResident, resident())
            mapped.releaseMappedPages()
        })
        let strideBytes = AreaTable.lettingGoStride * MemoryLayout<AreaTable.Record>.stride
        #expect(mostResident > 0, "the walk read the mapped file")
        // A fault maps a whole folio of the page cache, up to 2 MiB where the file system
        // reads ahead in large ones: a stride's records straddle two at most.
        let folio = 2 << 20
        #expect(recordBytes > 3 * (strideBytes + 2 * folio), "enough records to tell a stride from the whole")
        #expect(mostResident <= strideBytes + 2 * folio, "\(mostResident) of \(recordBytes) bytes of records resident at a let-go; a stride's records are \(strideBytes)")

        // Without: the walk leaves the file's records and names resident.
        mapped.releaseMappedPages()
        let holding = new.difference(new.indices, from: mapped.table, mapped.table.indices)
        #expect(resident() >= recordBytes * 9 / 10, "\(resident()) of \(recordBytes) bytes of records resident after a walk that lets nothing go")

        // The same difference either way, and what comparing the two releases by id says.
        #expect(lettingGo == holding)
        let before = Dictionary(uniqueKeysWithValues: oldAreas.map { ($0.id, $0) })
        let after = Dictionary(uniqueKeysWithValues: newAreas.map { ($0.id, $0) })
        let changed = before.keys.filter { id in after[id].map { $0 != before[id] } ?? false }.count
        #expect(lettingGo == AreaDifference(added: after.keys.filter { before[$0] == nil }.count,
                                            removed: before.keys.filter { after[$0] == nil }.count, changed: changed))
        #expect(changed > 50)

        // Called after every stride of old records walked, and only then.
        var walked = 0
        var calledAt: [Int] = []
        new.forEachPair(from: mapped.table, lettingGo: { calledAt.append(walked) }) { old, _ in
            if old != nil { walked += 1 }
        }
        #expect(calledAt == Array(stride(from: AreaTable.lettingGoStride, to: mapped.table.count, by: AreaTable.lettingGoStride)))
    }
}
