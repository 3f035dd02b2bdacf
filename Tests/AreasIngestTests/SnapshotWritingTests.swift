import AreasCore
@testable import AreasIngest
import AreasSystem
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// A snapshot written to its file as it is laid out (never held whole) is the file laid out in
/// memory, byte for byte; its checksum fed in pieces is XXH64's.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct SnapshotWritingTests {
    /// Sizes around the megabyte the writer gathers before writing, and a column larger than it.
    @Test(arguments: [0, 3, 4_000, 40_000])
    func theFileWrittenAsLaidOutIsTheFileLaidOutInMemory(count: Int) throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let catalog = MappedSnapshotTests.catalog(count: count, seed: UInt64(count) + 3)
        let index = catalog.index()
        let createdAt = (Date().timeIntervalSince1970 - 60).rounded()
        let inMemory = SnapshotFile.encode(catalog, index: index, createdAt: createdAt)
        let path = directory + "/streamed.snapshot"
        let file = try FileDescriptor.open(path, [.writeOnly, .create, .exclusive])
        defer { file.close() }
        try SnapshotFile.write(catalog, index: index, createdAt: createdAt, to: file)
        let written = try #require(FileManager.default.contents(atPath: path))
        #expect(written.count == inMemory.count)
        #expect(written.elementsEqual(inMemory), "the streamed file differs from the one laid out in memory")
        // And it loads, with every check, as the same areas.
        let loaded = try #require(try SnapshotFile.load(path: path))
        #expect(loaded.catalog.table.count == catalog.table.count)
    }

    /// XXH64's published values for short texts, and any text fed in pieces of any sizes.
    @Test func theChecksumIsXXH64InAnyPieces() {
        for (text, expected) in [("", 0xEF46_DB37_51D8_E999 as UInt64), ("a", 0xD24E_C4F1_A98C_6E5B), ("abc", 0x44BC_2CF5_AD77_0999),
                                 ("Nobody inspects the spammish repetition", 0xFBCE_A83C_8A37_8BF1)] {
            #expect(Array(text.utf8).withUnsafeBytes(checksum) == expected, "\(text)")
        }
        var random = SplitMix64(seed: 64)
        let bytes = (0..<10_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let whole = bytes.withUnsafeBytes(checksum)
        for _ in 0..<50 {
            var sum = StreamingChecksum()
            var at = 0
            while at < bytes.count {
                let piece = Swift.min(bytes.count - at, Int(random.next() % 100))
                bytes[at..<at + piece].withUnsafeBytes { sum.update($0) }
                at += piece
            }
            #expect(sum.value == whole)
        }
    }
}
