/// Powers of ten, exact, for reading and writing decimal numbers.
enum PowersOfTen {
    /// 10^exponent as a `Double` for exponent in 0...22, the powers of ten a double holds
    /// exactly: one IEEE multiplication or division by one of these rounds correctly.
    static let exactDoubles: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// 10^exponent for exponent in 0...19, the powers of ten a `UInt` holds. A switch, which the
    /// compiler turns into a constant table: a `static let` array costs a `swift_once` a use,
    /// and this sits on the path of every number an answer writes.
    @inline(__always)
    static func integer(_ exponent: Int) -> UInt {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }
}
