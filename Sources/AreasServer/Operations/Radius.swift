import AreasCore
import AreasProtocol

extension Request.Radius: ServedQuestion {
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        let origin = try asked.origin(of: at)
        let state = asked.state
        let region = asked.resolved(region)
        let cap = AreaService.cap(limit, output: output, maxResults: asked.maxResults)
        let matches = try AreaService.run { () throws(GeoError) in
            try state.index.areas(within: meters, of: origin.point, kind: kind, region: region, limit: cap + 1)
        }.get()
        asked.view.crowd?.watch.touch(origin.point)
        Answers.areas(Array(matches.prefix(cap)), truncated: matches.count > cap, served: asked.view, output: output,
                      form: asked.form, note: asked.note(matches.isEmpty, region), at: origin.found, into: &writer)
    }
}
