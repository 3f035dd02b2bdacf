import AreasCore

/// The one sentence `check` leads with, for a person standing at the point.
package enum CheckSentence {
    /// Nearer than this, a person stands on the area: it is "here", and has no direction.
    package static let hereMeters = 1.0

    package static func make(_ check: AreaIndex.Check, from point: GeoPoint, areas: AreaTable) -> String {
        var sentence: String
        switch check.zones.count {
        case 0: sentence = "Not inside any known non-smoking zone."
        case 1: sentence = "No smoking here: inside 1 non-smoking zone (\(areas[check.zones[0].position].name))."
        default: sentence = "No smoking here: inside \(check.zones.count) non-smoking zones."
        }
        if let nearest = check.nearestSmoking, let meters = nearest.distanceMeters {
            let area = areas[nearest.position]
            let direction = Geodesy.compassPoint(Geodesy.bearing(from: point, to: area.coordinate))
            sentence += meters < hereMeters ? " Nearest smoking area: here, \(area.name)." : " Nearest smoking area: \(MeasurementText.distance(meters)) \(direction), \(area.name)."
        } else {
            sentence += " No smoking area is known."
        }
        return sentence
    }
}
