import AreasCore
import AreasProtocol

extension Request.BBox: ServedQuestion {
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        try asked.requireData()
        let state = asked.state
        let region = asked.resolved(region)
        let cap = AreaService.cap(limit, output: output, maxResults: asked.maxResults)
        let matches = try AreaService.run { () throws(GeoError) in try state.index.areas(in: box, kind: kind, region: region, limit: cap + 1) }.get()
        Answers.areas(Array(matches.prefix(cap)), truncated: matches.count > cap, served: asked.view, output: output,
                      form: asked.form, note: asked.note(matches.isEmpty, region), into: &writer)
    }
}
