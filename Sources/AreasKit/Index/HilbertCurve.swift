/// Positions on a Hilbert curve over a 2¹⁶ × 2¹⁶ grid: points close on the curve are close in
/// the plane, so sorting by it packs nearby entries into the same tree nodes.
enum HilbertCurve {
    static let side: UInt32 = 1 << 16

    /// The distance along the curve of grid cell (x, y), both below `side`.
    ///
    /// Branch-free: the per-level quadrant rotations are composed as bitwise transforms over all
    /// sixteen levels at once (a parallel prefix in steps of 1, 2, 4 and 8 bits), then the two
    /// resulting bit planes are interleaved. A loop over the levels, with a data-dependent branch
    /// at each, made the keys a tenth of a million-point build.
    static func index(x: UInt32, y: UInt32) -> UInt32 {
        let mask: UInt32 = 0xFFFF
        var a = x ^ y
        var b = mask ^ a
        var c = mask ^ (x | y)
        var d = x & (y ^ mask)

        var nextA = a | (b >> 1)
        var nextB = (a >> 1) ^ a
        var nextC = ((c >> 1) ^ (b & (d >> 1))) ^ c
        var nextD = ((a & (c >> 1)) ^ (d >> 1)) ^ d

        a = nextA; b = nextB; c = nextC; d = nextD
        nextA = (a & (a >> 2)) ^ (b & (b >> 2))
        nextB = (a & (b >> 2)) ^ (b & ((a ^ b) >> 2))
        nextC ^= (a & (c >> 2)) ^ (b & (d >> 2))
        nextD ^= (b & (c >> 2)) ^ ((a ^ b) & (d >> 2))

        a = nextA; b = nextB; c = nextC; d = nextD
        nextA = (a & (a >> 4)) ^ (b & (b >> 4))
        nextB = (a & (b >> 4)) ^ (b & ((a ^ b) >> 4))
        nextC ^= (a & (c >> 4)) ^ (b & (d >> 4))
        nextD ^= (b & (c >> 4)) ^ ((a ^ b) & (d >> 4))

        a = nextA; b = nextB; c = nextC; d = nextD
        nextC ^= (a & (c >> 8)) ^ (b & (d >> 8))
        nextD ^= (b & (c >> 8)) ^ ((a ^ b) & (d >> 8))

        a = nextC ^ (nextC >> 1)
        b = nextD ^ (nextD >> 1)
        let low = x ^ y
        let high = b | (mask ^ (low | a))
        return (interleave(high) << 1) | interleave(low)
    }

    /// The 16 low bits of `x` spread to the even bit positions.
    private static func interleave(_ x: UInt32) -> UInt32 {
        var x = x & 0xFFFF
        x = (x | (x << 8)) & 0x00FF_00FF
        x = (x | (x << 4)) & 0x0F0F_0F0F
        x = (x | (x << 2)) & 0x3333_3333
        x = (x | (x << 1)) & 0x5555_5555
        return x
    }
}
