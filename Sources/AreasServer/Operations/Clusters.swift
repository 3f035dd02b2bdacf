import AreasCore
import AreasProtocol

extension Request.Clusters: ServedQuestion {
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        try asked.requireData()
        let state = asked.state
        let region = asked.resolved(region)
        let clustering = try AreaService.run { () throws(GeoError) in try state.index.clusters(in: box, zoom: zoom, kind: kind, region: region) }.get()
        Answers.clusters(clustering, served: asked.view, into: &writer)
    }
}
