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
    init(_ table: AreaTable, served: (Int) -> Bool) {
        let records = table.records
        var counts = KeyTable(capacity: 1 << 12)
        var letters: [SearchText.Letter] = []
        var areaKeys: [UInt64] = []
        // The distinct keys of the record at `position`, in `areaKeys`.
        func collect(_ position: Int) {
            areaKeys.removeAll(keepingCapacity: true)
            let record = records[position]
            for ref in [record.name, record.roadAddress, record.lotAddress] where ref != StringArena.empty {
                letters.removeAll(keepingCapacity: true)
                table.strings.withUTF8(ref) { SearchText.fold($0, into: &letters) }
                guard let last = letters.last else { continue }
                for i in 0..<(letters.count - 1) { areaKeys.append(Self.key(letters[i], letters[i + 1])) }
                areaKeys.append(Self.key(last, 0))
            }
            areaKeys.sort()
            var kept = 0
            for key in areaKeys where kept == 0 || areaKeys[kept - 1] != key {
                areaKeys[kept] = key
                kept += 1
            }
            areaKeys.removeSubrange(kept...)
        }
        // Two passes over the text: count each key's areas, then place each area in its keys'
        // runs, in ascending order. Nothing per (key, area) pair is held but the postings.
        for position in records.indices where served(position) {
            collect(position)
            for key in areaKeys { counts.add(key) }
        }
        let sortedKeys = counts.keys.sorted()
        var cursor = [UInt32](repeating: 0, count: sortedKeys.count + 1)
        for (i, key) in sortedKeys.enumerated() {
            cursor[i + 1] = cursor[i] &+ counts.value(of: key)
            counts.set(key, UInt32(i))
        }
        let starts = Column(cursor)
        let total = Int(cursor[sortedKeys.count])
        let postings = Column<UInt32>(unsafeUninitializedCount: total) { postings in
            for position in records.indices where served(position) {
                collect(position)
                for key in areaKeys {
                    let slot = Int(counts.value(of: key))
                    postings[Int(cursor[slot])] = UInt32(position)
                    cursor[slot] += 1
                }
            }
        }
        self.init(keys: Column(sortedKeys), starts: starts, postings: postings)
    }

    /// The postings of `key`, as a range of `postings`; empty when no area has it.
    func run(of key: UInt64) -> Range<Int> {
        var (low, high) = (0, keys.count)
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        guard low < keys.count, keys[low] == key else { return 0..<0 }
        return Int(starts[low])..<Int(starts[low + 1])
    }

    /// The keys that begin with `letter`, as a range of `keys`.
    func keys(beginningWith letter: SearchText.Letter) -> Range<Int> {
        func lowerBound(_ key: UInt64) -> Int {
            var (low, high) = (0, keys.count)
            while low < high {
                let middle = (low + high) / 2
                if keys[middle] < key { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return lowerBound(Self.key(letter, 0))..<lowerBound(Self.key(letter + 1, 0))
    }
}

/// Keys to counts, then to key numbers, while the index is built: open addressing over a
/// power-of-two table, for tens of millions of lookups. A key is never 0 (its first letter is not).
struct KeyTable {
    private var slots: [UInt64]
    private var values: [UInt32]
    private(set) var count = 0

    init(capacity: Int) {
        slots = [UInt64](repeating: 0, count: capacity)
        values = [UInt32](repeating: 0, count: capacity)
    }

    @inline(__always)
    private func slot(of key: UInt64) -> Int {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
        while slots[i] != 0 && slots[i] != key { i = (i + 1) & mask }
        return i
    }

    mutating func add(_ key: UInt64) {
        if 2 * (count + 1) > slots.count { grow() }
        let i = slot(of: key)
        if slots[i] == 0 {
            slots[i] = key
            count += 1
        }
        values[i] &+= 1
    }

    /// The value of a key the table holds.
    func value(of key: UInt64) -> UInt32 { values[slot(of: key)] }

    mutating func set(_ key: UInt64, _ value: UInt32) { values[slot(of: key)] = value }

    var keys: [UInt64] { slots.filter { $0 != 0 } }

    private mutating func grow() {
        let old = zip(slots, values).filter { $0.0 != 0 }
        slots = [UInt64](repeating: 0, count: slots.count * 2)
        values = [UInt32](repeating: 0, count: slots.count)
        for (key, value) in old {
            let i = slot(of: key)
            slots[i] = key
            values[i] = value
        }
    }
}
