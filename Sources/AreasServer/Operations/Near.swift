import AreasCore
import AreasProtocol

extension Request.Near: ServedQuestion {
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        let origin = try asked.origin(of: at)
        let state = asked.state
        let region = asked.resolved(region)
        let matches = try AreaService.run { () throws(GeoError) in
            try state.index.nearest(to: origin.point, k: Swift.min(k, asked.maxResults), maxMeters: maxMeters, kind: kind, region: region)
        }.get()
        asked.view.crowd?.watch.touch(origin.point)
        Answers.areas(matches, truncated: k > asked.maxResults && matches.count == asked.maxResults, served: asked.view,
                      output: output, form: asked.form, note: asked.note(matches.isEmpty, region), at: origin.found, into: &writer)
    }
}
