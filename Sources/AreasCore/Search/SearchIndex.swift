/// Which areas' names and addresses hold each pair of letters: the text index `search` asks
/// instead of reading every name.
///
/// A key is two letters that follow one another in an area's name, road address or lot
/// address as `SearchText` folds them (`first << 32 | second`), or a text's last letter alone
/// (`first << 32`), so that every letter a text has begins some key. A word of two letters or
/// more is found by intersecting its pairs' postings; a word of one letter by the keys it
/// begins. Pairs are a test that lets too much through (`가나가` has both pairs of `나가나`
/// but not the word), so every candidate is then read and tested letter for letter.
///
/// Built with the rest of the index at refresh time, laid out in the snapshot and served from
/// the mapping like the trees: a million areas' index is read, never rebuilt, at start.
public struct SearchIndex: Sendable {
    /// The distinct keys, ascending.
    let keys: Column<UInt64>
    /// Key `i`'s areas are `postings[starts[i]..<starts[i + 1]]`, ascending positions.
    let starts: Column<UInt32>
    let postings: Column<UInt32>

    init(keys: Column<UInt64>, starts: Column<UInt32>, postings: Column<UInt32>) {
        self.keys = keys
        self.starts = starts
        self.postings = postings
    }

    public static let empty = SearchIndex(keys: Column(), starts: Column([0]), postings: Column())

    public var byteCount: Int { keys.byteCount + starts.byteCount + postings.byteCount }

    /// The key of `first` followed by `second` (0: the text ends).
    @inline(__always)
    static func key(_ first: SearchText.Letter, _ second: SearchText.Letter) -> UInt64 {
        UInt64(first) << 32 | UInt64(second)
    }

    /// The index over the names and addresses of `table`'s records that `served` admits.
    ///
    /// Two passes over the text: one counts each key's areas, the other places each area in
    /// its keys' runs, in ascending order. Nothing per (key, area) pair is held but the
    /// postings; an area's repeated keys are skipped by remembering, per key, the last area
    /// that counted it.
    init(_ table: AreaTable, served: (Int) -> Bool) {
        let records = table.records
        var keys = KeyTable(capacity: 1 << 12)
        var letters: [SearchText.Letter] = []
        letters.reserveCapacity(512)
        table.strings.bytes.withUnsafeBufferPointer { arena in
            for position in records.indices where served(position) {
                Self.forEachKey(of: records[position], in: arena, letters: &letters) { key in
                    keys.count(key, for: UInt32(position))
                }
            }
        }
        let sortedKeys = keys.keys.sorted()
        var cursor = [UInt32](repeating: 0, count: sortedKeys.count + 1)
        for (i, key) in sortedKeys.enumerated() {
            cursor[i + 1] = cursor[i] &+ keys.value(of: key)
            keys.number(key, as: UInt32(i))
        }
        let starts = Column(cursor)
        let postings = Column<UInt32>(unsafeUninitializedCount: Int(cursor[sortedKeys.count])) { postings in
            table.strings.bytes.withUnsafeBufferPointer { arena in
                for position in records.indices where served(position) {
                    Self.forEachKey(of: records[position], in: arena, letters: &letters) { key in
                        guard let number = keys.firstVisit(key, by: UInt32(position)) else { return }
                        postings[Int(cursor[number])] = UInt32(position)
                        cursor[number] += 1
                    }
                }
            }
        }
        self.init(keys: Column(sortedKeys), starts: starts, postings: postings)
    }

    /// Calls `body` with each key of the record's name, road address and lot address (an area's
    /// key may come more than once).
    @inline(__always)
    private static func forEachKey(of record: AreaTable.Record, in arena: UnsafeBufferPointer<UInt8>, letters: inout [SearchText.Letter],
                                   _ body: (UInt64) -> Void) {
        for ref in [record.name, record.roadAddress, record.lotAddress] where ref != StringArena.empty {
            letters.removeAll(keepingCapacity: true)
            SearchText.fold(StringArena.utf8(ref, in: arena), into: &letters)
            guard let last = letters.last else { continue }
            for i in 0..<(letters.count - 1) { body(key(letters[i], letters[i + 1])) }
            body(key(last, 0))
        }
    }

    /// The postings of `key`, as a range of `postings`; empty when no area has it.
    func run(of key: UInt64) -> Range<Int> {
        let at = firstKey(notBelow: key)
        guard at < keys.count, keys[at] == key else { return 0..<0 }
        return Int(starts[at])..<Int(starts[at + 1])
    }

    /// The keys that begin with `letter`, as a range of `keys`.
    func keys(beginningWith letter: SearchText.Letter) -> Range<Int> {
        firstKey(notBelow: Self.key(letter, 0))..<firstKey(notBelow: Self.key(letter + 1, 0))
    }

    /// The position of the first key at least `key`, by binary search.
    private func firstKey(notBelow key: UInt64) -> Int {
        var (low, high) = (0, keys.count)
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// Keys to counts, then to key numbers, while the index is built: open addressing over a
/// power-of-two table, for tens of millions of lookups. A key is never 0 (its first letter is
/// not). Each key remembers the last area that visited it, so an area's repeats of a key
/// count once.
struct KeyTable {
    private var slots: [UInt64]
    private var values: [UInt32]
    /// The last area (plus one) to visit each slot's key in the current pass.
    private var visitors: [UInt32]
    private(set) var count = 0

    init(capacity: Int) {
        slots = [UInt64](repeating: 0, count: capacity)
        values = [UInt32](repeating: 0, count: capacity)
        visitors = [UInt32](repeating: 0, count: capacity)
    }

    /// Fibonacci hashing: the product's top bits, which every bit of the key reaches (the low
    /// ones see only the key's low bits, and keys differ mostly in their letters' low bits).
    @inline(__always)
    private func slot(of key: UInt64) -> Int {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - slots.count.trailingZeroBitCount))
        while slots[i] != 0 && slots[i] != key { i = (i + 1) & mask }
        return i
    }

    /// Counts `area` for `key`, once however often the area has it.
    @inline(__always)
    mutating func count(_ key: UInt64, for area: UInt32) {
        if 2 * (count + 1) > slots.count { grow() }
        let i = slot(of: key)
        if slots[i] == 0 {
            slots[i] = key
            count += 1
        }
        if visitors[i] != area &+ 1 {
            visitors[i] = area &+ 1
            values[i] &+= 1
        }
    }

    /// The value of a key the table holds.
    func value(of key: UInt64) -> UInt32 { values[slot(of: key)] }

    /// Gives a key the table holds its number, and forgets its visitors for the next pass.
    mutating func number(_ key: UInt64, as number: UInt32) {
        let i = slot(of: key)
        values[i] = number
        visitors[i] = 0
    }

    /// The key's number when `area` visits it first in this pass; nil on a repeat.
    @inline(__always)
    mutating func firstVisit(_ key: UInt64, by area: UInt32) -> Int? {
        let i = slot(of: key)
        guard visitors[i] != area &+ 1 else { return nil }
        visitors[i] = area &+ 1
        return Int(values[i])
    }

    var keys: [UInt64] { slots.filter { $0 != 0 } }

    private mutating func grow() {
        let old = (0..<slots.count).filter { slots[$0] != 0 }.map { (slots[$0], values[$0], visitors[$0]) }
        let capacity = slots.count * 2
        slots = [UInt64](repeating: 0, count: capacity)
        values = [UInt32](repeating: 0, count: capacity)
        visitors = [UInt32](repeating: 0, count: capacity)
        for (key, value, visitor) in old {
            let i = slot(of: key)
            (slots[i], values[i], visitors[i]) = (key, value, visitor)
        }
    }
}
