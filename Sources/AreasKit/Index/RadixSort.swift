/// Sorts positions `0..<keys.count` by their 32-bit key, keeping equal keys in position order.
///
/// Two stable counting passes of 16 bits each: linear time, which is what lets a million-entry
/// tree build in a few tens of milliseconds.
func stableOrder(byKeys keys: [UInt32]) -> [UInt32] {
    let n = keys.count
    var order = [UInt32](unsafeUninitializedCapacity: n) { buffer, count in
        for i in 0..<n { buffer[i] = UInt32(truncatingIfNeeded: i) }
        count = n
    }
    var scratch = [UInt32](repeating: 0, count: n)
    var counts = [Int](repeating: 0, count: 1 << 16)
    keys.withUnsafeBufferPointer { keys in
        for shift: UInt32 in [0, 16] {
            counts.withUnsafeMutableBufferPointer { counts in
                for i in counts.indices { counts[i] = 0 }
                for key in keys { counts[Int((key >> shift) & 0xFFFF)] += 1 }
                var total = 0
                for i in counts.indices {
                    let c = counts[i]
                    counts[i] = total
                    total += c
                }
                order.withUnsafeBufferPointer { source in
                    scratch.withUnsafeMutableBufferPointer { target in
                        for position in source {
                            let bucket = Int((keys[Int(position)] >> shift) & 0xFFFF)
                            target[counts[bucket]] = position
                            counts[bucket] += 1
                        }
                    }
                }
            }
            swap(&order, &scratch)
        }
    }
    return order
}
