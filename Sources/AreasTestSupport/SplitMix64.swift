/// A small seedable random number generator, so benchmarks and property tests repeat exactly.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A normally distributed number (Box-Muller).
    package mutating func nextGaussian() -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &self)
        let v = Double.random(in: 0..<1, using: &self)
        return (-2 * _log(u)).squareRoot() * _cos(2 * Double.pi * v)
    }
}

#if canImport(Glibc)
import Glibc
@inline(__always) private func _log(_ x: Double) -> Double { log(x) }
@inline(__always) private func _cos(_ x: Double) -> Double { cos(x) }
#else
import Foundation
@inline(__always) private func _log(_ x: Double) -> Double { log(x) }
@inline(__always) private func _cos(_ x: Double) -> Double { cos(x) }
#endif
