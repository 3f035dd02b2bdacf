import AreasSystem
import Foundation
import Glibc
import Dispatch
import Testing
import XCTest
import AreasTestTraits

/// An XCTest case, not a Swift Testing one: it reads the allocator's state, which is the whole
/// process's, and Swift Testing runs other suites' tests (and their allocations) beside it, which
/// can leave a free chunk in the probe thread's arena that serves the block without a mapping.
/// XCTest runs one test at a time.
final class FreeMemoryTests: XCTestCase {
    // glibc marks a block that has a mapping of its own with bit 1 of the size word before it.

    /// What the daemon relies on once its data is loaded: blocks of 256 KiB and more get
    /// mappings of their own, even after glibc has raised its threshold past them (it does so
    /// when a larger mapped block is freed), so they return to the kernel when freed.
    ///
    /// Blocks are taken until one needs new memory: free space in the arena (a thread can be
    /// given one that earlier tests used) serves blocks whatever the threshold, but once it is
    /// used up a block comes from a mapping of its own only when the threshold is below its
    /// size. At the raised threshold none of the blocks ever would.
    func testLargeBlocksKeepMappingsOfTheirOwn() throws {
        let huge = try XCTUnwrap(malloc(16 << 20))
        free(huge)  // raises glibc's threshold to 16 MiB (it moves for blocks up to 32 MiB)
        XCTAssertTrue(FreeMemory.mapLargeBlocksSeparately())
        final class Probe: @unchecked Sendable {
            var mapped = false
            var taken = 0
            let done = DispatchSemaphore(value: 0)
        }
        let probe = Probe()
        let thread = Thread {
            var blocks: [UnsafeMutableRawPointer] = []
            // At most 512 MiB in blocks of 4 MiB: more free space than any earlier test leaves.
            while blocks.count < 128, let block = malloc(4 << 20) {
                blocks.append(block)
                if (block - MemoryLayout<Int>.size).load(as: Int.self) & 2 != 0 {
                    probe.mapped = true
                    break
                }
            }
            probe.taken = blocks.count
            for block in blocks { free(block) }
            probe.done.signal()
        }
        thread.start()
        XCTAssertEqual(probe.done.wait(timeout: .now() + 30), .success)
        XCTAssertTrue(probe.mapped, "none of \(probe.taken) blocks of 4 MiB had a mapping of its own")
    }
}

@Suite(.offThePool, .timeLimit(.minutes(5))) struct FileSystemTests {
    private func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "areas-system-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func exclusiveCreationRefusesAPlantedSymbolicLink() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/target"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: target)
        let error = #expect(throws: SystemError.self) {
            try FileDescriptor.open(directory + "/link", [.writeOnly, .create, .exclusive, .noFollow])
        }
        #expect(error?.errno == EEXIST)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    }

    @Test func statusTellsTheKindOfFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try FileSystem.status(of: directory + "/nothing") == nil)
        #expect(mkfifo(directory + "/fifo", 0o600) == 0)
        #expect(try FileSystem.status(of: directory + "/fifo")?.kind == .fifo)
        #expect(try FileSystem.status(of: directory)?.kind == .directory)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: directory + "/file"))
        let file = try #require(try FileSystem.status(of: directory + "/file"))
        #expect(file.kind == .regular)
        #expect(file.size == 3)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: directory + "/file")
        #expect(try FileSystem.status(of: directory + "/link", followLinks: false)?.kind == .symbolicLink)
        #expect(try FileSystem.status(of: directory + "/link")?.inode == file.inode)
    }

    @Test func readUpToStopsAtTheEnd() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data((0..<100).map { UInt8($0) }).write(to: URL(fileURLWithPath: directory + "/file"))
        let file = try FileDescriptor.open(directory + "/file", [])
        defer { file.close() }
        #expect(try file.read(upTo: 10) == (0..<10).map { UInt8($0) })
        #expect(try file.read(upTo: 1000) == (10..<100).map { UInt8($0) })
        #expect(try file.read(upTo: 10).isEmpty)
    }
}

@Suite(.offThePool, .timeLimit(.minutes(5))) struct DatagramSenderTests {
    @Test(arguments: [false, true])
    func messagesArriveWhole(abstract: Bool) throws {
        let name = "areas-test-\(UUID().uuidString.prefix(8))"
        let path = abstract ? "@" + name : NSTemporaryDirectory() + name
        defer { if !abstract { unlink(path) } }
        // The receiving end, as systemd binds it.
        let receiver = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(receiver >= 0)
        defer { close(receiver) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(receiver, $0, length) } }
        try #require(bound == 0)

        let sender = try #require(DatagramSender(path: path))
        for message in ["READY=1\nSTATUS=serving 10 areas", "WATCHDOG=1"] {
            try sender.send(Array(message.utf8))
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = recv(receiver, &buffer, buffer.count, 0)
            #expect(String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self) == message)
        }
    }

    @Test func aNameTooLongIsRefused() {
        #expect(DatagramSender(path: "/" + String(repeating: "x", count: 200)) == nil)
    }
}
