/// Haversine terms from one origin to a run of points stored by column, four at a time.
///
/// A search measures every point of each leaf it opens, sixteen at a time, and one at a time
/// that was most of a nearest or radius query. Here the same expression as
/// `DistanceOrigin.haversine(latitude:longitude:)`, operation for operation, runs on vectors
/// of four, so every term is bit for bit the one the scalar function (and so the brute-force
/// oracle) gives. A run with an angle beyond `SmallAngle.tiny`, where the scalar function takes
/// a longer polynomial or libm, is measured by the scalar function itself.
extension DistanceOrigin {
    /// How many points one step measures; runs are read in whole steps, so the columns need
    /// this many minus one readable values past their last point.
    static let haversineLanes = 4

    /// Writes the haversine term from here to point `i` (`latitudes[i]`, `longitudes[i]`, in
    /// degrees) into `terms[i]` for every i in 0..<count, rounded up to whole steps.
    @inline(__always)
    func haversines(latitudes: UnsafePointer<Double>, longitudes: UnsafePointer<Double>, count: Int,
                    into terms: UnsafeMutablePointer<Double>) {
        typealias Lanes = SIMD4<Double>
        let toHalfRadians = Lanes(repeating: Geodesy.radiansPerDegree / 2)
        let latitude = Lanes(repeating: self.latitude)
        let longitude = Lanes(repeating: self.longitude)
        let cosLatitude = Lanes(repeating: self.cosLatitude)
        let sinLatitude = Lanes(repeating: self.sinLatitude)
        let tinySquared = Lanes(repeating: SmallAngle.tiny * SmallAngle.tiny)
        // SmallAngle's coefficients below tiny.
        let sineC3 = Lanes(repeating: -1.0 / 6), sineC5 = Lanes(repeating: 1.0 / 120)
        let cosineC4 = Lanes(repeating: 1.0 / 24), cosineC6 = Lanes(repeating: -1.0 / 720)
        var small = SIMDMask<SIMD4<Int64>>(repeating: true)
        var i = 0
        while i < count {
            let lat = UnsafeRawPointer(latitudes + i).loadUnaligned(as: Lanes.self)
            let lon = UnsafeRawPointer(longitudes + i).loadUnaligned(as: Lanes.self)
            // hav(Δλ) = sin²(Δλ/2), as `Geodesy.hav(degrees:)` and `SmallAngle.sine` below tiny.
            let x = (lon - longitude) * toHalfRadians
            let x2 = x * x
            let sx = x + x * x2 * (sineC3 + x2 * sineC5)
            let hav = sx * sx
            // `corner(hav:latitude:)`, with `SmallAngle.sine` and `cosine` below tiny.
            let half = (lat - latitude) * toHalfRadians
            let h2 = half * half
            let s = half + half * h2 * (sineC3 + h2 * sineC5)
            let c2: Lanes = h2 * (cosineC4 + h2 * cosineC6)
            let c: Lanes = 1 + h2 * (-0.5 + c2)
            let twoS: Lanes = 2 * s
            let cosOther: Lanes = cosLatitude * (1 - twoS * s) - sinLatitude * (twoS * c)
            let term: Lanes = s * s + cosLatitude * cosOther * hav
            UnsafeMutableRawPointer(terms + i).storeBytes(of: term, as: Lanes.self)
            // x² below tiny² implies |x| below tiny (squaring rounds monotonically).
            small .&= (x2 .< tinySquared) .& (h2 .< tinySquared)
            i += Self.haversineLanes
        }
        // A run with any angle beyond the polynomials (rare: over 100 km) is measured again the
        // scalar way; checking once per run keeps the test out of the loop.
        if !all(small) {
            for j in 0..<count { terms[j] = haversine(latitude: latitudes[j], longitude: longitudes[j]) }
        }
    }
}
