import AreasCore
import AreasProtocol

/// Questions asked from a name (`q`) instead of a position: where they are asked from.
extension AreaService {
    /// Where a question is asked from, and, for a name, what was found for it.
    struct Origin {
        var point: GeoPoint
        /// What the name found (`at` in the answer); nil for a position given as one.
        var found: FoundPlace?
        /// The district the name is (`near --at 용산구`): the answer keeps to it when the
        /// question names no region of its own.
        var district: Region?
    }

    /// The point of `position`: itself, or for a name, the first thing `search` finds for it:
    /// an area whose name is the text, else a region whose own name is the text (`용산구`, not
    /// the zone `용산구 시민로5 통학로`), else an area whose name holds it, else any region, else
    /// an area whose address holds it. Nothing found is `not_found` naming the text.
    func origin(of position: QueryPosition, state: ServingState, view: View) throws(RequestError) -> Origin {
        let text: String
        switch position {
        case .point(let point):
            try Self.requireInside(view.bounds, point)
            return Origin(point: point)
        case .named(let name):
            text = name
        }
        let areas = try Self.run { () throws(GeoError) in try state.index.search(text, limit: 1) }.get().matches
        let regions = view.regions.map.map { FoundPlace.regions(text, on: $0, limit: 1) } ?? []
        let area = areas.first.map { match in
            (rank: match.rank, place: state.index.areas.withBuffers { table in FoundPlace(area: match.position, of: table) })
        }
        let region = regions.first.map { (exact: $0.rank == 0, place: $0) }
        let chosen: FoundPlace?
        if let area, area.rank == .exactName {
            chosen = area.place
        } else if let region, region.exact {
            chosen = region.place
        } else if let area, area.rank != .address {
            chosen = area.place
        } else {
            chosen = region?.place ?? area?.place
        }
        var found = chosen
        if found == nil && config.geocoder != nil { found = try geocoded(text, view: view).get() }
        guard let chosen = found else {
            throw RequestError(.notFound, "nothing is named '\(text.prefix(60))': no area's name or address and no province, district or town holds every word"
                + (config.geocoder != nil ? ", and the geocoder knows no such address or place" : ""))
        }
        let district = chosen.origin == .region && chosen.level == .district
            ? Region(province: chosen.province, district: chosen.name) : nil
        return Origin(point: chosen.point, found: chosen, district: district)
    }

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
