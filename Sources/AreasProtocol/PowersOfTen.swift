/// Powers of ten, exact, for reading and writing decimal numbers.
enum PowersOfTen {
    /// 10^exponent as a `Double` for exponent in 0...22, the powers of ten a double holds
    /// exactly: one IEEE multiplication or division by one of these rounds correctly.
    static let exactDoubles: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// 10^exponent for exponent in 0...19, the powers of ten a `UInt` holds.
    static let integers: [UInt] = (0...19).map { k in (0..<k).reduce(1) { power, _ in power * 10 } }

    /// 10^exponent, for exponent in 0...19 (past 19, 10^19).
    @inline(__always)
    static func integer(_ exponent: Int) -> UInt { integers[Swift.min(exponent, 19)] }
}
