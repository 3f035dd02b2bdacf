import AreasCore

/// Rings drawn to cost a shape check the most, for the tests and benchmarks that bound it.
package enum HostileShapes {
    /// A comb of `vertices` vertices (about a quarter of them teeth): a spine along the west,
    /// each tooth a long thin rectangle eastward, so that every tooth's edges stay open across
    /// a sweep from west to east. Not closed (its first vertex not repeated).
    package static func comb(vertices: Int) -> [ShapeVertex] {
        let teeth = (vertices - 2) / 4
        var comb: [ShapeVertex] = [ShapeVertex(latitude: 375_000_000, longitude: 1_270_000_000)]
        for t in 0..<teeth {
            let y = Int32(375_000_000 + t * 40)
            comb += [ShapeVertex(latitude: y, longitude: 1_270_000_100), ShapeVertex(latitude: y, longitude: 1_270_100_000),
                     ShapeVertex(latitude: y + 20, longitude: 1_270_100_000), ShapeVertex(latitude: y + 20, longitude: 1_270_000_100)]
        }
        comb.append(ShapeVertex(latitude: Int32(375_000_000 + teeth * 40), longitude: 1_270_000_000))
        return comb
    }

    /// A ring of `count` vertices around one point 5 km across: a circle, or with `lobes`, a
    /// figure-eight that crosses itself once, in its middle.
    package static func round(_ count: Int, lobes: Bool = false) -> [ShapeVertex] {
        (0..<count).map { i in
            let angle = Double(i) / Double(count) * 2 * .pi
            let x = lobes ? sin(2 * angle) : cos(angle)
            return ShapeVertex(latitude: Int32(375_000_000 + 50_000 * sin(angle)), longitude: Int32(1_270_000_000 + 50_000 * x))
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
