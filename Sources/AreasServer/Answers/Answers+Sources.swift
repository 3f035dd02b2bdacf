import AreasCore
import AreasIngest
import AreasProtocol
import Foundation

/// `sources`: what each source gave and what became of it, and each district's counts, so a
/// data office sees which sources and districts publish what, and since when.
extension Answers {
    static func sources(_ state: ServingState, configured: [SourceConfig], into writer: inout JSONWriter) {
        let records = state.index.areas.records
        let groups = state.index.groups
        let reports = Dictionary((state.lastReport?.sources ?? []).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let names = configured.map(\.name) + state.sources.keys.filter { name in !configured.contains { $0.name == name } }.sorted()
        writer.beginObject()
        writer.key(.ok); writer.bool(true)
        writer.key(.sources)
        writer.beginArray()
        for name in names {
            let config = configured.first { $0.name == name }
            let span = state.sources[name]?.range ?? 0..<0
            let report = reports[name]
            let history = state.history[name]
            writer.beginObject()
            writer.key(.name); writer.string(name)
            writer.key(.kind)
            if let kind = config?.kind ?? span.first.map({ records[$0].kind }) { writer.string(kind.rawValue) } else { writer.null() }
            writer.key(.format)
            if let format = config?.format { writer.string(format.rawValue) } else { writer.null() }
            writer.key(.areas); writer.number(state.counts(of: name).areas)
            // What the last refresh read: unknown (null) after a start from the snapshot until
            // the next refresh.
            func count(_ key: AnswerKey, _ value: Int?) {
                writer.key(key)
                if let value { writer.number(value) } else { writer.null() }
            }
            count(.rows, report?.received)
            count(.accepted, report?.accepted)
            count(.duplicates, report?.duplicates)
            writer.key(.rejected)
            if let rejected = report?.rejected {
                writer.beginObject()
                for (reason, n) in rejected.sorted(by: { $0.key < $1.key }) { writer.key(escaping: reason); writer.number(n) }
                writer.endObject()
            } else {
                writer.null()
            }
            count(.geocodedCount, report.map { $0.geocodedNew + $0.geocodedRemembered + $0.placedByOperator })
            count(.unreadableDates, report?.unreadableDates)
            writer.key(.merged); writer.number(span.reduce(0) { $0 + (groups.isMergedAcrossSources($1, in: state.index.areas) ? 1 : 0) })
            writer.key(.listedAgain); writer.number(span.reduce(0) { $0 + (groups.isListedAgain($1, in: state.index.areas) ? 1 : 0) })
            writer.key(.overridden); writer.number(span.reduce(0) { $0 + (state.index.overrides.flags(of: $1).isEmpty ? 0 : 1) })
            writer.key(.referenceDates)
            referenceDates(state.counts(of: name).referenceDates, into: &writer)
            writer.key(.footprints)
            footprints(state.index.footprintCounts(in: span), into: &writer)
            // What the last district check said of the source's rows (kept on the records).
            let regionCounts = RegionFields.counts(in: state.index.areas, span)
            writer.key(.outsideDistrict); writer.number(regionCounts.outsideDistrict)
            writer.key(.outsideDistrictIds)
            writer.beginArray()
            for id in regionCounts.outsideDistrictIds { writer.string(id) }
            writer.endArray()
            writer.key(.districtsFromPosition); writer.number(regionCounts.districtsFromPosition)
            func time(_ key: AnswerKey, _ value: Double?) {
                writer.key(key)
                if let value { writer.number(value.rounded()) } else { writer.null() }
            }
            time(.fetchedAt, state.sources[name]?.fetchedAt)
            time(.lastAttemptAt, history?.lastAttemptAt)
            time(.lastSuccessAt, history?.lastSuccessAt ?? state.sources[name]?.fetchedAt)
            writer.key(.lastStatus)
            if let status = history?.lastStatus { writer.string(status) } else { writer.null() }
            writer.key(.lastError)
            if let error = history?.lastError { writer.string(error) } else { writer.null() }
            // The last version that changed the source's areas, and what it changed.
            writer.key(.lastChange)
            if let change = state.changes.lastChange(of: name) {
                writer.beginObject()
                writer.key(.version); writer.string(change.version)
                writer.key(.at); writer.time(change.at)
                writer.key(.appeared); writer.number(change.appeared)
                writer.key(.changed); writer.number(change.changed)
                writer.key(.vanished); writer.number(change.vanished)
                writer.endObject()
            } else {
                writer.null()
            }
            // A data set by id: the upload served, and the columns chosen for it.
            if let revision = report?.revision {
                writer.key(.revision)
                writer.beginObject()
                writer.key(.uddi); writer.string(revision.uddi)
                writer.key(.title); writer.string(revision.title)
                writer.key(.date); writer.string(revision.date)
                if let chosen = revision.chosenFields {
                    writer.key(.fields)
                    writer.beginObject()
                    for choice in chosen { writer.key(escaping: choice.field); writer.string(choice.column) }
                    writer.endObject()
                }
                writer.endObject()
            }
            writer.endObject()
        }
        writer.endArray()
        districts(state, into: &writer)
        // What the last refresh could not do as a whole: corrections whose id the data lacks,
        // an unreadable overrides or positions file.
        writer.key(.problems)
        writer.beginArray()
        for problem in state.lastReport?.problems ?? [] { writer.string(problem) }
        writer.endArray()
        writer.endObject()
    }

    /// A source's zones counted by the basis of their footprints, with how many were clamped
    /// or had words or a size the rule does not read; null for a source without zones.
    static func footprints(_ counts: FootprintCounts, into writer: inout JSONWriter) {
        guard counts.zones > 0 else {
            writer.null()
            return
        }
        writer.beginObject()
        for basis in FootprintBasis.allCases {
            writer.key(escaping: basis.name.description); writer.number(counts.byBasis[basis] ?? 0)
        }
        writer.key(.clamped); writer.number(counts.clamped)
        writer.key(.wordsNotUnderstood); writer.number(counts.wordsNotUnderstood)
        writer.key(.sizeNotUnderstood); writer.number(counts.sizeNotUnderstood)
        writer.endObject()
    }

    /// `{"oldest": "YYYY-MM-DD", "newest": ...}`, or null when no date is stated.
    static func referenceDates(_ dates: (oldest: ReferenceDate, newest: ReferenceDate)?, into writer: inout JSONWriter) {
        guard let dates else {
            writer.null()
            return
        }
        writer.beginObject()
        writer.key(.oldest); writer.string(dates.oldest.text)
        writer.key(.newest); writer.string(dates.newest.text)
        writer.endObject()
    }

    /// Served areas by province and district (names as the data gives them), by kind, with the
    /// dates their records state.
    private static func districts(_ state: ServingState, into writer: inout JSONWriter) {
        struct Tally { var smoking = 0, nonsmoking = 0, oldest = UInt16.max, newest: UInt16 = 0 }
        let table = state.index.areas
        let index = state.index
        var byRefs: [UInt64: Tally] = [:]
        for (position, record) in table.records.enumerated() {
            let key = UInt64(record.province) << 32 | UInt64(record.district)
            var tally = byRefs[key] ?? Tally()
            if index.isServed(position) {
                if record.kind == .smoking { tally.smoking += 1 } else { tally.nonsmoking += 1 }
            }
            if record.referenceDay > 0 {
                tally.oldest = min(tally.oldest, record.referenceDay)
                tally.newest = max(tally.newest, record.referenceDay)
            }
            byRefs[key] = tally
        }
        // Equal names stored apart (tables concatenated from several sources) count together.
        var byName: [String: (province: String, district: String, tally: Tally)] = [:]
        for (key, tally) in byRefs {
            let province = table.strings.string(StringArena.Ref(key >> 32))
            let district = table.strings.string(StringArena.Ref(truncatingIfNeeded: key))
            var entry = byName[province + "\u{1F}" + district] ?? (province, district, Tally())
            entry.tally.smoking += tally.smoking
            entry.tally.nonsmoking += tally.nonsmoking
            entry.tally.oldest = min(entry.tally.oldest, tally.oldest)
            entry.tally.newest = max(entry.tally.newest, tally.newest)
            byName[province + "\u{1F}" + district] = entry
        }
        writer.key(.districts)
        writer.beginArray()
        for (_, entry) in byName.sorted(by: { ($0.value.province, $0.value.district) < ($1.value.province, $1.value.district) }) {
            writer.beginObject()
            writer.key(.province); writer.string(entry.province)
            writer.key(.district); writer.string(entry.district)
            writer.key(.smoking); writer.number(entry.tally.smoking)
            writer.key(.nonsmoking); writer.number(entry.tally.nonsmoking)
            writer.key(.referenceDates)
            let dates = ReferenceDate(day: entry.tally.oldest == .max ? 0 : entry.tally.oldest).flatMap { oldest in
                ReferenceDate(day: entry.tally.newest).map { (oldest, $0) }
            }
            referenceDates(dates, into: &writer)
            writer.endObject()
        }
        writer.endArray()
    }
}
