import Foundation
import XCTest
@testable import AreasCore
@testable import AreasIngest
@testable import AreasProtocol
@testable import AreasTestSupport

final class SnapshotTests: XCTestCase {
    private func sampleCatalog() async throws -> Catalog {
        let config = try AreasConfig.load(path: Fixtures.path("config/areasd.json"))
        return await Refresher(config: config).refresh(Catalog()).catalog
    }

    func testRoundTripKeepsEveryField() async throws {
        let catalog = try await sampleCatalog()
        XCTAssertGreaterThan(catalog.areaCount, 2_000)
        let decoded = try SnapshotFile.decode(SnapshotFile.encode(catalog, createdAt: 1_780_000_000.5))
        XCTAssertEqual(decoded.catalog, catalog)
        XCTAssertEqual(decoded.createdAt, 1_780_000_000.5)
        for name in catalog.sources.keys {
            XCTAssertEqual(decoded.catalog.areas(of: name), catalog.areas(of: name), name)
            XCTAssertEqual(decoded.fetchedAt[name], catalog.sources[name]?.fetchedAt, name)
        }
        XCTAssertEqual(Array(decoded.areas).map(\.id), Array(catalog.table).map(\.id).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) },
                       "the table holds every area in id order")
        XCTAssertEqual(try SnapshotFile.decode(SnapshotFile.encode(Catalog())).catalog, Catalog())
    }

    func testTruncatedOrFlippedFilesNeverLoad() async throws {
        let bytes = SnapshotFile.encode(try await sampleCatalog())
        var random = SplitMix64(seed: 77)
        for _ in 0..<200 {
            let cut = Int.random(in: 0..<bytes.count, using: &random)
            XCTAssertThrowsError(try SnapshotFile.decode(Array(bytes.prefix(cut))), "cut at \(cut)")
        }
        for _ in 0..<200 {
            var flipped = bytes
            let at = Int.random(in: 0..<bytes.count, using: &random)
            flipped[at] ^= UInt8.random(in: 1...255, using: &random)
            XCTAssertThrowsError(try SnapshotFile.decode(flipped), "flip at \(at)") { error in
                guard case .corrupt? = error as? SnapshotFile.Failure else { return XCTFail("\(error)") }
            }
        }
        XCTAssertThrowsError(try SnapshotFile.decode(bytes + [0])) { XCTAssertTrue("\($0)".contains("truncated or appended")) }
    }

    func testAtomicWriteAndQuarantine() async throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/areas.snapshot"
        XCTAssertNil(try SnapshotFile.load(path: path), "no snapshot yet is not an error")
        let catalog = try await sampleCatalog()
        try SnapshotFile.write(catalog, to: path)
        XCTAssertEqual(try SnapshotFile.load(path: path)?.catalog, catalog)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["areas.snapshot"], "no temporary file left")

        // A write to the same path that cannot finish (its temporary name is taken by a folder)
        // leaves the old file whole.
        let temporary = "\(path).tmp-\(getpid())"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        XCTAssertThrowsError(try SnapshotFile.write(Catalog(), to: path))
        XCTAssertEqual(try SnapshotFile.load(path: path)?.catalog, catalog)
        try FileManager.default.removeItem(atPath: temporary)
        // A successful one replaces it whole.
        try SnapshotFile.write(Catalog(), to: path)
        XCTAssertEqual(try SnapshotFile.load(path: path)?.catalog, Catalog())
        try SnapshotFile.write(catalog, to: path)

        // A torn file is reported, then moved aside.
        let torn = Array(SnapshotFile.encode(catalog).prefix(5_000))
        try Data(torn).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try SnapshotFile.load(path: path))
        let moved = try XCTUnwrap(SnapshotFile.quarantine(path: path))
        XCTAssertEqual(moved, path + ".corrupt")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(FileManager.default.contents(atPath: moved).map { [UInt8]($0) }, torn)
    }
}

final class ChecksumTests: XCTestCase {
    /// Published XXH64 test vectors (seed 0).
    func testKnownVectors() {
        func hash(_ text: String) -> UInt64 { Array(text.utf8).withUnsafeBytes(checksum) }
        XCTAssertEqual(hash(""), 0xEF46_DB37_51D8_E999)
        XCTAssertEqual(hash("abc"), 0x44BC_2CF5_AD77_0999)
        XCTAssertEqual(hash("Nobody inspects the spammish repetition"), 0xFBCE_A83C_8A37_8BF1)
    }
}
