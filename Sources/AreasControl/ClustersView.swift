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
            var rows = [["LAT", "LON", "AREAS", "SMOKING", "NON-SMOKING"]]
            for cluster in clusters {
                rows.append([cluster.double(.lat).map { String($0) } ?? "", cluster.double(.lon).map { String($0) } ?? "",
                             String(cluster.int(.count) ?? 0), String(cluster.int(.smoking) ?? 0), String(cluster.int(.nonsmoking) ?? 0)])
            }
            text += "\n" + align(rows, rightAligned: [0, 1, 2, 3, 4], width: width)
        }
        if !areas.isEmpty { text += "\n" + table(areas, count: areas.count, width: width) }
        return text
    }
}
