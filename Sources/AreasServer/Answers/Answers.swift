import AreasCore
import AreasIngest
import AreasProtocol

/// How an answer that lists areas is written: the wire protocol's JSON, or (HTTP's
/// `format=geojson`) a GeoJSON FeatureCollection of the same matches, with only ids and
/// distances when `idsOnly`.
enum AnswerForm: Equatable {
    case json
    case geoJSON(idsOnly: Bool)
}

/// The answers' JSON, written straight into the connection's buffer: area lists in each
/// output mode, `check`, and the error line every front door shares (the socket server's
/// `busy` and `too_large` too).
/// What an area list says besides its areas: how a region in the question was read, or why
/// it names nothing the data has (`unknownRegion`, on which areasctl exits 1).
struct AnswerNote {
    var text: String
    var unknownRegion = false
}

enum Answers {
    static func error(_ error: RequestError, into writer: inout JSONWriter) {
        error.write(into: &writer)
    }

    /// `at`: where a question asked by name was asked from.
    static func areas(_ matches: [AreaIndex.Match], truncated: Bool, served: AreaService.View, output: OutputMode, form: AnswerForm,
                      note: AnswerNote? = nil, at: FoundPlace? = nil, into writer: inout JSONWriter) {
        list(matches, truncated: truncated, served: served, output: output, form: form, note: note, into: &writer) { match in
            (match.position, match.distanceMeters)
        } extra: { _, _ in
        } after: { writer in
            if let at { origin(at, into: &writer) }
        }
    }

    /// `"at": {"name", "lat", "lon", "from", ...}`: what a question's `q` found.
    static func origin(_ at: FoundPlace, into writer: inout JSONWriter) {
        writer.key(.at)
        writer.beginObject()
        foundPlaceMembers(at, into: &writer)
        writer.endObject()
    }

    static func route(_ matches: [AreaIndex.RouteMatch], truncated: Bool, served: AreaService.View, output: OutputMode, form: AnswerForm,
                      note: AnswerNote? = nil, into writer: inout JSONWriter) {
        list(matches, truncated: truncated, served: served, output: output, form: form, note: note, into: &writer) { match in
            (match.position, nil)
        } extra: { match, writer in
            writer.key(.alongMeters); writer.meters(match.alongMeters)
            writer.key(.sideMeters); writer.meters(match.sideMeters)
        }
    }

    /// The one area `get` asks for, with everything known of it; as a feature, with what a
    /// listed area has.
    static func detail(_ position: Int, served: AreaService.View, form: AnswerForm, into writer: inout JSONWriter) {
        list([position], truncated: false, served: served, output: .full, form: form, detailed: true, note: nil, into: &writer) { position in
            (position, nil)
        } extra: { _, _ in }
    }

    /// `{"ok":true,"count":..,"truncated":..,"areas":[...]}` in the requested output mode, or
    /// the same matches as a GeoJSON FeatureCollection; each match names its area's position
    /// and distance, and may add members of its own (distances, which a feature with only ids
    /// keeps too); `after` adds the answer's own members after the areas.
    static func list<Match>(
        _ matches: [Match], truncated: Bool, served: AreaService.View, output: OutputMode, form: AnswerForm, detailed: Bool = false,
        note: AnswerNote?, into writer: inout JSONWriter,
        locate: (Match) -> (position: Int, distance: Double?),
        extra: (Match, inout JSONWriter) -> Void,
        after: (inout JSONWriter) -> Void = { _ in }
    ) {
        // The parts the loops read, taken once: reaching them through `served` in the loop
        // copied the index for every area.
        let state = served.state, crowd = served.crowd, times = served.state.changes.times
        if case .geoJSON(let idsOnly) = form {
            GeoJSONCollection.begin(truncated: truncated, into: &writer)
            state.index.areas.withBuffers { areas in
                writer.reserve(matches.count * 500)
                var shapes = ShapeAllowance.listed
                for match in matches {
                    let (position, distance) = locate(match)
                    let at = areas.records[position].coordinate
                    GeoJSONCollection.beginFeature(latitude: at.latitude, longitude: at.longitude, into: &writer)
                    if idsOnly {
                        writer.beginIDEntry(id: areas.utf8(areas.records[position].id), distanceMeters: distance)
                    } else {
                        area(position, of: areas, index: state.index, times: times, crowd: crowd, distance: distance, form: .feature, shapes: &shapes, into: &writer)
                    }
                    extra(match, &writer)
                    writer.endObject()
                    GeoJSONCollection.endFeature(into: &writer)
                }
            }
            GeoJSONCollection.end(into: &writer)
            return
        }
        writer.beginObject()
        writer.key(.ok); writer.bool(true)
        writer.key(.count); writer.number(matches.count)
        writer.key(.truncated); writer.bool(truncated)
        if let note {
            writer.key(.note); writer.string(note.text)
            if note.unknownRegion { writer.key(.unknownRegion); writer.bool(true) }
        }
        if output != .count {
            writer.key(.areas)
            writer.beginArray()
            state.index.areas.withBuffers { areas in
                // The records lie scattered over a large table, a cache miss each. All are asked
                // for at once, then sizing the answer reads them and their ids in one tight
                // loop, so the misses overlap instead of following one another between the
                // writes.
                for match in matches { areas.prefetchRecord(at: locate(match).position) }
                if output == .ids {
                    // An id item makes its own room; the ids' text is all it reads besides.
                    for match in matches { areas.prefetchText(areas.records[locate(match).position].id) }
                } else {
                    var size = 0
                    for match in matches {
                        size &+= areas.utf8(areas.records[locate(match).position].id).count
                    }
                    writer.reserve(size + matches.count * 400)
                }
                var shapes = ShapeAllowance.listed
                for match in matches {
                    let (position, distance) = locate(match)
                    if output == .ids {
                        writer.beginIDEntry(id: areas.utf8(areas.records[position].id), distanceMeters: distance)
                    } else {
                        area(position, of: areas, index: state.index, times: times, crowd: crowd, distance: distance, form: detailed ? .detailed : .listed, shapes: &shapes, into: &writer)
                    }
                    extra(match, &writer)
                    writer.endObject()
                }
            }
            writer.endArray()
        }
        after(&writer)
        writer.endObject()
    }

    /// `before`: the check at the position before, whose zones the answer compares with this
    /// one's (`entered`, `exited`).
    /// `limit`: the most zones listed (`maxResults`), nearest first; `inside` and the summary
    /// speak of every zone, and `truncated` says when the list holds fewer.
    static func check(_ check: AreaIndex.Check, from point: GeoPoint, before: AreaIndex.Check? = nil, served: AreaService.View,
                      at: FoundPlace? = nil, limit: Int = .max, into writer: inout JSONWriter) {
        let state = served.state, crowd = served.crowd, times = served.state.changes.times
        writer.beginObject()
        writer.key(.ok); writer.bool(true)
        if let at { origin(at, into: &writer) }
        writer.key(.inside); writer.bool(check.inside)
        let bearing = CheckSentence.bearing(of: check, from: point, areas: state.index.areas)
        writer.key(.summary); writer.string(CheckSentence.make(check, bearing: bearing, index: state.index))
        state.index.areas.withBuffers { areas in
            var shapes = ShapeAllowance.listed
            writer.key(.truncated); writer.bool(check.zones.count > limit)
            writer.key(.zones)
            writer.beginArray()
            for (zone, edge) in zip(check.zones, check.edgeMeters).prefix(limit) {
                area(zone.position, of: areas, index: state.index, times: times, crowd: crowd, distance: zone.distanceMeters, form: .listed, shapes: &shapes, into: &writer)
                writer.key(.footprintMeters); writer.meters(state.index.footprintRadius(of: zone.position))
                writer.key(.edgeMeters); writer.meters(edge)
                writer.endObject()
            }
            writer.endArray()
            if let before {
                // Zones whose footprint holds the point and did not hold the one before, and
                // the other way round, nearest first as `zones` lists them.
                let (entered, exited) = check.changes(since: before)
                writer.key(.entered)
                writer.beginArray()
                for zone in entered { writer.string(utf8: areas.utf8(areas.records[zone].id)) }
                writer.endArray()
                writer.key(.exited)
                writer.beginArray()
                for zone in exited { writer.string(utf8: areas.utf8(areas.records[zone].id)) }
                writer.endArray()
            }
            writer.key(.nearestSmoking)
            guard let nearest = check.nearestSmoking else {
                writer.null()
                return
            }
            area(nearest.position, of: areas, index: state.index, times: times, crowd: crowd, distance: nearest.distanceMeters, form: .listed, shapes: &shapes, into: &writer)
            // Standing on it, a direction would mean nothing: both are null.
            if let bearing {
                writer.key(.bearingDegrees); writer.number((bearing * 10).rounded() / 10)
                writer.key(.direction); writer.string(Geodesy.compassPoint(bearing))
            } else {
                writer.key(.bearingDegrees); writer.null()
                writer.key(.direction); writer.null()
            }
            writer.endObject()
        }
        region(of: point, served: served, into: &writer)
        // Where the question was asked: the crowd of the hotspot holding the point.
        if let crowd, let known = crowd.reading(at: point) { self.crowd(known, in: crowd, into: &writer) }
        writer.endObject()
    }

    /// How much of an area is written: what a list gives, everything (`get`), or a GeoJSON
    /// feature's properties (a list's, the position being the geometry).
    enum AreaForm {
        case listed, detailed, feature
    }

    /// Writes an area's members (in `AreaSchema`'s order) into an object it opens; the caller
    /// may add more and closes it. An area merged from several sources names them (`sources`);
    /// `detailed` (for `get`) adds every record it was merged from, each with its own fields.
    /// The index and crowd view come as the answer's writer holds them: read in place, where a
    /// copy per area (reaching them through the view) cost a third more of an answer's work.
    static func area(_ position: Int, of areas: AreaTable.Buffers, index: AreaIndex, times: ChangeLog.Times, crowd: CrowdView?, distance: Double?, form: AreaForm,
                     shapes: inout ShapeAllowance, into writer: inout JSONWriter) {
        let area = areas.records[position]
        let detailed = form == .detailed
        writer.beginObject()
        writer.key(.id); writer.string(utf8: areas.utf8(area.id))
        writer.key(.kind); writer.string(area.kind.rawValue)
        writer.key(.name); writer.string(utf8: areas.utf8(area.name))
        if form != .feature {
            writer.key(.lat); writer.number(area.coordinate.latitude)
            writer.key(.lon); writer.number(area.coordinate.longitude)
        }
        if let distance { writer.key(.distanceMeters); writer.meters(distance) }
        writer.key(.address); writer.string(utf8: areas.utf8(area.address))
        writer.key(.district); writer.string(utf8: areas.utf8(area.district))
        writer.key(.source); writer.string(utf8: areas.utf8(area.source))
        // Only a geocoded position says anything: published ones keep the answer they always had.
        if area.geocoded { writer.key(.geocoded); writer.bool(true) }
        if let date = ReferenceDate(day: index.referenceDay(ofArea: position, in: areas)) { writer.key(.referenceDate); writer.string(date.text) }
        // The operator's corrections say so, and `get` gives their note.
        if !index.overrides.isEmpty, !index.overrides.flags(of: position).isEmpty {
            writer.key(.overridden); writer.bool(true)
            if detailed, let note = index.overrides.note(of: position) { writer.key(.note); writer.string(note) }
        }
        if let seen = times.of(position) {
            writer.key(.firstSeen); writer.time(seen.firstSeen)
            if seen.changedAt > 0 { writer.key(.changedAt); writer.time(seen.changedAt) }
        }
        let sources = index.mergedSources(ofArea: position, in: areas)
        if !sources.isEmpty {
            writer.key(.sources)
            writer.beginArray()
            for source in sources { writer.string(utf8: areas.utf8(source)) }
            writer.endArray()
        }
        if let (footprint, words) = index.footprint(of: position) {
            let shape = footprint.basis == .shape ? publishedShape(position, of: areas) : nil
            self.footprint(footprint, words: areas.utf8(words), shape: shape.map { detailed ? ($0, false) : shapes.take($0) }, into: &writer)
        }
        if let crowd, let known = crowd.reading(ofArea: position) { self.crowd(known, in: crowd, into: &writer) }
        if detailed {
            writer.key(.province); writer.string(utf8: areas.utf8(area.province))
            writer.key(.roadAddress); writer.string(utf8: areas.utf8(area.roadAddress))
            writer.key(.lotAddress); writer.string(utf8: areas.utf8(area.lotAddress))
            regionFindings(position, of: areas, into: &writer)
            writer.key(.fields)
            writer.beginObject()
            areas.forEachField(of: position) { key, value in
                guard !ShapeText.isAdded(key) else { return }
                writer.string(utf8: key)
                writer.colon()
                writer.string(utf8: value)
            }
            writer.endObject()
            writer.key(.records)
            writer.beginArray()
            for member in index.groups.records(of: position) { record(member, of: areas, ledBy: position, into: &writer) }
            writer.endArray()
        }
    }

    /// The shape the record at `position` was published with, kept among its fields.
    static func publishedShape(_ position: Int, of areas: AreaTable.Buffers) -> Shape? {
        var shape: Shape?
        areas.forEachField(of: position) { key, value in
            if ShapeText.isAdded(key), shape == nil { shape = ShapeText.decode(value) }
        }
        return shape
    }

    /// `"footprint": {"basis", "shape", "radiusMeters", "approximate", "words"}`: the zone's
    /// footprint and what in its record it rests on; a shape's adds its `widthMeters` and its
    /// `geometry` (GeoJSON), for drawing it.
    /// `shape`: what is written of the zone's shape, and whether it is simplified (a list's
    /// answer draws it with at most `ShapeAllowance`'s vertices; `get` has it whole).
    static func footprint(_ footprint: ZoneFootprint, words: UnsafeBufferPointer<UInt8>, shape: (drawn: Shape?, simplified: Bool)?, into writer: inout JSONWriter) {
        if footprint.shape == .circle {
            writer.beginCircleFootprint(basis: footprint.basis.name, radiusMeters: footprint.radiusMeters)
        } else {
            writer.key(.footprint)
            writer.beginObject()
            writer.key(.basis); writer.string(constant: footprint.basis.name)
            writer.key(.shape); writer.string(constant: footprint.shape.name)
        }
        if let shape {
            writer.key(.widthMeters); writer.meters(footprint.widthMeters)
            writer.key(.geometry)
            if let drawn = shape.drawn { GeoJSONCollection.geometry(drawn, into: &writer) } else { writer.null() }
            if shape.simplified { writer.key(.simplified); writer.bool(true) }
        }
        if footprint.approximate { writer.key(.approximate); writer.bool(true) }
        if footprint.clamped { writer.key(.clamped); writer.bool(true) }
        if !words.isEmpty { writer.key(.words); writer.string(utf8: words) }
        writer.endObject()
    }

    /// One source record of an area, as `get` lists them: its own id, name, position, date and
    /// upstream columns (as `[key, value]` pairs, in the order the source sent them); a record
    /// folded into the area of `leader` says why (`mergeReason`: how far, which name test).
    static func record(_ position: Int, of areas: AreaTable.Buffers, ledBy leader: Int, into writer: inout JSONWriter) {
        let record = areas.records[position]
        writer.beginObject()
        if position != leader {
            let reason = MergeReason(member: record, leader: areas.records[leader]) { String(decoding: areas.utf8($0), as: UTF8.self) }
            writer.key(.mergeReason)
            writer.beginObject()
            writer.key(.meters); writer.meters(reason.meters)
            writer.key(.names); writer.string(reason.names.rawValue)
            writer.endObject()
        }
        writer.key(.source); writer.string(utf8: areas.utf8(record.source))
        writer.key(.id); writer.string(utf8: areas.utf8(record.id))
        writer.key(.name); writer.string(utf8: areas.utf8(record.name))
        writer.key(.lat); writer.number(record.coordinate.latitude)
        writer.key(.lon); writer.number(record.coordinate.longitude)
        if let date = record.referenceDate { writer.key(.referenceDate); writer.string(date.text) }
        if record.geocoded { writer.key(.geocoded); writer.bool(true) }
        writer.key(.fields)
        writer.beginArray()
        areas.forEachField(of: position) { key, value in
            guard !ShapeText.isAdded(key) else { return }
            writer.beginArray()
            writer.string(utf8: key)
            writer.string(utf8: value)
            writer.endArray()
        }
        writer.endArray()
        writer.endObject()
    }
}
