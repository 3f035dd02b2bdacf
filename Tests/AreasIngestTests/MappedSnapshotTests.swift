import AreasCore
@testable import AreasIngest
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// Format 5: the index is served from the mapped file. What is served in place must answer
/// exactly as the index built in memory and as a brute-force scan; a file with a valid
/// checksum and hostile numbers must be refused or be harmless; an old mapping must outlive
/// its file; and a load must leave the file's pages out of the process's resident set.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct MappedSnapshotTests {
    private let directory = Fixtures.temporaryDirectory()
    private var path: String { directory + "/areas.snapshot" }

    /// Areas of three sources, both kinds, zones with sizes (so both footprint bands fill) and
    /// extent words of every kind the footprint rule reads.
    static func catalog(count: Int, seed: UInt64) -> Catalog {
        let points = SyntheticPoints.clustered(count: count, seed: seed)
        let words = ["", "시설전체", "학교출입문으로부터 50미터 이내", "어린이집 시설경계로부터 10m 이내", "초등학교 통학로", "출입구 주변", "476m"]
        let areas = points.enumerated().map { i, point in
            let source = "s\(i % 3)"
            return Area(id: "\(source):\(String(i, radix: 16))", kind: i % 5 == 0 ? .smoking : .nonsmoking, name: "구역 \(i)",
                        coordinate: point, roadAddress: "서울특별시 \(i % 7)길", province: i % 2 == 0 ? "서울특별시" : "부산광역시",
                        district: "구\(i % 4)", source: source,
                        fields: [Field("prhsmkAr", String(i % 9 == 0 ? 90_000 : i % 700)), Field("금연구역범위상세", words[i % words.count])])
        }
        let now = Date().timeIntervalSince1970
        return Catalog(areas: areas, fetchedAt: ["s0": now - 60, "s1": now - 120, "s2": now - 180, "empty": now - 10])
    }

    @Test(arguments: [0, 1, 37, 5_000])
    func servedInPlaceAnswersAsTheIndexBuiltInMemory(count: Int) throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let catalog = Self.catalog(count: count, seed: UInt64(count) + 7)
        let built = catalog.index()
        let written = try SnapshotFile.writeMapped(catalog, index: built, to: path)
        let loaded = try #require(try SnapshotFile.load(path: path))
        for contents in [written, loaded] {
            let mapped = try #require(contents.index)
            #expect(contents.version == SnapshotFile.version)
            #expect(contents.catalog == catalog)
            #expect(contents.catalog.sources == catalog.sources)
            #expect(mapped.count(of: .smoking) == built.count(of: .smoking))
            let scan = LinearScan(points: catalog.table.records.map(\.coordinate))
            var random = SplitMix64(seed: 99)
            for _ in 0..<25 {
                let point = SyntheticPoints.point(in: SyntheticPoints.korea, using: &random)
                let nearest = try mapped.nearest(to: point, k: 7)
                #expect(nearest == (try built.nearest(to: point, k: 7)))
                #expect(nearest.map(\.position) == scan.nearest(to: point, k: 7).map { Int($0.payload) })
                #expect(try mapped.areas(within: 20_000, of: point, region: Region(province: "서울특별시")) ==
                        (try built.areas(within: 20_000, of: point, region: Region(province: "서울특별시"))))
                #expect(try mapped.nearest(to: point, k: 3, kind: .smoking) == (try built.nearest(to: point, k: 3, kind: .smoking)))
                let box = SyntheticPoints.box(around: point, fraction: 0.05)
                #expect(try mapped.areas(in: box).map(\.position) == scan.search(intersecting: box).map(Int.init).sorted())
                let check = try mapped.check(point)
                let expected = try built.check(point)
                #expect(check.zones == expected.zones && check.nearestSmoking == expected.nearestSmoking)
            }
            // The footprints as drawn, and their words, served in place.
            for position in catalog.table.indices {
                let (served, drawn) = (mapped.footprint(of: position), built.footprint(of: position))
                #expect(served?.footprint == drawn?.footprint, "\(position)")
                #expect(served.map { mapped.areas.strings.string($0.words) } == drawn.map { built.areas.strings.string($0.words) })
            }
        }
    }

    /// Every four bytes of a small file's body, overwritten with hostile values and sealed
    /// with a valid checksum: each file is refused as corrupt, or loads and answers every
    /// kind of query with positions inside its table.
    @Test(arguments: [UInt32.max, 0x7FF8_0000, 0x8000_0000, 3])
    func hostileNumbersAnywhereAreRefusedOrHarmless(value: UInt32) throws {
        let original = SnapshotFile.encode(Self.catalog(count: 40, seed: 3))
        var refused = 0
        var accepted = 0
        for offset in stride(from: SnapshotFile.headerSize + 36, to: original.count - 3, by: 4) {
            var bytes = original
            HostileSnapshot.write(value, at: offset, in: &bytes)
            let contents: SnapshotFile.Contents
            do {
                contents = try SnapshotFile.decode(bytes)
            } catch {
                guard case .corrupt = error else {
                    Issue.record("offset \(offset): \(error)")
                    continue
                }
                refused += 1
                continue
            }
            accepted += 1
            let index = try #require(contents.index)
            let point = GeoPoint(uncheckedLatitude: 37.5, longitude: 127)
            var positions = try index.nearest(to: point, k: 50).map(\.position)
            positions += try index.areas(within: 500_000, of: point).map(\.position)
            positions += try index.areas(in: SyntheticPoints.korea).map(\.position)
            positions += try index.nearest(to: point, k: 5, kind: .smoking).map(\.position)
            let check = try index.check(point)
            positions += check.zones.map(\.position) + (check.nearestSmoking.map { [$0.position] } ?? [])
            // A footprint's words are one of its record's own fields.
            for position in index.areas.indices {
                if let (_, words) = index.footprint(of: position), words != 0 {
                    let text = index.areas.strings.string(words)
                    #expect(index.areas[position].fields.contains { $0.value == text }, "offset \(offset)")
                }
            }
            #expect(positions.allSatisfy { index.areas.indices.contains($0) }, "offset \(offset)")
            for position in index.areas.indices { #expect(index.area(id: index.areas.id(at: position)) != nil) }
        }
        #expect(refused > 0 && refused + accepted > 1_000)
    }

    /// A format 6 file (written by the build before zones' words were read: Daegu's standard
    /// file, 392 zones) is served with its footprints drawn from its words when it is loaded,
    /// as an index built from its areas now draws them.
    @Test func aFormatSixFileHasItsFootprintsDrawnFromItsWords() throws {
        let contents = try #require(try SnapshotFile.load(path: Fixtures.path("Tests/AreasIngestTests/Fixtures/daegu-zones-version-6.snapshot")))
        #expect(contents.version == 6)
        let index = try #require(contents.index)
        let built = contents.catalog.index()
        try #require(index.count == 392)
        for position in index.areas.indices {
            #expect(index.footprint(of: position)?.footprint == built.footprint(of: position)?.footprint, "\(position)")
        }
        let counts = index.footprintCounts(in: index.areas.indices)
        for basis in [FootprintBasis.stated, .route, .size, .default] { #expect(counts.byBasis[basis, default: 0] > 0, "\(basis)") }
        #expect(counts.wordsNotUnderstood > 0)
        // check tests the radii drawn: inside a school gate's 50 m, where a size alone was 10 m.
        let gate = try #require(index.areas.indices.first { index.areas.field("금연구역범위상세", of: $0) == "학교출입문으로부터 50미터 이내" })
        let at = index.areas.records[gate].coordinate
        let north = GeoPoint(uncheckedLatitude: at.latitude + 30 / Geodesy.earthRadiusMeters * 180 / Double.pi, longitude: at.longitude)
        #expect(try index.check(north).zones.contains { $0.position == gate })
    }

    @Test func aFileLaidOutByAnotherBuildIsRefused() throws {
        let catalog = Self.catalog(count: 10, seed: 1)
        var bytes = SnapshotFile.encode(catalog)
        // The record layout is the first run of numbers after the sources: find the record
        // stride (48) followed by itself, as size and stride.
        let size = UInt64(MemoryLayout<AreaTable.Record>.size).littleEndian
        let pattern = withUnsafeBytes(of: size) { Array($0) + Array($0) }
        let at = try #require((0..<(bytes.count - 16)).first { bytes[$0..<$0 + 16].elementsEqual(pattern) })
        HostileSnapshot.write(UInt64(56), at: at + 8, in: &bytes)
        let error = #expect(throws: SnapshotFile.Failure.self) { try SnapshotFile.decode(bytes) }
        #expect("\(String(describing: error))".contains("laid out"))
    }

    /// A query that holds the old data keeps answering from the old mapping after a refresh
    /// renamed a new file over it and the name is gone.
    @Test func anOldMappingOutlivesItsFile() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = Self.catalog(count: 2_000, seed: 5)
        try SnapshotFile.write(old, to: path)
        let served = try #require(try SnapshotFile.load(path: path)?.index)
        let newer = Self.catalog(count: 300, seed: 6)
        _ = try SnapshotFile.writeMapped(newer, index: newer.index(), to: path)
        try FileManager.default.removeItem(atPath: path)
        let scan = LinearScan(points: old.table.records.map(\.coordinate))
        let point = GeoPoint(uncheckedLatitude: 37.55, longitude: 126.98)
        #expect(try served.nearest(to: point, k: 20).map(\.position) == scan.nearest(to: point, k: 20).map { Int($0.payload) })
        #expect(served.areas.id(at: 0) == old.table.id(at: 0))
    }

    /// A refresh writes its file, lets go of the data it wrote, then checks the file: one
    /// that reads back otherwise than written is removed and never replaces the file in place.
    @Test func aWrittenFileThatFailsItsCheckIsNotPutInPlace() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = Self.catalog(count: 500, seed: 14)
        try SnapshotFile.write(old, to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let newer = Self.catalog(count: 800, seed: 15)
        let temporary = try SnapshotFile.writeUnchecked(newer, index: newer.index(), for: path)
        // One byte of the records turned over on its way to the disk.
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: temporary))
        try file.seek(toOffset: 4_000)
        let byte = try #require(try file.read(upToCount: 1)?.first)
        try file.seek(toOffset: 4_000)
        try file.write(contentsOf: [byte ^ 0x10])
        try file.close()
        let error = #expect(throws: SnapshotFile.Failure.self) { try SnapshotFile.install(temporary, at: path) }
        #expect("\(String(describing: error))".contains("checksum"))
        #expect(!FileManager.default.fileExists(atPath: temporary), "the refused file is removed")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file in place is as it was")
        // Written and installed whole, it is the new data.
        let installed = try SnapshotFile.install(try SnapshotFile.writeUnchecked(newer, index: newer.index(), for: path), at: path)
        #expect(installed.catalog.table == newer.table)
        #expect(try SnapshotFile.load(path: path)?.catalog.table == newer.table)
    }

    /// Loading reads every page once (the checks) and then lets them go: the process holds
    /// only what queries touch (in the kernel's units: with large folios, 2 MiB at a time),
    /// and the kernel's cache, shared by every process mapping the file, holds the rest.
    @Test func loadingLeavesTheFileOutOfTheResidentSet() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try SnapshotFile.write(Self.catalog(count: 20_000, seed: 8), to: path)
        let contents = try #require(try SnapshotFile.load(path: path))
        let fileKiB = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) / 1024
        let resident = try #require(Self.residentKiB(ofMappingOf: path))
        #expect(fileKiB > 1_000 && resident < fileKiB / 10, "\(resident) KiB of \(fileKiB) KiB resident after loading")
        withExtendedLifetime(contents) {}
    }

    /// A refresh reads the whole served set to compare and merge; letting the served file's
    /// pages go then leaves the process holding none of them, and the data still answers.
    @Test func theServedFilesPagesGoWhenARefreshHasReadThem() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try SnapshotFile.write(Self.catalog(count: 20_000, seed: 9), to: path)
        let contents = try #require(try SnapshotFile.load(path: path))
        let dataSet = DataSet(catalog: contents.catalog, index: try #require(contents.index))
        let fileKiB = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) / 1024
        // Every record's text, as a comparison reads it.
        let textBytes = dataSet.catalog.table.indices.reduce(0) { $0 + dataSet.catalog.table[$1].name.utf8.count }
        let touched = try #require(Self.residentKiB(ofMappingOf: path))
        dataSet.catalog.releaseMappedPages()
        let released = try #require(Self.residentKiB(ofMappingOf: path))
        #expect(textBytes > 0 && touched > fileKiB / 4, "\(touched) KiB of \(fileKiB) KiB resident after reading every record")
        #expect(released < fileKiB / 10, "\(released) KiB of \(fileKiB) KiB resident after letting them go")
        #expect(try dataSet.index.nearest(to: GeoPoint(uncheckedLatitude: 37.55, longitude: 126.98), k: 5).count == 5)
    }

    /// The resident size of this process's mapping of `path`, from /proc/self/smaps.
    static func residentKiB(ofMappingOf path: String) -> Int? {
        // Read to the end: procfs files give no size up front.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() else { return nil }
        let smaps = String(decoding: data, as: UTF8.self)
        var inMapping = false
        var total: Int?
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 5 {
                inMapping = fields.count >= 6 && fields[5...].joined(separator: " ") == path
            } else if inMapping, fields.first == "Rss:", fields.count >= 2, let kib = Int(fields[1]) {
                total = (total ?? 0) + kib
            }
        }
        return total
    }
}
