import AreasCore
import AreasProtocol

extension Request.Search: ServedQuestion {
    /// How many areas a search answers when it gives no `limit`, and how many places at most.
    static let defaultLimit = 10
    static let placeLimit = 5

    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        try asked.requireData()
        let state = asked.state
        let view = asked.view
        if let point { try AreaService.requireInside(view.bounds, point) }
        let region = asked.resolved(region)
        let found = try AreaService.run { () throws(GeoError) in
            try state.index.search(text, near: point, kind: kind, region: region,
                                   limit: AreaService.cap(limit ?? Self.defaultLimit, output: .full, maxResults: asked.maxResults))
        }.get()
        var places = view.regions.map.map { FoundPlace.regions(text, on: $0, limit: Self.placeLimit, near: point) } ?? []
        if let hotspots = view.crowd?.watch.hotspots { places += FoundPlace.hotspots(text, in: hotspots, limit: Self.placeLimit, map: view.regions.map) }
        var note = found.nearestOnly
            ? "'\(text.prefix(40))' is in more areas than a search ranks all of: these are the nearest that hold it; add a word to rank every one" : nil
        if found.matches.isEmpty && places.isEmpty && asked.service.config.geocoder != nil {
            switch asked.service.geocoded(text, view: view) {
            case .success(let place): places = place.map { [$0] } ?? []
            case .failure(let why): note = why.message
            }
        }
        Answers.search(found.matches, truncated: found.truncated, places: places, note: note, served: view, into: &writer)
    }
}
