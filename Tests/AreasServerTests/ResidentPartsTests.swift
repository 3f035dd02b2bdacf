import AreasSystem
import Foundation
import Glibc
import Testing
@testable import AreasProtocol
@testable import AreasTestSupport
import AreasTestTraits

/// `stats` breaks a real daemon's resident memory down by part; checked against what the
/// kernel says of the same process.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(3)))
final class ResidentPartsTests {
    private let daemons = StartedDaemons()

    @Test func thePartsAddUpToTheResidentSize() async throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try Fixtures.sampleConfig(in: directory)
        let socket = directory + "/areasd.sock"
        let (daemon, _) = try daemons.start(["--config", directory + "/areasd.json", "--socket", socket])
        #expect(DaemonQuestions.waitUntilLoaded(socket, seconds: 30))
        // Questions that read records, text, the trees and the search index.
        for question in ["near 37.53 126.97 -k 50", "bbox 33 124 39 132", "search 흡연 --near 37.55,126.97"] {
            let asked = try Binaries.run("areasctl", ["--socket", socket, "--json"] + question.split(separator: " ").map(String.init))
            #expect(asked.status == 0, Comment(rawValue: asked.stderr))
        }
        let asked = try Binaries.run("areasctl", ["--socket", socket, "--json", "stats"])
        let stats = try JSONParser.parse(Array(asked.stdout.utf8.dropLast()))
        let memory = try #require(stats["memory"])
        func bytes(_ key: String) -> Double { memory[key]?.double ?? -1 }
        guard case .object(let parts)? = memory["residentParts"] else {
            Issue.record("no residentParts in \(asked.stdout)")
            return
        }
        #expect(Set(parts.map(\.0)) == ["text", "records", "mergeGroups", "index", "shapes", "search"])
        let partsTotal = parts.reduce(0) { $0 + ($1.1.double ?? 0) }
        #expect(partsTotal > 0 && bytes("otherFileBytes") > 0 && bytes("heapOtherBytes") > 0 && bytes("anonymousUnallocatedBytes") >= 0)
        let accounted = bytes("accountedBytes"), resident = bytes("residentBytes")
        #expect(accounted == partsTotal + bytes("otherFileBytes") + bytes("heapOtherBytes") + bytes("anonymousUnallocatedBytes"))
        #expect(abs(accounted - resident) <= resident * 0.1, "\(accounted) bytes accounted for of \(resident) resident")

        // The served data lies in the mapped snapshot: the parts are its resident pages, as the
        // daemon's smaps counts them (the file's header and source list aside).
        let snapshot = try #require(stats["snapshot"]?["path"]?.string)
        let inode = try #require((try FileManager.default.attributesOfItem(atPath: snapshot))[.systemFileNumber] as? NSNumber).uint64Value
        let mapped = (MemoryMapping.ofProcess(daemon.processIdentifier) ?? []).filter { $0.inode == inode }.reduce(0) { $0 + $1.residentBytes }
        #expect(mapped > 0)
        #expect(partsTotal <= Double(mapped) && partsTotal >= Double(mapped) - 64 * 1024, "parts \(partsTotal) bytes, the snapshot's mapping \(mapped) resident")
    }
}
