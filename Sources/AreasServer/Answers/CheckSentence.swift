import AreasCore

/// The one sentence `check` leads with, for a person standing at the point.
package enum CheckSentence {
    /// Nearer than this, a person stands on the area: it is "here", and has no direction.
    static let hereMeters = 1.0

    /// The bearing from `point` to the check's nearest smoking area, in degrees; nil with none
    /// known, or standing on it, where a direction would mean nothing.
    package static func bearing(of check: AreaIndex.Check, from point: GeoPoint, areas: AreaTable) -> Double? {
        guard let nearest = check.nearestSmoking, let meters = nearest.distanceMeters, meters >= hereMeters else { return nil }
        return Geodesy.bearing(from: point, to: areas[nearest.position].coordinate)
    }

    /// `bearing`: what `bearing(of:from:areas:)` gave for the same check. A point inside only
    /// zones whose footprint is approximate (a school route whose course is not published: a
    /// circle of its length) is "probably" inside, and the sentence says why.
    package static func make(_ check: AreaIndex.Check, bearing: Double?, index: AreaIndex) -> String {
        let areas = index.areas
        var sentence: String
        let firm = check.zones.filter { index.footprint(of: $0.position)?.footprint.approximate != true }
        switch (check.zones.count, firm.count) {
        case (0, _): sentence = "Not inside any known non-smoking zone."
        case (1, 1): sentence = "No smoking here: inside 1 non-smoking zone (\(areas[check.zones[0].position].name))."
        case (_, 1...): sentence = "No smoking here: inside \(check.zones.count) non-smoking zones."
        case (1, 0): sentence = "Probably no smoking here: inside 1 approximate non-smoking zone (\(areas[check.zones[0].position].name): a route whose course is not published, drawn as a circle of its length)."
        default: sentence = "Probably no smoking here: inside \(check.zones.count) approximate non-smoking zones (routes whose course is not published, drawn as circles of their length)."
        }
        if let nearest = check.nearestSmoking, let meters = nearest.distanceMeters {
            let name = areas[nearest.position].name
            if let bearing {
                sentence += " Nearest smoking area: \(MeasurementText.distance(meters)) \(Geodesy.compassPoint(bearing)), \(name)."
            } else {
                sentence += " Nearest smoking area: here, \(name)."
            }
        } else {
            sentence += " No smoking area is known."
        }
        return sentence
    }
}
