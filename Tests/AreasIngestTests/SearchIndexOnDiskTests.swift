import AreasTestTraits
import AreasTestSupport
import AreasSystem
import Foundation
import Testing
@testable import AreasCore
@testable import AreasIngest

/// A refresh moves its new search index into an unnamed file of the snapshot's folder as soon
/// as it is built, so the trees built next never sit beside it in memory; the snapshot laid out
/// from it is the one laid out from memory, and writing it lets each part's pages go.
@Suite(.offThePool, .timeLimit(.minutes(3)))
struct SearchIndexOnDiskTests {
    @Test func theMovedIndexAnswersAndLaysOutAsTheOneInMemory() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (areas, _) = ChangeLogStepTests.releases(count: 120_000, seed: 11)
        let catalog = Catalog(areas: areas, fetchedAt: ["bench": 1.7e9])
        let inMemory = catalog.index()
        var movedPostings: MappedFile?
        let onDisk = catalog.index(keepingSearch: { search in
            search.movingPostings { postings in
                let moved = ColumnOnDisk.moving(postings, into: folder)
                movedPostings = moved?.storage as? MappedFile
                return moved
            }
        })
        let mapping = try #require(movedPostings, "postings of \(inMemory.search.postings.byteCount) bytes were not moved")
        #expect(onDisk.search.postings.storage === mapping && inMemory.search.postings.byteCount >= ColumnOnDisk.smallestBytes)
        // The file has no name: nothing in the folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        // Written, not read: none of its pages are in this process yet.
        #expect(ResidentPages().count(mapping.bytes) == 0)
        #expect(Array(onDisk.search.postings) == Array(inMemory.search.postings))
        #expect(Array(onDisk.search.keys) == Array(inMemory.search.keys) && Array(onDisk.search.starts) == Array(inMemory.search.starts))
        for query in ["흡연부스 1234", "한강대로 17", "부스 99", "없는말"] {
            let expected = try inMemory.search(query, limit: 50), got = try onDisk.search(query, limit: 50)
            #expect(got.matches.map(\.position) == expected.matches.map(\.position) && got.truncated == expected.truncated, "\(query)")
        }
        // Reading it brought it in (the measure sees the pages), and letting go sends them back.
        #expect(ResidentPages().count(mapping.bytes) >= mapping.bytes.count * 9 / 10)
        mapping.releaseResidentPages()

        // The snapshot laid out from the moved index is, byte for byte, the one laid out from
        // memory; writing it leaves no more than a part of the moved column resident.
        let fromMemory = try SnapshotFile.writeUnchecked(catalog, index: inMemory, for: folder + "/a.snapshot", createdAt: 1.7e9)
        let fromDisk = try SnapshotFile.writeUnchecked(catalog, index: onDisk, for: folder + "/b.snapshot", createdAt: 1.7e9)
        #expect(ResidentPages().count(mapping.bytes) <= MappedFile.partBytes)
        #expect(FileManager.default.contents(atPath: fromDisk) == FileManager.default.contents(atPath: fromMemory))
        let installed = try SnapshotFile.install(fromDisk, at: folder + "/areas.snapshot")
        #expect(try #require(installed.index).search("흡연부스 1234", limit: 50).matches.map(\.position)
                == inMemory.search("흡연부스 1234", limit: 50).matches.map(\.position))
    }

    @Test func aSmallColumnOrAFolderThatCannotTakeItStaysInMemory() throws {
        let small = Column([UInt32](repeating: 7, count: 1_000))
        #expect(ColumnOnDisk.moving(small, into: NSTemporaryDirectory()) == nil)
        let large = Column((0..<UInt32(2_000_000)).map { $0 })
        #expect(ColumnOnDisk.moving(large, into: "/nonexistent/folder") == nil)
        // Moved: the values read back, from a mapping of a file the folder does not list.
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let moved = try #require(ColumnOnDisk.moving(large, into: folder))
        #expect(Array(moved) == Array(large) && moved.storage is MappedFile)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test(arguments: [("/var/lib/areas/areas.snapshot", "/var/lib/areas"), ("areas.snapshot", "."), ("/areas.snapshot", "/")])
    func theSnapshotsFolder(snapshot: String, folder: String) {
        #expect(SnapshotFolder(snapshot: snapshot).folder == folder)
    }
}

/// The store's own refresh path: the search index of a new data set waits on disk while the
/// trees are built, the log says so, and what is served is the file's, answering as built.
@Suite(.offThePool, .timeLimit(.minutes(3)))
struct RefreshSearchIndexOnDiskTests {
    @Test func aRefreshMovesItsSearchIndexAndServesTheFilesAnswers() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (areas, _) = ChangeLogStepTests.releases(count: 120_000, seed: 11)
        let catalog = Catalog(areas: areas, fetchedAt: ["bench": 1.7e9])
        let inMemory = catalog.index()
        let store = SnapshotStore(path: folder + "/areas.snapshot")
        var notes: [SnapshotStore.Note] = []
        let report = RefreshReport(startedAt: 1.7e9, durationMilliseconds: 1, forced: false, sources: [])
        guard case .replaced(let served, inFile: true) = store.settle(catalog, report: report, serving: .empty(), hasData: false, notes: &notes) else {
            Issue.record("not installed in a file: \(notes)")
            return
        }
        let built = notes.compactMap { if case .info(let text) = $0, text.hasPrefix("index built: ") { text } else { nil } }
        #expect(built.count == 1 && built[0].contains("areas in ") && built[0].contains("its search postings (")
                && built[0].contains("MiB) waited in a file of \(folder) while the trees were built"), "\(notes)")
        // Served from the new file, which is the only file the folder holds.
        #expect(served.index.search.postings.storage is MappedFile)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix("areas.") }.isEmpty)
        for query in ["흡연부스 1234", "한강대로 17", "부스 99"] {
            #expect(try served.index.search(query, limit: 50).matches.map { served.index.areas.id(at: $0.position) }
                    == inMemory.search(query, limit: 50).matches.map { inMemory.areas.id(at: $0.position) }, "\(query)")
        }
    }
}
