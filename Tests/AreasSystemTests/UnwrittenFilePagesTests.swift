import AreasSystem
import AreasTestTraits
import Foundation
import Glibc
import Testing

/// `FreeMemory.releaseUnwrittenFilePages` lets go of a read-only file mapping's pages, which
/// read the same afterwards, and leaves alone a mapping that was written before it was made
/// read-only (as a library's relocated tables are), whose written bytes must stay.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct UnwrittenFilePagesTests {
    /// This process's resident and copied KiB of the mapping starting at `address`.
    static func mapping(at address: UnsafeMutableRawPointer) -> (resident: Int, copied: Int)? {
        let start = String(UInt(bitPattern: address), radix: 16)
        var inside = false
        var resident: Int?, copied: Int?
        for line in (ProcFile.read("/proc/self/smaps") ?? "").split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.last != ":" {
                if inside { break }
                inside = first.split(separator: "-").first.map { $0.drop { $0 == "0" } == start.drop { $0 == "0" } } ?? false
            } else if inside, fields.count >= 2 {
                if first == "Rss:" { resident = Int(fields[1]) }
                if first == "Anonymous:" { copied = Int(fields[1]) }
            }
        }
        guard let resident, let copied else { return nil }
        return (resident, copied)
    }

    @Test func readOnlyPagesGoAndWrittenOnesStay() throws {
        let folder = NSTemporaryDirectory() + "areas-pages-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let size = 4 << 20
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let path = folder + "/pages"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        // A read-only private mapping, every page read: resident, none copied.
        let read = try #require(mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0).flatMap { $0 == MAP_FAILED ? nil : $0 })
        defer { munmap(read, size) }
        var sum = 0
        for page in stride(from: 0, to: size, by: 4096) { sum &+= Int(read.load(fromByteOffset: page, as: UInt8.self)) }
        // A private mapping written, then made read-only: its pages are copies.
        let written = try #require(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0).flatMap { $0 == MAP_FAILED ? nil : $0 })
        defer { munmap(written, size) }
        for page in stride(from: 0, to: size, by: 4096) { written.storeBytes(of: 0xA5, toByteOffset: page, as: UInt8.self) }
        try #require(mprotect(written, size, PROT_READ) == 0)
        let before = try #require(Self.mapping(at: read))
        #expect(before.resident >= 4_000 && before.copied == 0, "\(before)")
        #expect((Self.mapping(at: written)?.copied ?? 0) >= 4_000)

        let released = FreeMemory.releaseUnwrittenFilePages()
        #expect(released >= 4_000 * 1024, "\(released) bytes")
        let after = try #require(Self.mapping(at: read))
        #expect(after.resident < 100, "\(after.resident) KiB still resident")
        // The same bytes come back from the file.
        #expect(memcmp(read, bytes, size) == 0)
        var again = 0
        for page in stride(from: 0, to: size, by: 4096) { again &+= Int(read.load(fromByteOffset: page, as: UInt8.self)) }
        #expect(again == sum)
        // The written mapping kept its writes.
        #expect(stride(from: 0, to: size, by: 4096).allSatisfy { written.load(fromByteOffset: $0, as: UInt8.self) == 0xA5 })
        #expect((Self.mapping(at: written)?.copied ?? 0) >= 4_000)
    }
}
