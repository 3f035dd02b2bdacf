#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

/// Sine, cosine and arcsine by short polynomials where the argument is small, libm beyond.
///
/// Almost every distance the index measures is between points a few kilometres apart: half
/// angles far below a tenth of a radian, where a few terms of the Taylor series are exact to
/// the last bit or two and cost a handful of multiply-adds the compiler can inline, instead of
/// a libm call each. The index and its brute-force oracle share these, so their answers agree
/// bit for bit.
@usableFromInline
enum SmallAngle {
    /// Below this (half an angle of 0.9°, or a distance of about 100 km) fewer terms suffice.
    @usableFromInline
    static let tiny = 1.0 / 128

    /// sin x. The first omitted term is under 5e-17 of the result below `tiny` (x⁷/7!) and
    /// under 3e-18 below 0.1 (x¹¹/11!).
    @inlinable
    static func sine(_ x: Double) -> Double {
        let x2 = x * x
        if abs(x) < tiny { return x + x * x2 * (-1.0 / 6 + x2 * (1.0 / 120)) }
        guard abs(x) < 0.1 else { return sin(x) }
        return x + x * x2 * (-1.0 / 6 + x2 * (1.0 / 120 + x2 * (-1.0 / 5_040 + x2 * (1.0 / 362_880))))
    }

    /// cos x. The first omitted term is under 4e-22 below `tiny` (x⁸/8!) and under 3e-21 below
    /// 0.1 (x¹²/12!).
    @inlinable
    static func cosine(_ x: Double) -> Double {
        let x2 = x * x
        if abs(x) < tiny { return 1 + x2 * (-0.5 + x2 * (1.0 / 24 + x2 * (-1.0 / 720))) }
        guard abs(x) < 0.1 else { return cos(x) }
        return 1 + x2 * (-0.5 + x2 * (1.0 / 24 + x2 * (-1.0 / 720 + x2 * (1.0 / 40_320 + x2 * (-1.0 / 3_628_800)))))
    }

    /// asin x. The first omitted term is under 5e-19 of the result below `tiny` (35x⁹/1152)
    /// and under 5e-18 below 0.05, a distance of about 640 km (231x¹³/13312).
    @inlinable
    static func arcsine(_ x: Double) -> Double {
        let x2 = x * x
        if abs(x) < tiny { return x + x * x2 * (1.0 / 6 + x2 * (3.0 / 40 + x2 * (5.0 / 112))) }
        guard abs(x) < 0.05 else { return asin(x) }
        return x + x * x2 * (1.0 / 6 + x2 * (3.0 / 40 + x2 * (5.0 / 112 + x2 * (35.0 / 1_152 + x2 * (63.0 / 2_816)))))
    }
}
