import AreasCore
import AreasProtocol

/// `areasctl clusters` for people: the clusters with their counts by kind, then the areas that
/// stand alone.
extension ResponseFormatter {
    static func clusters(_ answer: Object, width: Int?) -> String {
        let clusters = answer.array(.clusters).compactMap { value -> Object? in
            if case .object(let members) = value { return Object(members) } else { return nil }
        }
        let areas = answer.array(.areas).compactMap { value -> Object? in
            if case .object(let members) = value { return Object(members) } else { return nil }
        }
        var text = "\(answer.int(.count) ?? 0) areas at zoom \(answer.int(.zoom) ?? 0): \(clusters.count) clusters, \(areas.count) alone\n"
        if !clusters.isEmpty {
            // Where each is, when the daemon has the administrative map: its centre's district.
            let named = clusters.contains { $0.string(.district) != nil || $0.string(.province) != nil }
            var rows = [(named ? ["WHERE"] : []) + ["LAT", "LON", "AREAS", "SMOKING", "NON-SMOKING"]]
            for cluster in clusters {
                let place = [cluster.string(.province), cluster.string(.district)].compactMap { $0 }.joined(separator: " ")
                rows.append((named ? [place.isEmpty ? "–" : place] : [])
                    + [cluster.double(.lat).map(MeasurementText.coordinate) ?? "", cluster.double(.lon).map(MeasurementText.coordinate) ?? "",
                       String(cluster.int(.count) ?? 0), String(cluster.int(.smoking) ?? 0), String(cluster.int(.nonsmoking) ?? 0)])
            }
            let first = named ? 1 : 0
            text += "\n" + align(rows, rightAligned: Set(first..<first + 5), elastic: named ? [0] : [], width: width)
        }
        if !areas.isEmpty { text += "\n" + table(areas, count: areas.count, width: width) }
        return text
    }
}
