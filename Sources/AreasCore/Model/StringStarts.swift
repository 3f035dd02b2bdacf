/// The offsets at which an arena's strings start, one bit each: what a reference read from a
/// file is checked against before the arena is read through it.
package struct StringStarts: Sendable {
    private var words: [UInt64]

    /// The starts of `arena`'s strings, or nil when it is not a run of length-prefixed UTF-8
    /// strings (LEB128 lengths, each string well-formed), back to back to the end, the empty
    /// string first.
    package init?(validating arena: UnsafeBufferPointer<UInt8>) {
        words = [UInt64](repeating: 0, count: (arena.count + 63) / 64)
        guard arena.first == 0 else { return nil }
        var offset = 0
        while offset < arena.count {
            words[offset >> 6] |= 1 << UInt64(offset & 63)
            var length = 0
            var shift = 0
            var cursor = offset
            while true {
                guard cursor < arena.count, shift < 35 else { return nil }
                let byte = arena[cursor]
                cursor += 1
                length |= Int(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            guard length <= arena.count - cursor,
                  StringArena.isValidUTF8(UnsafeBufferPointer(rebasing: arena[cursor..<cursor + length]))
            else { return nil }
            offset = cursor + length
        }
    }

    /// Whether a string starts at `ref` (false past the end).
    package func contains(_ ref: StringArena.Ref) -> Bool {
        let offset = Int(ref)
        return offset >> 6 < words.count && words[offset >> 6] & (1 << UInt64(offset & 63)) != 0
    }
}
