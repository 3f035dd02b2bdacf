/// Positions on a Hilbert curve over a 2¹⁶ × 2¹⁶ grid: points close on the curve are close in
/// the plane, so sorting by it packs nearby entries into the same tree nodes.
enum HilbertCurve {
    static let side: UInt32 = 1 << 16

    /// The distance along the curve of grid cell (x, y), both below `side`.
    static func index(x: UInt32, y: UInt32) -> UInt32 {
        var x = x
        var y = y
        var d: UInt32 = 0
        var s = side >> 1
        while s > 0 {
            let rx: UInt32 = (x & s) > 0 ? 1 : 0
            let ry: UInt32 = (y & s) > 0 ? 1 : 0
            d &+= s &* s &* ((3 &* rx) ^ ry)
            // Rotate the quadrant so the curve inside it has the canonical orientation.
            if ry == 0 {
                if rx == 1 {
                    x = s &- 1 &- x
                    y = s &- 1 &- y
                }
                swap(&x, &y)
            }
            s >>= 1
        }
        return d
    }
}
