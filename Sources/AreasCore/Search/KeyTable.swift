/// Keys to counts, then to where their next posting goes, while a search index is built:
/// open addressing over a power-of-two table, for tens of millions of lookups. A key is never
/// 0 (its first letter is not). Each key remembers the last area that visited it, so an
/// area's repeats of a key count once. A slot holds its key, value and visitor together:
/// a lookup touches one cache line.
struct KeyTable {
    private struct Slot {
        var key: UInt64
        var value: UInt32
        /// The last area (plus one) to visit the key in the current pass.
        var visitor: UInt32
    }

    private var slots: [Slot]
    private(set) var count = 0

    init(capacity: Int) {
        slots = [Slot](repeating: Slot(key: 0, value: 0, visitor: 0), count: capacity)
    }

    /// Fibonacci hashing: the product's top bits, which every bit of the key reaches (the low
    /// ones see only the key's low bits, and keys differ mostly in their letters' low bits).
    @inline(__always)
    private func slot(of key: UInt64) -> Int {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var i = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - slots.count.trailingZeroBitCount))
            while slots[i].key != 0 && slots[i].key != key { i = (i + 1) & mask }
            return i
        }
    }

    /// Counts `area` for `key`, once however often the area has it.
    @inline(__always)
    mutating func count(_ key: UInt64, for area: UInt32) {
        if 2 * (count + 1) > slots.count { grow() }
        let i = slot(of: key)
        slots.withUnsafeMutableBufferPointer { slots in
            if slots[i].key == 0 {
                slots[i].key = key
                count += 1
            }
            if slots[i].visitor != area &+ 1 {
                slots[i].visitor = area &+ 1
                slots[i].value &+= 1
            }
        }
    }

    /// The key's value, replaced by `value`, and its visitors forgotten for the next pass;
    /// nil when the table does not hold the key.
    mutating func exchange(_ key: UInt64, for value: UInt32) -> UInt32? {
        let i = slot(of: key)
        guard slots[i].key != 0 else { return nil }
        defer { (slots[i].value, slots[i].visitor) = (value, 0) }
        return slots[i].value
    }

    /// The key's value when `area` visits it first in this pass, then one more; nil on a repeat.
    @inline(__always)
    mutating func nextPlace(of key: UInt64, for area: UInt32) -> Int? {
        let i = slot(of: key)
        return slots.withUnsafeMutableBufferPointer { slots in
            guard slots[i].visitor != area &+ 1 else { return nil }
            slots[i].visitor = area &+ 1
            defer { slots[i].value &+= 1 }
            return Int(slots[i].value)
        }
    }

    var keys: [UInt64] { slots.lazy.map(\.key).filter { $0 != 0 } }

    private mutating func grow() {
        let old = slots.filter { $0.key != 0 }
        slots = [Slot](repeating: Slot(key: 0, value: 0, visitor: 0), count: slots.count * 2)
        for entry in old { slots[slot(of: entry.key)] = entry }
    }
}
