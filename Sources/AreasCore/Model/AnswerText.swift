/// Which bytes of a table's text the answers read: the strings its records name (ids, names,
/// addresses, regions, sources), as against those only its upstream fields name.
///
/// An answer reads a record's id, name and addresses, not the upstream columns kept beside
/// them (among them each row's coordinates as published, a quarter of a zone's text). A
/// table's text is laid out with the answers' strings first (`AreaTable(concatenating:)`), so
/// that questions keep only that part of a mapped snapshot resident, not every page the two
/// kinds of string were interleaved on. A bit per byte marks the answers' strings; with a
/// count of marked bytes before each 64, a byte's place in that order is found in constant
/// time, without a table from old references to new.
struct AnswerText {
    private var words: [UInt64]
    /// Marked bytes before each word.
    private var ranks: [UInt32]
    /// Marked bytes in all.
    private(set) var byteCount = 0

    /// Marks the strings `records` name in `arena`, whose every reference the table checked.
    init(records: UnsafeBufferPointer<AreaTable.Record>, arena: UnsafeBufferPointer<UInt8>) {
        words = [UInt64](repeating: 0, count: arena.count / 64 + 1)
        ranks = []
        for record in records { record.forEachString { mark($0, in: arena) } }
        ranks.reserveCapacity(words.count)
        var total = 0
        for word in words {
            ranks.append(UInt32(total))
            total += word.nonzeroBitCount
        }
        byteCount = total
    }

    /// Marks the string at `ref` (its length and its bytes), once.
    private mutating func mark(_ ref: StringArena.Ref, in arena: UnsafeBufferPointer<UInt8>) {
        let start = Int(ref)
        guard ref != StringArena.empty, !isAnswerText(start) else { return }
        for offset in start..<StringArena.end(of: ref, in: arena) { words[offset >> 6] |= 1 << UInt64(offset & 63) }
    }

    /// Whether the byte at `offset` belongs to a string a record names.
    func isAnswerText(_ offset: Int) -> Bool {
        words[offset >> 6] >> UInt64(offset & 63) & 1 == 1
    }

    /// Marked bytes before `offset`.
    func bytes(before offset: Int) -> Int {
        let word = words[offset >> 6] & ((1 << UInt64(offset & 63)) &- 1)
        return Int(ranks[offset >> 6]) + word.nonzeroBitCount
    }

    /// Whether the marked bytes come first already, from offset 1 (after the empty string).
    var leads: Bool { bytes(before: byteCount + 1) == byteCount }

    /// Where the string at `ref` goes when the table's text is copied answers' strings first:
    /// the marked ones from `answerBase` on, the rest from `fieldBase` on, each kind in its
    /// order here.
    func moved(_ ref: StringArena.Ref, answerBase: Int, fieldBase: Int) -> StringArena.Ref {
        guard ref != StringArena.empty else { return ref }
        let offset = Int(ref), before = bytes(before: offset)
        return StringArena.Ref(isAnswerText(offset) ? answerBase + before : fieldBase + (offset - 1 - before))
    }
}
