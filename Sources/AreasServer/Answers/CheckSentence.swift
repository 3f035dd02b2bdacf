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

    /// `bearing`: what `bearing(of:from:areas:)` gave for the same check.
    package static func make(_ check: AreaIndex.Check, bearing: Double?, areas: AreaTable) -> String {
        var sentence: String
        switch check.zones.count {
        case 0: sentence = "Not inside any known non-smoking zone."
        case 1: sentence = "No smoking here: inside 1 non-smoking zone (\(areas[check.zones[0].position].name))."
        default: sentence = "No smoking here: inside \(check.zones.count) non-smoking zones."
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
