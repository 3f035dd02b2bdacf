import AreasCore
import AreasTestSupport
import Foundation
import Glibc
import Testing
@testable import AreasIngest
import AreasTestTraits

/// What the geocoder said is written the way the snapshot is: a daemon killed with SIGKILL at
/// any moment of a refresh leaves the old memory or the new one, never a torn file, and the
/// next start reads it without a problem.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct GeocodeMemoryCrashTests {
    /// The daemons this test starts, killed when it ends however it ends.
    private let daemons = StartedDaemons()

    static func answer(_ query: String) -> (Double, Double)? {
        guard let n = query.split(separator: " ").last.flatMap({ Int($0) }) else { return nil }
        return (37.4 + Double(n) * 1e-5, 127.0 + Double(n) * 1e-5)
    }

    @Test func killedWhileWritingLeavesAWholeMemory() throws {
        let server = try LoopbackHTTPServer { request in
            guard let (lat, lon) = Self.answer(request.query["query"] ?? "") else { return .text(200, #"{"documents":[]}"#) }
            return .text(200, #"{"meta":{"total_count":1},"documents":[{"x":"\#(lon)","y":"\#(lat)"}]}"#)
        }
        defer { server.stop() }
        let folder = Fixtures.temporaryDirectory()
        let memoryPath = folder + "/areas.geocoded.json"
        try Data("""
            {"snapshot": "areas.snapshot", "geocoder": {"provider": "kakao", "url": "\(server.baseURL)", "keyEnv": "TEST_KEY", "requestsPerSecond": 1000},
             "sources": [{"name": "rows", "kind": "smoking", "format": "csv", "file": "rows.csv", "fields": {"name": "장소", "address": "주소"},
               "geocode": {"query": "서울특별시 {주소}"}}]}
            """.utf8).write(to: URL(fileURLWithPath: folder + "/areasd.json"))
        var rows = 0
        var known = 0
        // Each round adds rows, starts a daemon and kills it: the first six at different points
        // of its refresh; the seventh the moment its memory is renamed into place, so the
        // rounds after it have a memory to keep whatever the machine's speed; the last three
        // the moment it creates the memory's temporary file (seen through inotify), so a kill
        // lands while the new memory is being written: its temporary is then still there,
        // unrenamed, and the memory must be the old one whole.
        enum Kill { case after(Double), whenWritten, midWrite }
        let kills: [Kill] = [.after(0.3), .after(0.8), .after(1.5), .after(2.5), .after(3.5), .after(5.0), .whenWritten, .midWrite, .midWrite, .midWrite]
        var landedMidWrite = 0
        for (round, kill) in kills.enumerated() {
            var csv = rows == 0 ? "장소,주소\n" : try String(contentsOfFile: folder + "/rows.csv", encoding: .utf8)
            for i in rows..<(rows + 300) { csv += "흡연부스 \(i),중앙로 \(i)\n" }
            rows += 300
            try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/rows.csv"))
            // No snapshot, so every start refreshes (and geocodes the new rows) at once.
            try? FileManager.default.removeItem(atPath: folder + "/areas.snapshot")
            let watch = try CreationWatch(folder)
            let (process, _) = try daemons.start(["--config", folder + "/areasd.json", "--socket", folder + "/s\(round)"], environment: ["TEST_KEY": "k"])
            let memoryName = (memoryPath as NSString).lastPathComponent
            switch kill {
            case .after(let delay):
                usleep(useconds_t(delay * 1e6))
                Glibc.kill(process.processIdentifier, SIGKILL)
            case .whenWritten, .midWrite:
                let seen = watch.wait(seconds: 60, for: { name in
                    if case .whenWritten = kill { return name == memoryName }
                    return name.hasPrefix(memoryName + ".tmp-")
                }) { Glibc.kill(process.processIdentifier, SIGKILL) }
                #expect(seen, "round \(round): no memory was written within 60 s")
                if !seen { Glibc.kill(process.processIdentifier, SIGKILL) }
            }
            process.waitUntilExit()
            let temporary = memoryPath + ".tmp-\(process.processIdentifier)"
            if case .midWrite = kill, FileManager.default.fileExists(atPath: temporary) { landedMidWrite += 1 }
            try? FileManager.default.removeItem(atPath: temporary)

            let (memory, problem) = GeocodeMemory.load(path: memoryPath, bounds: .korea)
            #expect(problem == nil, "round \(round): \(problem ?? "")")
            #expect(memory.entries.count >= known, "round \(round): the memory never loses what it had")
            known = memory.entries.count
            if case .whenWritten = kill { #expect(known == rows, "round \(round): the memory written holds every row's answer") }
            for (question, entry) in memory.entries {
                guard case .found(let point, _) = entry, let (lat, lon) = Self.answer(question.text) else {
                    Issue.record("round \(round): \(question) is not a position the geocoder gave")
                    continue
                }
                #expect(abs(point.latitude - lat) < 1e-9 && abs(point.longitude - lon) < 1e-9)
            }
        }
        #expect(known > 0, "no memory was ever written")
        #expect(landedMidWrite >= 1, "no kill landed while a memory was being written")
    }
}

/// Files created or renamed into a folder, as inotify reports them.
final class CreationWatch {
    private let fd: Int32

    init(_ folder: String) throws {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw SystemError.last("inotify_init1") }
        guard inotify_add_watch(fd, folder, UInt32(IN_CREATE | IN_MOVED_TO)) >= 0 else {
            close(fd)
            throw SystemError.last("inotify_add_watch")
        }
    }

    struct SystemError: Error {
        var call: String
        var errno: Int32
        static func last(_ call: String) -> SystemError { SystemError(call: call, errno: Glibc.errno) }
    }

    /// Calls `then` the moment a file whose name `matches` is created or renamed into the
    /// folder; false when none is within `seconds`.
    func wait(seconds: Double, for matches: (String) -> Bool, then: () -> Void) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 8192)
        while Date() < deadline {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) == 1 else { continue }
            let count = read(fd, &buffer, buffer.count)
            // Each event: wd, mask, cookie, the name's length (4 bytes each), then the name,
            // padded with NULs.
            var offset = 0
            while count > 0 && offset + 16 <= count {
                let length = buffer[(offset + 12)..<(offset + 16)].reversed().reduce(0) { $0 << 8 | Int($1) }
                let name = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                if matches(String(decoding: name, as: UTF8.self)) {
                    then()
                    return true
                }
                offset += 16 + length
            }
        }
        return false
    }

    deinit { close(fd) }
}
