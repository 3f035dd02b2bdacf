import AreasSystem
import AreasTestTraits
import Foundation
import Glibc
import Testing

/// `ResidentPages` against the kernel's smaps count of the same mapping.
@Suite(.offThePool, .timeLimit(.minutes(1)))
struct ResidentPagesTests {
    @Test func countsThePagesTheProcessHoldsEachOnce() throws {
        let page = ResidentPages.pageSize
        let path = NSTemporaryDirectory() + "areas-resident-\(UUID().uuidString.prefix(8))"
        try Data(repeating: 3, count: 64 * page).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = try FileDescriptor.open(path, .readOnly)
        defer { descriptor.close() }
        let file = try MappedFile(descriptor, path: path)
        file.releaseResidentPages()
        // The kernel maps pages around a faulting one that its cache holds, so how many pages
        // a touch brings in is its business: the oracle is its own count for the mapping.
        let touched = [0, 5, 20, 40, 63]
        var sum = 0
        for index in touched { sum += Int(file.bytes[index * page + 100]) }
        #expect(sum == 3 * touched.count)
        let smaps = try #require(MemoryMapping.ofProcess()?.first { $0.start == UInt(bitPattern: file.bytes.baseAddress) })
        #expect(smaps.residentBytes >= touched.count * page)

        let counter = ResidentPages()
        #expect(counter.count(file.bytes) == smaps.residentBytes)
        // Counted already: nothing the second time, nor for a range inside what was counted.
        #expect(counter.count(file.bytes) == 0)
        #expect(counter.count(UnsafeRawBufferPointer(rebasing: file.bytes[(5 * page)..<(5 * page + 10)])) == 0)
        // Ranges in ascending order that share a resident page (page 5) count it once: the two
        // add up to what one range over both counts.
        #expect(ResidentPages().count(UnsafeRawBufferPointer(rebasing: file.bytes[(5 * page)..<(5 * page + 10)])) == page)
        let ordered = ResidentPages()
        let first = ordered.count(UnsafeRawBufferPointer(rebasing: file.bytes[0..<(5 * page + 8)]))
        let second = ordered.count(UnsafeRawBufferPointer(rebasing: file.bytes[(5 * page + 8)..<(30 * page)]))
        #expect(first > 0 && second > 0)
        #expect(first + second == ResidentPages().count(UnsafeRawBufferPointer(rebasing: file.bytes[0..<(30 * page)])))

        // Let go of, the pages stay in the kernel's cache of the file but the process no
        // longer holds them: not counted.
        file.releaseResidentPages()
        #expect(ResidentPages().count(file.bytes) == 0)
    }
}
