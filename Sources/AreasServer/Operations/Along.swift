import AreasCore
import AreasProtocol

extension Request.Along: ServedQuestion {
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        try asked.requireData()
        let state = asked.state
        if !path.contains(where: asked.view.bounds.contains), let first = path.first {
            try AreaService.requireInside(asked.view.bounds, first, what: "every point of the route")
        }
        let region = asked.resolved(region)
        let cap = AreaService.cap(limit, output: output, maxResults: asked.maxResults)
        let matches = try AreaService.run { () throws(GeoError) in
            try state.index.along(path, meters: meters, kind: kind, region: region, limit: cap + 1)
        }.get()
        Answers.route(Array(matches.prefix(cap)), truncated: matches.count > cap, served: asked.view, output: output,
                      form: asked.form, note: asked.note(matches.isEmpty, region), into: &writer)
    }
}
