import AreasCore
import AreasIngest
import AreasProtocol

/// The city's people density in answers: `crowd` on an area inside a hotspot (and on a
/// `check` asked inside one), and `/v1/crowd`, every hotspot with its level and the asking.
extension Answers {
    /// `"crowd": {"place", "level", "message", "min", "max", "at", "ageSeconds", "stale"}`: the
    /// members but the age as the watch wrote them once for the reading (`written`), then the
    /// age, and `stale` when it is past `crowd.staleAfterSeconds`.
    static func crowd(_ known: CrowdView.Known, in view: CrowdView, into writer: inout JSONWriter) {
        writer.key(.crowd)
        writer.beginObject()
        known.written.withUnsafeBufferPointer { writer.members(written: $0) }
        age(known.reading, watch: view.watch, now: view.watch.now, into: &writer)
        writer.endObject()
    }

    /// `ageSeconds`, and `"stale": true` past the watch's `staleAfterSeconds`.
    private static func age(_ reading: CrowdReading, watch: CrowdWatch, now: Double, into writer: inout JSONWriter) {
        let age = reading.ageSeconds(at: now)
        writer.key(.ageSeconds); writer.number(age)
        if watch.isStale(ageSeconds: Double(age)) { writer.key(.stale); writer.bool(true) }
    }

    /// The members of a reading of hotspot `place` but its age, written once when it arrives.
    package static func readingMembers(place: String, reading: CrowdReading) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.key(.place); writer.string(place)
        writer.key(.level); writer.string(reading.level.rawValue)
        writer.key(.message); writer.string(reading.message)
        if let minimum = reading.minimum { writer.key(.min); writer.number(minimum) }
        if let maximum = reading.maximum { writer.key(.max); writer.number(maximum) }
        writer.key(.at); writer.string(reading.atText)
        return writer.withBytes { Array($0.dropFirst()) }
    }

    /// `/v1/crowd`: every hotspot, in the places file's order, with its last level (when one
    /// came), when it was last asked about and how that went; the day's requests against the
    /// limit, each outcome's count, and why asking stopped. As GeoJSON, the hotspots' polygons
    /// with the same members as properties.
    static func crowd(_ watch: CrowdWatch, form: AnswerForm, into writer: inout JSONWriter) {
        let status = watch.status
        let hotspots = watch.hotspots
        func members(_ hotspot: Int) {
            writer.key(.code); writer.string(hotspots.codes[hotspot])
            if let reading = status.readings[hotspot] {
                readingMembers(place: hotspots.names[hotspot], reading: reading).withUnsafeBufferPointer { writer.members(written: $0) }
                age(reading, watch: watch, now: status.now, into: &writer)
            } else {
                writer.key(.place); writer.string(hotspots.names[hotspot])
            }
            if let asked = status.askedAt[hotspot] { writer.key(.lastAskedAt); writer.string(CrowdReading.koreanText(asked)) }
            if let (outcome, said) = status.lastOutcome[hotspot] {
                writer.key(.lastOutcome); writer.string(outcome.rawValue)
                if !said.isEmpty { writer.key(.lastError); writer.string(said) }
            }
        }
        if case .geoJSON = form {
            GeoJSONCollection.begin(truncated: false, into: &writer)
            for hotspot in 0..<hotspots.count {
                writer.beginObject()
                writer.key("type"); writer.string("Feature")
                writer.key("geometry")
                GeoJSONCollection.geometry(hotspots.polygons[hotspot], into: &writer)
                writer.key("properties")
                writer.beginObject()
                members(hotspot)
                writer.endObject()
                writer.endObject()
            }
            GeoJSONCollection.end(into: &writer)
            return
        }
        writer.beginObject()
        writer.key(.ok); writer.bool(true)
        writer.key(.count); writer.number(hotspots.count)
        writer.key(.requestsToday); writer.number(status.requestsToday)
        writer.key(.dailyRequestLimit); writer.number(watch.config.dailyRequestLimit)
        if watch.config.recordedAnswers != nil { writer.key(.recorded); writer.bool(true) }
        if let stopped = status.stopped { writer.key(.stopped); writer.string(stopped) }
        writer.key(.outcomes)
        writer.beginObject()
        for outcome in CrowdOutcome.allCases where status.outcomes[outcome.index] > 0 {
            writer.key(escaping: outcome.rawValue); writer.number(status.outcomes[outcome.index])
        }
        writer.endObject()
        writer.key(.hotspots)
        writer.beginArray()
        for hotspot in 0..<hotspots.count {
            writer.beginObject()
            members(hotspot)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }
}
