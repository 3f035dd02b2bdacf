import AreasTestTraits
import AreasTestSupport
import AreasSystem
import Foundation
import Testing
@testable import AreasCore
@testable import AreasIngest

/// A refresh checks its new file, mapped, beside the data it serves: the checksum is read a
/// part at a time and the layout's checks let go of what they read as they go, so checking
/// never holds the whole file resident; and a part that fails is refused as before.
@Suite(.offThePool, .timeLimit(.minutes(3)))
struct CheckingTheNewFileTests {
    @Test func checksLetGoOfThePagesTheyReadAndStillRefuseABadPart() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (areas, _) = ChangeLogStepTests.releases(count: 300_000, seed: 5)
        let catalog = Catalog(areas: areas, fetchedAt: ["bench": 1.7e9])
        let path = folder + "/areas.snapshot"
        _ = try SnapshotFile.writeMapped(catalog, index: catalog.index(), to: path)
        let file = try FileDescriptor.open(path, .readOnly)
        defer { file.close() }
        let mapping = try MappedFile(file, path: path)
        let fileBytes = mapping.bytes.count
        func resident() -> Int { ResidentPages().count(mapping.bytes) }
        // A fault maps a whole folio of the page cache, up to 2 MiB where the file system reads
        // ahead in large ones.
        let folio = 2 << 20
        let part = 4 << 20
        #expect(fileBytes > 4 * (part + 2 * folio), "a file of \(fileBytes) bytes: enough parts to tell one from the whole")

        // The checksum: one part resident at a time, every byte after the header read once.
        mapping.releaseResidentPages()
        var mostResident = 0, read = 0
        try SnapshotFile.checkChecksum(mapping.bytes, path: path, partBytes: part) { checked in
            read += checked.count
            mostResident = max(mostResident, resident())
            mapping.releaseResidentPages(of: checked)
        }
        #expect(read == fileBytes - SnapshotFile.headerSize)
        #expect(mostResident > 0 && mostResident <= part + 2 * folio, "\(mostResident) bytes resident while a part of \(part) was checked")

        // The layout's checks: at each let-go, what was read since the last one is resident,
        // and the records, which the checks of later parts read again (each position they
        // name is checked against its record's kind), each give or take the folios at its
        // ends; not the rest of the file. The data read is the data written.
        mapping.releaseResidentPages()
        let recordBytes = areas.count * MemoryLayout<AreaTable.Record>.stride
        var letGoCalls = 0, letGoneUpTo = 0
        var overBound: [String] = []
        let read1 = try SnapshotFile.decodeLayout(mapping.bytes, owner: mapping, path: path, version: SnapshotFile.version) { before in
            letGoCalls += 1
            let held = resident(), readSince = before.count - letGoneUpTo
            if held > readSince + recordBytes + 4 * folio { overBound.append("\(held) resident, \(readSince) read since the last let-go") }
            #expect(before.baseAddress == mapping.bytes.baseAddress && before.count > letGoneUpTo, "a let-go covers the file from its start, further each time")
            letGoneUpTo = before.count
            mapping.releaseResidentPages(of: before)
        }
        let afterLettingGo = resident()
        #expect(letGoCalls >= 3 && letGoneUpTo > fileBytes / 2, "\(letGoCalls) let-goes, the last up to byte \(letGoneUpTo) of \(fileBytes)")
        #expect(overBound.isEmpty, "\(overBound) with \(recordBytes) bytes of records")
        mapping.releaseResidentPages()
        let read2 = try SnapshotFile.decodeLayout(mapping.bytes, owner: mapping,
                                                   path: path, version: SnapshotFile.version)
        #expect(resident() >= fileBytes * 8 / 10, "\(resident()) of \(fileBytes) bytes resident after checks that let nothing go")
        #expect(afterLettingGo < resident() / 2)
        #expect(read1.areas.count == areas.count && read2.areas.count == areas.count)
        #expect(read1.areas[12_345] == read2.areas[12_345] && read1.areas[299_999] == read2.areas[299_999])

        // A byte changed in the last part of the file: refused, as a file checked whole is.
        var bytes = try #require(FileManager.default.contents(atPath: path))
        bytes[bytes.count - 100] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: SnapshotFile.Failure.corrupt(path: path, reason: "checksum mismatch")) { try SnapshotFile.load(path: path) }
    }
}
