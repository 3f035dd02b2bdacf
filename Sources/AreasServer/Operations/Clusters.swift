import AreasCore
import AreasIngest
import AreasProtocol
import Foundation

extension Request.Clusters: ServedQuestion {
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        try asked.requireData()
        let state = asked.state
        let region = asked.resolved(region)
        let clustering = try AreaService.run { () throws(GeoError) in try state.index.clusters(in: box, zoom: zoom, kind: kind, region: region) }.get()
        // What the versions of the last 30 days removed from the view.
        let vanished = state.recentlyVanished(now: Date().timeIntervalSince1970).inView(box, kind: kind, region: region)
        Answers.clusters(clustering, vanished: vanished, served: asked.view, into: &writer)
    }
}
