import Dispatch

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

    /// The same index with its postings, nearly all of its bytes, where `move` puts them (nil
    /// leaves them where they are).
    package func movingPostings(_ move: (Column<UInt32>) -> Column<UInt32>?) -> SearchIndex {
        SearchIndex(keys: keys, starts: starts, postings: move(postings) ?? postings)
    }

    public var byteCount: Int { keys.byteCount + starts.byteCount + postings.byteCount }

    /// The key of `first` followed by `second` (0: the text ends).
    @inline(__always)
    static func key(_ first: SearchText.Letter, _ second: SearchText.Letter) -> UInt64 {
        UInt64(first) << 32 | UInt64(second)
    }

    /// The index over the names and addresses of `table`'s records that `served` admits, built
    /// in as many parts as the machine has cores.
    init(_ table: AreaTable, served: @escaping @Sendable (Int) -> Bool) {
        let builder = SearchIndexBuilder(table, served: served)
        DispatchQueue.concurrentPerform(iterations: builder.partCount) { builder.count(part: $0) }
        builder.lay()
        DispatchQueue.concurrentPerform(iterations: builder.partCount) { builder.place(part: $0) }
        self = builder.index()
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
