/// A map from grid cells to the last leader placed in each, for merging: open addressing with
/// a multiplicative hash. A merge looks up nine cells per record, and the standard
/// dictionary's keyed hash cost more than the rest of the merge together.
struct CellTable {
    private var keys: [Int64]
    private var values: [Int32]
    private var used: [Bool]
    private let mask: Int
    private let shift: UInt64

    /// Room for `capacity` cells at most half full.
    init(capacity: Int) {
        var size = 16
        var bits: UInt64 = 4
        while size < 2 * capacity { size <<= 1; bits += 1 }
        keys = [Int64](repeating: 0, count: size)
        values = [Int32](repeating: -1, count: size)
        used = [Bool](repeating: false, count: size)
        mask = size - 1
        shift = 64 - bits
    }

    private func slot(_ key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The value of `key`, or -1.
    func value(_ key: Int64) -> Int32 {
        var i = slot(key)
        while used[i] {
            if keys[i] == key { return values[i] }
            i = (i + 1) & mask
        }
        return -1
    }

    /// Sets `key` to `value`, returning the value it had (-1 when new).
    mutating func replace(_ key: Int64, with value: Int32) -> Int32 {
        var i = slot(key)
        while used[i] {
            if keys[i] == key {
                let old = values[i]
                values[i] = value
                return old
            }
            i = (i + 1) & mask
        }
        used[i] = true
        keys[i] = key
        values[i] = value
        return -1
    }
}
