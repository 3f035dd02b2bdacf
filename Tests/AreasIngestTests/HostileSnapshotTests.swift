import AreasCore
@testable import AreasIngest
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc
import Testing
import AreasTestTraits

/// Snapshot files an attacker (or a broken disk) could leave: each is refused with a reason,
/// quickly, without a crash, a hang or a huge allocation, and writing never follows a link.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct HostileSnapshotTests {
    private let directory = Fixtures.temporaryDirectory()
    private var path: String { directory + "/areas.snapshot" }

    private func catalog(fetchedAt: Double) -> Catalog {
        let area = Area(id: "x:1", kind: .smoking, name: "a", coordinate: GeoPoint(uncheckedLatitude: 37.5, longitude: 127), source: "x")
        return Catalog(areas: [area], fetchedAt: ["x": fetchedAt])
    }

    @Test(arguments: [-Double.infinity, .infinity, -1, 1e300, Date().timeIntervalSince1970 + 10 * 86_400])
    func implausibleFetchTimesAreRefusedDespiteAValidChecksum(fetchedAt: Double) throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bytes = SnapshotFile.encode(catalog(fetchedAt: fetchedAt))
        let error = #expect(throws: SnapshotFile.Failure.self) { try SnapshotFile.decode(bytes) }
        guard case .corrupt(_, let reason)? = error else {
            Issue.record("not refused as corrupt: \(String(describing: error))")
            return
        }
        #expect(reason.contains("fetched at"))
    }

    @Test func aPlausibleOneLoads() throws {
        let bytes = SnapshotFile.encode(catalog(fetchedAt: Date().timeIntervalSince1970 - 3600))
        #expect(try SnapshotFile.decode(bytes).areas.count == 1)
    }

    @Test func aFIFOAtThePathIsRefusedWithoutWaiting() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try #require(mkfifo(path, 0o600) == 0)
        let path = self.path
        // A load that waits for a writer fails here after 10 s (a writer then comes and goes).
        let outcome = await OffThePool.value(within: 10, unblocking: { Fixtures.openAndCloseWriter(path) }) { "\(Result { try SnapshotFile.load(path: path) })" }
        #expect(try #require(outcome, "the load waited for a writer").contains("not a regular file"))
    }

    /// The load's error, and how many bytes and how much CPU time its thread spent to reach it
    /// (a file mapped and checksummed would be read by page faults, which `rchar` misses).
    static func refusal(_ path: String) async -> (error: String, bytesRead: Int?, cpuSeconds: Double) {
        await OffThePool.value {
            let before = ThisThread.bytesRead(), cpu = ThisThread.cpuSeconds()
            let result = Result { try SnapshotFile.load(path: path) }
            let after = ThisThread.bytesRead(), spent = ThisThread.cpuSeconds() - cpu
            guard case .failure(let error) = result else { return ("loaded", nil, spent) }
            return ("\(error)", before.flatMap { b in after.map { $0 - b } }, spent)
        }
    }

    @Test func aHugeSparseFileIsRefusedBeforeItIsRead() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(SnapshotFile.encode(catalog(fetchedAt: Date().timeIntervalSince1970)).prefix(40)).write(to: URL(fileURLWithPath: path))
        try #require(truncate(path, 64 << 30) == 0)
        let (error, bytesRead, cpuSeconds) = await Self.refusal(path)
        #expect(error.contains("larger than"), "\(error)")
        #expect(try #require(bytesRead) < 64 << 10, "read \(bytesRead ?? 0) bytes of a file refused by its size")
        #expect(cpuSeconds < 0.5, "\(cpuSeconds) s of CPU to refuse a file by its size")
    }

    @Test func aLargeFileWithTheWrongMagicIsRefusedByItsHeader() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(repeating: 0x41, count: 64).write(to: URL(fileURLWithPath: path))
        try #require(truncate(path, 1 << 30) == 0)
        let (error, bytesRead, cpuSeconds) = await Self.refusal(path)
        #expect(error.contains("bad magic"), "\(error)")
        #expect(try #require(bytesRead) < 64 << 10, "read \(bytesRead ?? 0) bytes of a file refused by its header")
        #expect(cpuSeconds < 0.5, "\(cpuSeconds) s of CPU to refuse a file by its header")
    }

    @Test func aFolderAtThePathIsCorrupt() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let error = #expect(throws: SnapshotFile.Failure.self) { try SnapshotFile.load(path: path) }
        guard case .corrupt? = error else { Issue.record("\(String(describing: error))"); return }
    }

    /// Root reads any file, so only another user can see a permission error.
    @Test(.enabled(if: getuid() != 0, "root reads every file"))
    func aFileItMayNotReadIsUnreadableNotCorrupt() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try SnapshotFile.write(catalog(fetchedAt: Date().timeIntervalSince1970), to: path)
        try #require(chmod(path, 0) == 0)
        let error = #expect(throws: SnapshotFile.Failure.self) { try SnapshotFile.load(path: path) }
        guard case .unreadable? = error else { Issue.record("\(String(describing: error))"); return }
    }

    @Test func aLinkPlantedAtTheTemporaryNameIsNeverWrittenThrough() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let victim = directory + "/victim"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: "\(path).tmp-\(getpid())", withDestinationPath: victim)
        try SnapshotFile.write(catalog(fetchedAt: Date().timeIntervalSince1970), to: path)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(try FileSystem.status(of: path, followLinks: false)?.kind == .regular)
        #expect(try SnapshotFile.load(path: path)?.areas.count == 1)
    }

    /// A file with a valid checksum whose area points into the middle of a string.
    @Test func aReferenceThatStartsNoStringIsRefused() throws {
        let catalog = catalog(fetchedAt: Date().timeIntervalSince1970)
        var bytes = SnapshotFile.encode(catalog)
        // The record is the first place the area's latitude and longitude lie side by side.
        let at = try #require(HostileSnapshot.offset(of: catalog.table.records[0].coordinate, in: bytes))
            + MemoryLayout<AreaTable.Record>.offset(of: \.id)!
        HostileSnapshot.write(UInt32(2), at: at, in: &bytes)
        let error = #expect(throws: SnapshotFile.Failure.self) { try SnapshotFile.decode(bytes) }
        #expect("\(String(describing: error))".contains("starts no string"))
    }

    /// A snapshot written by the build before this format (version 2) still loads, whole.
    @Test func aVersionTwoSnapshotStillLoads() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = try #require(try SnapshotFile.load(path: Fixtures.path("Tests/AreasIngestTests/Fixtures/yongsan-version-2.snapshot")))
        let config = """
            {"sources": [{"name": "yongsan", "kind": "smoking", "format": "odcloud-json", "pages": "\(Fixtures.root)/Tests/AreasIngestTests/Fixtures/yongsan-pages-of-the-fixtures", "province": "서울특별시",
             "fields": {"name": "서울특별시 용산구 설치 위치", "latitude": "위도", "longitude": "경도", "address": "서울특별시 용산구 설치 위치", "district": "자치구명"}}]}
            """
        let fresh = await Refresher(config: try AreasConfig.parse(Data(config.utf8), path: directory + "/areasd.json")).refresh(Catalog()).catalog
        #expect(old.catalog.areas(of: "yongsan") == fresh.areas(of: "yongsan"))
        #expect(old.catalog.areaCount == SampleCounts.yongsan)
        // Written again, it is the current version and reads back the same.
        let again = try SnapshotFile.decode(SnapshotFile.encode(old.catalog))
        #expect(again.catalog == old.catalog)
    }
}
