extension PackedRTree {
    /// Every entry of the given classes within `meters` of `point`, nearest first, ties by payload;
    /// at most `limit`.
    ///
    /// - Complexity: O(log n + m) node visits for m entries within reach, and O(m) more to put
    ///   them in order (bucketed by distance; a comparison sort only for crowded buckets).
    public func search(within meters: Double, of point: GeoPoint, classMask: UInt8 = 0xFF, limit: Int = .max) -> [Neighbor] {
        search(within: meters, of: point, classMask: classMask, limit: limit, filter: AdmitAll())
    }

    public func search<Filter: EntryFilter>(within meters: Double, of point: GeoPoint, classMask: UInt8 = 0xFF, limit: Int = .max, filter: Filter) -> [Neighbor] {
        guard limit > 0 else { return [] }
        var found = ScratchBuffer<Neighbor>(capacity: 128)
        forEach(within: meters, of: DistanceOrigin(point), classMask: classMask, filter: filter) { payload, distance in
            found.append(Neighbor(payload: payload, distanceMeters: distance))
            return true
        }
        var result = NeighborSort.sorted(found.elements, farthest: meters)
        if result.count > limit { result.removeSubrange(limit...) }
        return result
    }

    /// Calls `visit` with the payload and distance of every entry of the given classes within
    /// `meters` of `origin`, in no particular order, until it returns false.
    @inline(__always)
    func forEach<Filter: EntryFilter>(within meters: Double, of origin: DistanceOrigin, classMask: UInt8 = 0xFF, filter: Filter,
                                      _ visit: (_ payload: UInt32, _ distanceMeters: Double) -> Bool) {
        guard count > 0 else { return }
        let limitH = Self.prunableHaversine(meters: meters)
        // Four comparisons reject most of what lies outside the circle before any trigonometry.
        guard var reach = try? Geodesy.boundingBox(around: origin.point, meters: meters) else { return }
        if reach.west <= -180 || reach.east >= 180 {
            // Clamped at the antimeridian: the circle continues on the far side.
            reach.west = -180
            reach.east = 180
        }
        withUnsafeTemporaryAllocation(of: Double.self, capacity: leafTermCapacity) { terms in
            let terms = terms.baseAddress.unsafelyUnwrapped
            depthFirst(classMask: classMask, descend: { $0.intersects(reach) && origin.quickHaversineLowerBound(to: $0) <= limitH }) { entries, leaf, admitted in
                entries.haversineLowerBounds(from: origin, positions: leaf, into: terms)
                return EntryView.forEachTerm(terms, count: leaf.count, atMost: limitH) { offset in
                    let position = leaf.lowerBound &+ offset
                    guard admitted || entries.classes[position] & classMask != 0 else { return true }
                    let payload = entries.payloads[position]
                    guard filter.admits(payload) else { return true }
                    let distance = Geodesy.meters(haversine: terms[offset])
                    return distance > meters || visit(payload, distance)
                }
            }
        }
    }
}
