import AreasCore
import AreasProtocol

/// Questions asked from a name (`q`) instead of a position: where they are asked from.
extension AreaService {
    /// Where a question is asked from, and, for a name, what was found for it. A name is a
    /// position only: `near --at 중랑구` asks from a point inside 중랑구 and offers the nearest
    /// areas wherever they are (a filter is `district`).
    struct Origin {
        var point: GeoPoint
        /// What the name found (`at` in the answer); nil for a position given as one.
        var found: FoundPlace?
    }

    /// The point of `position`: itself, or for a name, the first thing `search` finds for it:
    /// an area whose name is the text, else a region whose own name is the text (`용산구`, not
    /// the zone `용산구 시민로5 통학로`), else an area whose name holds it, else any region, else
    /// an area whose address holds it. Nothing found is `not_found` naming the text; a name
    /// that several regions have as their own (`명동`: in 제천, 진해 and 양산) or several areas
    /// far apart is `ambiguous`, listing them with their provinces (`서울 명동` names one).
    func origin(of position: QueryPosition, state: ServingState, view: View) throws(RequestError) -> Origin {
        let text: String
        switch position {
        case .point(let point):
            try Self.requireInside(view.bounds, point)
            return Origin(point: point)
        case .named(let name):
            text = name
        }
        let areas = try Self.run { () throws(GeoError) in try state.index.search(text, limit: Self.ambiguityLimit) }.get().matches
        let regions = view.regions.map.map { FoundPlace.regions(text, on: $0, limit: Self.ambiguityLimit) } ?? []
        let area = areas.first.map { match in
            (rank: match.rank, place: state.index.areas.withBuffers { table in FoundPlace(area: match.position, of: table) })
        }
        let region = regions.first.map { (exact: $0.rank == 0, place: $0) }
        let hotspot = view.crowd.flatMap { FoundPlace.hotspots(text, in: $0.watch.hotspots, limit: 1, map: view.regions.map).first { $0.rank == 0 } }
        let chosen: FoundPlace?
        if let area, area.rank == .exactName {
            chosen = area.place
        } else if let region, region.exact {
            chosen = region.place
        } else if let hotspot {
            // A hotspot's own name (`남산공원`): the place the city counts people in.
            chosen = hotspot
        } else if let area, area.rank != .address {
            chosen = area.place
        } else {
            chosen = region?.place ?? area?.place
        }
        // One name, several places: refused, each named with its province and district.
        let candidates: [FoundPlace]
        if let area, area.rank == .exactName {
            candidates = areas.filter { $0.rank == .exactName }.map { match in state.index.areas.withBuffers { FoundPlace(area: match.position, of: $0) } }
        } else if let region, region.exact {
            candidates = regions.filter { $0.rank == 0 }
        } else {
            candidates = []
        }
        if let first = candidates.first, candidates.contains(where: { Geodesy.distance($0.point, first.point) > Self.samePlaceMeters }) {
            // Every place the name finds, the ones that begin with it too (Seoul's 명동 is
            // 명동1가 and 명동2가), each with its province and district.
            let listed = candidates.first?.origin == .region ? regions.filter { $0.rank <= 1 } : candidates
            let named = listed.map { place in
                ([place.province, place.district].compactMap { $0 }.filter { !$0.isEmpty && $0 != place.name } + [place.name]).joined(separator: " ")
            }
            let hint = [first.district, first.province].compactMap { $0 }.first { !$0.isEmpty && $0 != first.name }
            throw RequestError(.ambiguous, "'\(text.prefix(60))' names \(candidates.count) places far apart: " + named.joined(separator: ", ")
                + "; name one with its province or district" + (hint.map { " (\"\($0) \(text.prefix(60))\")" } ?? ""))
        }
        var found = chosen
        if found == nil && config.geocoder != nil { found = try geocoded(text, view: view).get() }
        guard let chosen = found else {
            throw RequestError(.notFound, "nothing is named '\(text.prefix(60))': no area's name or address and no province, district or town holds every word"
                + (config.geocoder != nil ? ", and the geocoder knows no such address or place" : ""))
        }
        return Origin(point: chosen.point, found: chosen)
    }

    /// Candidates looked at for a name several places may share.
    static let ambiguityLimit = 8
    /// Places of one name closer than this are one place (a station's exits, a town's parts).
    static let samePlaceMeters = 2_000.0

    /// What the geocoder says of `text`: a place, none, or why there is no answer now (it is
    /// slow, busy or failing: `unavailable`, to ask again). The wait is off the work turns.
    func geocoded(_ text: String, view: View) -> Result<FoundPlace?, RequestError> {
        switch searchGeocoder.locate(text, config: config, environment: environment, quota: quota, whileWaiting: view.whileWaiting) {
        case .found(let point):
            return .success(FoundPlace(name: text, point: point, origin: .geocoder))
        case .notFound:
            return .success(nil)
        case .pending:
            return .failure(RequestError(.unavailable, "the geocoder has not answered for '\(text.prefix(60))' within \(SearchGeocoder.waitSeconds) s; ask again in a moment"))
        case .unavailable(let why):
            return .failure(RequestError(.unavailable, "the geocoder could not be asked for '\(text.prefix(60))': \(why)"))
        }
    }
}
