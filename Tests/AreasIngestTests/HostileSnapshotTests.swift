import AreasCore
import AreasIngest
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc
import Testing

/// Snapshot files an attacker (or a broken disk) could leave: each is refused with a reason,
/// quickly, without a crash, a hang or a huge allocation, and writing never follows a link.
@Suite struct HostileSnapshotTests {
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

    @Test func aFIFOAtThePathIsRefusedWithoutWaiting() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try #require(mkfifo(path, 0o600) == 0)
        let error = #expect(throws: SnapshotFile.Failure.self) { try SnapshotFile.load(path: path) }
        #expect("\(String(describing: error))".contains("not a regular file"))
    }

    @Test func aHugeSparseFileIsRefusedBeforeItIsRead() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(SnapshotFile.encode(catalog(fetchedAt: Date().timeIntervalSince1970)).prefix(40)).write(to: URL(fileURLWithPath: path))
        try #require(truncate(path, 64 << 30) == 0)
        let error = #expect(throws: SnapshotFile.Failure.self) { try SnapshotFile.load(path: path) }
        #expect("\(String(describing: error))".contains("larger than"))
    }

    @Test func aLargeFileWithTheWrongMagicIsRefusedByItsHeader() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(repeating: 0x41, count: 64).write(to: URL(fileURLWithPath: path))
        try #require(truncate(path, 1 << 30) == 0)
        let error = #expect(throws: SnapshotFile.Failure.self) { try SnapshotFile.load(path: path) }
        #expect("\(String(describing: error))".contains("bad magic"))
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
}
