import AreasSystem
import AreasTestTraits
import Foundation
import Testing

/// `MemoryMapping.parse` against a plain field-splitting reading of the same smaps text.
@Suite(.offThePool, .timeLimit(.minutes(1)))
struct MemoryMappingTests {
    /// The mappings as the kernel's format describes them, read by splitting on spaces.
    static func splitReading(_ text: String) -> [MemoryMapping] {
        var mappings: [MemoryMapping] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if !first.hasSuffix(":") {
                var mapping = MemoryMapping()
                let bounds = first.split(separator: "-")
                mapping.start = UInt(bounds[0], radix: 16) ?? 0
                mapping.end = UInt(bounds[1], radix: 16) ?? 0
                let permissions = Array(fields[1])
                mapping.readable = permissions[0] == "r"
                mapping.writable = permissions[1] == "w"
                mapping.executable = permissions[2] == "x"
                mapping.shared = permissions[3] == "s"
                mapping.inode = UInt64(fields[4]) ?? 0
                mapping.name = fields.count > 5 ? fields[5...].joined(separator: " ") : ""
                mappings.append(mapping)
            } else if !mappings.isEmpty, fields.count >= 2, let kib = Int(fields[1]) {
                switch first {
                case "Rss:": mappings[mappings.count - 1].residentBytes = kib * 1024
                case "Pss:": mappings[mappings.count - 1].proportionalBytes = kib * 1024
                case "Anonymous:": mappings[mappings.count - 1].anonymousBytes = kib * 1024
                case "Shared_Clean:", "Shared_Dirty:": mappings[mappings.count - 1].sharedBytes += kib * 1024
                default: break
                }
            }
        }
        return mappings
    }

    @Test func thisProcessReadsAsTheFieldsSay() throws {
        let bytes = try #require(ProcFile.bytes("/proc/self/smaps"))
        let parsed = bytes.withUnsafeBufferPointer { MemoryMapping.parse(smaps: $0) }
        let expected = Self.splitReading(String(decoding: bytes, as: UTF8.self))
        #expect(parsed.count > 10)
        #expect(parsed == expected)
        #expect(parsed.contains { $0.isFile && $0.executable && $0.residentBytes > 0 })
        #expect(parsed.contains { $0.name == "[stack]" && $0.writable })
    }

    @Test func aFileMappedAndReadIsFoundByItsInode() throws {
        let path = NSTemporaryDirectory() + "areas-mapping-\(UUID().uuidString.prefix(8))"
        let size = 1 << 20
        try Data(repeating: 7, count: size).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = try FileDescriptor.open(path, .readOnly)
        defer { descriptor.close() }
        let file = try MappedFile(descriptor, path: path)
        var sum = 0
        for page in stride(from: 0, to: size, by: 4096) { sum += Int(file.bytes[page]) }
        #expect(sum == 7 * size / 4096)
        let inode = try #require((try FileManager.default.attributesOfItem(atPath: path))[.systemFileNumber] as? NSNumber).uint64Value
        let mapping = try #require(MemoryMapping.ofProcess()?.first { $0.inode == inode })
        #expect(mapping.name == path && mapping.readable && !mapping.writable && mapping.shared)
        #expect(mapping.end - mapping.start == UInt(size) && mapping.residentBytes == size && mapping.anonymousBytes == 0)
    }

    /// Text that is not smaps, or is cut short, gives what it can and never traps.
    @Test(arguments: [
        ("Rss: 4 kB\n", 0),
        ("zz-yy r-xp\nRss: x kB\n", 0),
        ("0-yy r-xp\nRss: x kB\n", 1),
        ("1000-2000\n", 1),
        ("1000-2000 r-xp 0 08:01 5 /bin/a b\nRss: 99999999999999999999999 kB\nAnonymous: 8 kB", 1),
        ("1000-2000 r-\nPss:\n\n\n   \n2000-3000 rw-p", 2),
    ])
    func malformedTextNeverTraps(text: String, mappings: Int) {
        let parsed = Array(text.utf8).withUnsafeBufferPointer { MemoryMapping.parse(smaps: $0) }
        #expect(parsed.count == mappings)
        #expect(parsed.allSatisfy { $0.residentBytes == 0 && $0.proportionalBytes == 0 })
        if text.contains("/bin/a b") {
            #expect(parsed.first?.name == "/bin/a b" && parsed.first?.inode == 5 && parsed.first?.anonymousBytes == 8192)
            #expect(parsed.first?.start == 0x1000 && parsed.first?.end == 0x2000 && parsed.first?.executable == true)
        }
    }
}
