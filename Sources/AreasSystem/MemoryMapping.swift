import Glibc

/// One mapping of a process's address space as `/proc/PID/smaps` lists it, with the sizes
/// this project reads.
///
/// The parser works on the file's bytes: a process with many threads (or under a sanitizer)
/// has thousands of mappings and megabytes of smaps, and splitting that into strings takes
/// seconds in an unoptimised build, on a path a refresh takes every quarter second.
package struct MemoryMapping: Sendable, Equatable {
    package var start: UInt = 0
    package var end: UInt = 0
    package var readable = false
    package var writable = false
    package var executable = false
    /// `s` in the permissions: writes reach the file and other processes; `p`, copied on write.
    package var shared = false
    package var inode: UInt64 = 0
    /// What the kernel names the mapping: a file's path, `[heap]`, `[stack]`, or nothing for
    /// anonymous memory.
    package var name = ""
    /// `Rss`: pages of the mapping in memory.
    package var residentBytes = 0
    /// `Pss`: resident pages, each divided by how many processes map it.
    package var proportionalBytes = 0
    /// `Shared_Clean` plus `Shared_Dirty`: resident pages another process maps too.
    package var sharedBytes = 0
    /// `Anonymous`: pages that belong to no file, including a private file mapping's pages
    /// once written (copied on write).
    package var anonymousBytes = 0

    /// A mapping of a file (its name is a path).
    package var isFile: Bool { name.utf8.first == UInt8(ascii: "/") }

    package init() {}

    /// The mappings of process `pid` (this process when nil); nil when /proc cannot be read.
    package static func ofProcess(_ pid: Int32? = nil) -> [MemoryMapping]? {
        guard let bytes = ProcFile.bytes(pid.map { "/proc/\($0)/smaps" } ?? "/proc/self/smaps") else { return nil }
        return bytes.withUnsafeBufferPointer { parse(smaps: $0) }
    }

    /// The mappings an smaps text lists, in its order. A size line before any mapping, or a
    /// line that is neither, is passed over. Most lines are sizes this type does not keep: a
    /// line is read further only when it starts a mapping or names a kept size.
    package static func parse(smaps text: UnsafeBufferPointer<UInt8>) -> [MemoryMapping] {
        guard let base = text.baseAddress else { return [] }
        var mappings: [MemoryMapping] = []
        var lineStart = 0
        while lineStart < text.count {
            let lineEnd = memchr(base + lineStart, Int32(newline), text.count - lineStart)
                .map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) } ?? text.count
            defer { lineStart = lineEnd + 1 }
            switch text[lineStart] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"):
                var line = Fields(text: text, at: lineStart, end: lineEnd)
                if let first = line.next(), text[first.upperBound - 1] != colon {
                    mappings.append(header(first: first, rest: &line, in: text))
                }
            default:
                if !mappings.isEmpty { mappings[mappings.count - 1].recordSize(lineStart..<lineEnd, of: text) }
            }
        }
        return mappings
    }

    /// A size line (`Rss:    1234 kB`), when it is one this type keeps.
    private mutating func recordSize(_ line: Range<Int>, of text: UnsafeBufferPointer<UInt8>) {
        // Names are matched with memcmp: a generic comparison of each of the many size lines
        // was most of the parse's time in an unoptimised build.
        func size(named name: StaticString) -> Int? {
            guard let base = text.baseAddress, line.count > name.utf8CodeUnitCount,
                  memcmp(base + line.lowerBound, name.utf8Start, name.utf8CodeUnitCount) == 0 else { return nil }
            var fields = Fields(text: text, at: line.lowerBound + name.utf8CodeUnitCount, end: line.upperBound)
            guard let value = fields.next(), let kibibytes = MemoryMapping.number(text, value, radix: 10), kibibytes < 1 << 50 else { return nil }
            return Int(kibibytes) * 1024
        }
        switch text[line.lowerBound] {
        case UInt8(ascii: "R"): if let bytes = size(named: "Rss:") { residentBytes = bytes }
        case UInt8(ascii: "P"): if let bytes = size(named: "Pss:") { proportionalBytes = bytes }
        case UInt8(ascii: "A"): if let bytes = size(named: "Anonymous:") { anonymousBytes = bytes }
        case UInt8(ascii: "S"): if let bytes = size(named: "Shared_Clean:") ?? size(named: "Shared_Dirty:") { sharedBytes += bytes }
        default: break
        }
    }

    /// `start-end perms offset device inode [name]`.
    private static func header(first range: Range<Int>, rest line: inout Fields, in text: UnsafeBufferPointer<UInt8>) -> MemoryMapping {
        var mapping = MemoryMapping()
        if let dash = range.firstIndex(where: { text[$0] == UInt8(ascii: "-") }) {
            mapping.start = UInt(number(text, range.lowerBound..<dash, radix: 16) ?? 0)
            mapping.end = UInt(number(text, dash + 1..<range.upperBound, radix: 16) ?? 0)
        }
        if let permissions = line.next(), permissions.count == 4 {
            let p = permissions.lowerBound
            mapping.readable = text[p] == UInt8(ascii: "r")
            mapping.writable = text[p + 1] == UInt8(ascii: "w")
            mapping.executable = text[p + 2] == UInt8(ascii: "x")
            mapping.shared = text[p + 3] == UInt8(ascii: "s")
        }
        _ = line.next()  // offset
        _ = line.next()  // device
        if let inode = line.next() { mapping.inode = number(text, inode, radix: 10) ?? 0 }
        let name = line.rest()
        if !name.isEmpty { mapping.name = String(decoding: UnsafeBufferPointer(rebasing: text[name]), as: UTF8.self) }
        return mapping
    }

    /// The number `range` spells in `radix`; nil when it is empty, has another character or
    /// does not fit.
    private static func number(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, radix: UInt64) -> UInt64? {
        guard !range.isEmpty, range.count <= 16 + (radix == 10 ? 4 : 0) else { return nil }
        var value: UInt64 = 0
        for index in range {
            let byte = text[index]
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(byte - UInt8(ascii: "a") + 10)
            default: return nil
            }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: radix)
            guard !overflow else { return nil }
            let (sum, carry) = shifted.addingReportingOverflow(digit)
            guard !carry else { return nil }
            value = sum
        }
        return value
    }

    /// The space-separated fields of one line, as ranges of the text.
    private struct Fields {
        let text: UnsafeBufferPointer<UInt8>
        var position: Int
        let end: Int

        init(text: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) {
            self.text = text
            self.position = start
            self.end = end
        }

        mutating func next() -> Range<Int>? {
            skipSpaces()
            let start = position
            while position < end && text[position] != space { position += 1 }
            return start < position ? start..<position : nil
        }

        /// The rest of the line after the spaces, as it is (a path may hold spaces).
        mutating func rest() -> Range<Int> {
            skipSpaces()
            defer { position = end }
            return position..<end
        }

        private mutating func skipSpaces() {
            while position < end && text[position] == space { position += 1 }
        }
    }
}

private let newline = UInt8(ascii: "\n")
private let space = UInt8(ascii: " ")
private let colon = UInt8(ascii: ":")
