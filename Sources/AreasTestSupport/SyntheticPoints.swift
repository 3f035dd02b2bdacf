import AreasCore

/// Point sets over South Korea for benchmarks and property tests.
package enum SyntheticPoints {
    /// South Korea's bounds, over which the uniform sets spread.
    package static let korea = GeoBox.korea

    /// City centres with a weight roughly proportional to population.
    static let cities: [(latitude: Double, longitude: Double, weight: Double)] = [
        (37.5665, 126.9780, 9.4), (35.1796, 129.0756, 3.3), (37.4563, 126.7052, 3.0),
        (35.8714, 128.6014, 2.4), (36.3504, 127.3845, 1.5), (35.1595, 126.8526, 1.4),
        (35.5384, 129.3114, 1.1), (37.2636, 127.0286, 1.2), (37.6584, 126.8320, 1.0),
        (37.4449, 127.1389, 0.9), (35.2280, 128.6811, 1.0), (36.6424, 127.4890, 0.8),
        (35.8242, 127.1480, 0.6), (36.8151, 127.1139, 0.6), (36.0190, 129.3435, 0.5),
        (33.4996, 126.5312, 0.5), (37.8813, 127.7298, 0.3), (34.8118, 126.3922, 0.2),
        (37.7519, 128.8761, 0.2), (35.9078, 127.7669, 0.1),
    ]

    /// Uniformly over Korea's bounds.
    package static func uniform(count: Int, seed: UInt64) -> [GeoPoint] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            GeoPoint(
                uncheckedLatitude: Double.random(in: korea.south...korea.north, using: &random),
                longitude: Double.random(in: korea.west...korea.east, using: &random))
        }
    }

    /// Clustered the way people live: most around cities, denser in larger ones, a few scattered.
    /// Coordinates have six decimals (about 0.1 m), as the upstream APIs publish them.
    package static func clustered(count: Int, seed: UInt64) -> [GeoPoint] {
        var random = SplitMix64(seed: seed)
        let totalWeight = cities.reduce(0) { $0 + $1.weight }
        return (0..<count).map { _ in
            if Double.random(in: 0..<1, using: &random) < 0.05 {
                return GeoPoint(
                    uncheckedLatitude: Double.random(in: korea.south...korea.north, using: &random),
                    longitude: Double.random(in: korea.west...korea.east, using: &random))
            }
            var pick = Double.random(in: 0..<totalWeight, using: &random)
            var city = cities[0]
            for candidate in cities {
                pick -= candidate.weight
                city = candidate
                if pick < 0 { break }
            }
            // A city's spread grows with its size: about 18 km for Seoul, 4 km for a small town.
            let spread = 0.054 * city.weight.squareRoot() * (0.5 + Double.random(in: 0..<1, using: &random))
            let latitude = city.latitude + random.nextGaussian() * spread
            let longitude = city.longitude + random.nextGaussian() * spread * 1.25
            return GeoPoint(
                uncheckedLatitude: Swift.min(Swift.max(latitude, korea.south), korea.north),
                longitude: Swift.min(Swift.max(longitude, korea.west), korea.east))
        }.map { point in
            GeoPoint(uncheckedLatitude: (point.latitude * 1e6).rounded() / 1e6, longitude: (point.longitude * 1e6).rounded() / 1e6)
        }
    }

    /// A random point inside `box`.
    package static func point(in box: GeoBox, using random: inout SplitMix64) -> GeoPoint {
        GeoPoint(
            uncheckedLatitude: Double.random(in: box.south...box.north, using: &random),
            longitude: Double.random(in: box.west...box.east, using: &random))
    }

    /// A box of `fraction` of Korea's area, with Korea's aspect ratio, centred on `center`.
    package static func box(around center: GeoPoint, fraction: Double) -> GeoBox {
        let scale = fraction.squareRoot()
        let halfHeight = (korea.north - korea.south) * scale / 2
        let halfWidth = (korea.east - korea.west) * scale / 2
        return GeoBox(
            uncheckedSouth: Swift.max(center.latitude - halfHeight, -90),
            west: Swift.max(center.longitude - halfWidth, -180),
            north: Swift.min(center.latitude + halfHeight, 90),
            east: Swift.min(center.longitude + halfWidth, 180))
    }
}
