import Foundation
import Testing
@testable import AreasCore
@testable import AreasIngest
@testable import AreasProtocol
@testable import AreasTestSupport
import AreasTestTraits

@Suite(.offThePool, .timeLimit(.minutes(5)))
final class SnapshotTests {
    private func sampleCatalog() async throws -> Catalog {
        let config = try AreasConfig.load(path: Fixtures.samplesConfig)
        // The geocoder's memory is kept beside the snapshot: in a folder of the test's, not the
        // sample config's ~/.cache/areas-samples.
        return await Refresher(config: config, snapshotPath: Fixtures.temporaryDirectory() + "/areas.snapshot").refresh(Catalog()).catalog
    }

    @Test func roundTripKeepsEveryField() async throws {
        let catalog = try await sampleCatalog()
        #expect(catalog.areaCount > 2_000)
        let decoded = try SnapshotFile.decode(SnapshotFile.encode(catalog, createdAt: 1_780_000_000.5))
        #expect(decoded.catalog == catalog)
        #expect(decoded.createdAt == 1_780_000_000.5)
        for name in catalog.sources.keys {
            #expect((decoded.catalog.areas(of: name)) == (catalog.areas(of: name)), Comment(rawValue: name))
            #expect(decoded.fetchedAt[name] == (catalog.sources[name]?.fetchedAt), Comment(rawValue: name))
        }
        #expect(Array(decoded.areas).map(\.id) == (Array(catalog.table).map(\.id).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }), "the table holds every area in id order")
        #expect((try SnapshotFile.decode(SnapshotFile.encode(Catalog())).catalog) == Catalog())
    }

    @Test func truncatedOrFlippedFilesNeverLoad() async throws {
        let bytes = SnapshotFile.encode(try await sampleCatalog())
        var random = SplitMix64(seed: 77)
        for _ in 0..<200 {
            let cut = Int.random(in: 0..<bytes.count, using: &random)
            #expect(throws: (any Error).self, "cut at \(cut)") { try SnapshotFile.decode(Array(bytes.prefix(cut))) }
        }
        for _ in 0..<200 {
            var flipped = bytes
            let at = Int.random(in: 0..<bytes.count, using: &random)
            flipped[at] ^= UInt8.random(in: 1...255, using: &random)
            if let error = #expect(throws: (any Error).self, "flip at \(at)", performing: { try SnapshotFile.decode(flipped) }) {
                guard case .corrupt? = error as? SnapshotFile.Failure else { Issue.record("\(error)"); return }
            }
        }
        if let error = #expect(throws: (any Error).self, performing: { try SnapshotFile.decode(bytes + [0]) }) { #expect("\(error)".contains("truncated or appended")) }
    }

    @Test func atomicWriteAndQuarantine() async throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/areas.snapshot"
        #expect((try SnapshotFile.load(path: path)) == nil, "no snapshot yet is not an error")
        let catalog = try await sampleCatalog()
        try SnapshotFile.write(catalog, to: path)
        #expect((try SnapshotFile.load(path: path)?.catalog) == catalog)
        #expect((try FileManager.default.contentsOfDirectory(atPath: directory)) == ["areas.snapshot"], "no temporary file left")

        // A write to the same path that cannot finish (its temporary name is taken by a folder)
        // leaves the old file whole.
        let temporary = "\(path).tmp-\(getpid())"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        #expect(throws: (any Error).self) { try SnapshotFile.write(Catalog(), to: path) }
        #expect((try SnapshotFile.load(path: path)?.catalog) == catalog)
        try FileManager.default.removeItem(atPath: temporary)
        // A successful one replaces it whole.
        try SnapshotFile.write(Catalog(), to: path)
        #expect((try SnapshotFile.load(path: path)?.catalog) == Catalog())
        try SnapshotFile.write(catalog, to: path)

        // A torn file is reported, then moved aside.
        let torn = Array(SnapshotFile.encode(catalog).prefix(5_000))
        // A new file at the name: the snapshot is read-only (0440), which only root may write
        // through.
        try FileManager.default.removeItem(atPath: path)
        try Data(torn).write(to: URL(fileURLWithPath: path))
        #expect(throws: (any Error).self) { try SnapshotFile.load(path: path) }
        let moved = try #require(SnapshotFile.quarantine(path: path))
        #expect(moved == (path + ".corrupt"))
        #expect(!(FileManager.default.fileExists(atPath: path)))
        #expect((FileManager.default.contents(atPath: moved).map { [UInt8]($0) }) == torn)
    }
}

@Suite(.offThePool, .timeLimit(.minutes(5)))
final class ChecksumTests {
    /// Published XXH64 test vectors (seed 0).
    @Test func knownVectors() {
        func hash(_ text: String) -> UInt64 { Array(text.utf8).withUnsafeBytes(checksum) }
        #expect(hash("") == 0xEF46_DB37_51D8_E999)
        #expect(hash("abc") == 0x44BC_2CF5_AD77_0999)
        #expect((hash("Nobody inspects the spammish repetition")) == 0xFBCE_A83C_8A37_8BF1)
    }
}
