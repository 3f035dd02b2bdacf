import AreasCore
import AreasIngest
import AreasProtocol

/// `clusters`: a view's areas grouped for a map.
extension Answers {
    /// Each cluster with its centre's province and district when the administrative map is
    /// loaded (`areasctl clusters` names where each is).
    static func clusters(_ clustering: Clustering, vanished: [(area: ChangeLog.Before, lastSeen: Double)], served: AreaService.View, into writer: inout JSONWriter) {
        let regions = served.regions.map, state = served.state, crowd = served.crowd
        writer.beginObject()
        writer.key(.ok); writer.bool(true)
        writer.key(.zoom); writer.number(clustering.zoom)
        writer.key(.count); writer.number(clustering.count)
        // What makes an area's `firstSeen` news: a map marks those first seen after it.
        if let firstServed = state.firstServed { writer.key(.firstServed); writer.time(firstServed) }
        writer.key(.clusters)
        writer.beginArray()
        for cluster in clustering.clusters {
            writer.beginObject()
            writer.key(.lat); writer.number((cluster.center.latitude * 1e6).rounded() / 1e6)
            writer.key(.lon); writer.number((cluster.center.longitude * 1e6).rounded() / 1e6)
            writer.key(.count); writer.number(cluster.count)
            writer.key(.smoking); writer.number(cluster.smoking)
            writer.key(.nonsmoking); writer.number(cluster.nonsmoking)
            writer.key(.south); writer.number(cluster.bounds.south)
            writer.key(.west); writer.number(cluster.bounds.west)
            writer.key(.north); writer.number(cluster.bounds.north)
            writer.key(.east); writer.number(cluster.bounds.east)
            if let regions {
                let place = regions.place(of: cluster.center)
                for (level, key) in [(RegionMap.Level.province, AnswerKey.province), (.district, .district)] {
                    if let row = place.row(level) { writer.key(key); writer.string(regions[level].names[row]) }
                }
            }
            writer.endObject()
        }
        writer.endArray()
        writer.key(.areas)
        writer.beginArray()
        state.index.areas.withBuffers { areas in
            var shapes = ShapeAllowance.listed
            for position in clustering.areas {
                area(position, of: areas, index: state.index, times: state.changes.times, crowd: crowd, distance: nil, form: .listed, shapes: &shapes, into: &writer)
                writer.endObject()
            }
        }
        writer.endArray()
        writer.key(.vanished)
        writer.beginArray()
        for (area, lastSeen) in vanished {
            writer.beginObject()
            writer.key(.id); writer.string(area.id)
            writer.key(.kind); writer.string(area.kind.rawValue)
            writer.key(.name); writer.string(area.name)
            writer.key(.lat); writer.number(area.latitude)
            writer.key(.lon); writer.number(area.longitude)
            writer.key(.address); writer.string(area.address)
            writer.key(.lastSeen); writer.time(lastSeen)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }
}
