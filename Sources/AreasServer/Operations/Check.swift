import AreasCore
import AreasProtocol

extension Request.Check: ServedQuestion {
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        let origin = try asked.origin(of: at)
        let state = asked.state
        let point = origin.point
        let region = asked.resolved(region)
        let before = try previous.map { previous throws(RequestError) in
            try AreaService.run { () throws(GeoError) in try state.index.check(previous, region: region) }.get()
        }
        let check = try AreaService.run { () throws(GeoError) in try state.index.check(point, region: region) }.get()
        asked.view.crowd?.watch.touch(point)
        Answers.check(check, from: point, before: before, served: asked.view, at: origin.found,
                      limit: asked.maxResults, into: &writer)
    }
}
