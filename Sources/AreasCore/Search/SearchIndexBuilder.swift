import Foundation

/// Builds a `SearchIndex` in parts that run side by side: each part counts the keys of one
/// run of positions, the counts are laid end to end in key order (a part's areas after the
/// earlier parts' in every run, so each run stays ascending), then each part places its areas.
///
/// Two passes over the text: nothing per (key, area) pair is held but the postings. An area's
/// repeated keys are skipped by remembering, per key, the last area that visited it.
/// `count(part:)` and `place(part:)` may run at once for different parts; `lay()` runs alone
/// between them.
package final class SearchIndexBuilder: @unchecked Sendable {
    private let table: AreaTable
    private let served: @Sendable (Int) -> Bool
    private let parts: [Range<Int>]
    /// Part `i`'s keys: its counts, then where its next posting of each key goes.
    private let keyTables: UnsafeMutableBufferPointer<KeyTable>
    private var keys: [UInt64] = []
    private var starts: [UInt32] = [0]
    private var postings: ColumnBlock?

    /// `parts` nil: one part per core, each of at least 20,000 records; 0: an empty index.
    package init(_ table: AreaTable, served: @escaping @Sendable (Int) -> Bool, parts: Int? = nil) {
        self.table = table
        self.served = served
        let count = table.records.count
        let wanted = parts ?? min(ProcessInfo.processInfo.activeProcessorCount, max(1, count / 20_000))
        let partCount = max(0, min(wanted, count))
        self.parts = (0..<partCount).map { part in count * part / partCount..<count * (part + 1) / partCount }
        keyTables = .allocate(capacity: partCount)
        keyTables.initialize(repeating: KeyTable(capacity: 1 << 12))
    }

    deinit {
        keyTables.deinitialize()
        keyTables.deallocate()
    }

    package var partCount: Int { parts.count }

    /// Counts each key's areas among the part's positions.
    package func count(part: Int) {
        var keyTable = KeyTable(capacity: 1 << 12)
        forEachKey(in: parts[part]) { key, position in keyTable.count(key, for: position) }
        keyTables[part] = keyTable
    }

    /// Orders every part's keys and gives each part's keys where their postings begin.
    package func lay() {
        var all: [UInt64] = []
        for part in keyTables.indices { all += keyTables[part].keys }
        all.sort()
        keys.reserveCapacity(all.count)
        for key in all where key != keys.last { keys.append(key) }
        starts = [UInt32](repeating: 0, count: keys.count + 1)
        var next: UInt32 = 0
        for (number, key) in keys.enumerated() {
            starts[number] = next
            for part in keyTables.indices {
                if let count = keyTables[part].exchange(key, for: next) { next &+= count }
            }
        }
        starts[keys.count] = next
        postings = next == 0 ? nil : ColumnBlock(byteCount: Int(next) * MemoryLayout<UInt32>.stride, alignment: MemoryLayout<UInt32>.alignment)
    }

    /// Writes the part's areas into their keys' runs, in ascending order.
    package func place(part: Int) {
        guard let postings else { return }
        let target = postings.pointer.bindMemory(to: UInt32.self, capacity: Int(starts[keys.count]))
        forEachKey(in: parts[part]) { key, position in
            if let at = keyTables[part].nextPlace(of: key, for: position) { target[at] = position }
        }
    }

    package func index() -> SearchIndex {
        let count = Int(starts[keys.count])
        let base = postings.map { UnsafePointer($0.pointer.bindMemory(to: UInt32.self, capacity: count)) }
        return SearchIndex(keys: Column(keys), starts: Column(starts), postings: Column(unsafeBase: base, count: count, owner: postings))
    }

    /// Calls `body` with each key of the name, road address and lot address of each served
    /// record in `positions` (an area's key may come more than once).
    private func forEachKey(in positions: Range<Int>, _ body: (UInt64, UInt32) -> Void) {
        let records = table.records
        var letters: [SearchText.Letter] = []
        letters.reserveCapacity(512)
        table.strings.bytes.withUnsafeBufferPointer { arena in
            for position in positions where served(position) {
                let record = records[position]
                for ref in [record.name, record.roadAddress, record.lotAddress] where ref != StringArena.empty {
                    letters.removeAll(keepingCapacity: true)
                    SearchText.fold(StringArena.utf8(ref, in: arena), into: &letters)
                    guard let last = letters.last else { continue }
                    for i in 0..<(letters.count - 1) { body(SearchIndex.key(letters[i], letters[i + 1]), UInt32(position)) }
                    body(SearchIndex.key(last, 0), UInt32(position))
                }
            }
        }
    }
}
