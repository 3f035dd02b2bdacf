import AreasCore
import AreasIngest
import AreasProtocol
import Foundation

/// `sources`: what each source gave and what became of it, and each district's counts, so a
/// data office sees which sources and districts publish what, and since when.
extension Answers {
    static func sources(_ state: ServingState, configured: [SourceConfig], into writer: inout JSONWriter) {
        let reports = Dictionary((state.lastReport?.sources ?? []).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let names = configured.map(\.name) + state.sources.keys.filter { name in !configured.contains { $0.name == name } }.sorted()
        writer.beginObject()
        writer.key(.ok); writer.bool(true)
        writer.key(.sources)
        writer.beginArray()
        for name in names {
            let config = configured.first { $0.name == name }
            let counts = state.counts(of: name)
            let report = reports[name]
            let history = state.history[name]
            writer.beginObject()
            writer.key(.name); writer.string(name)
            writer.key(.kind)
            if let kind = config?.kind ?? counts.kind { writer.string(kind.rawValue) } else { writer.null() }
            writer.key(.format)
            if let format = config?.format { writer.string(format.rawValue) } else { writer.null() }
            writer.key(.areas); writer.number(counts.areas)
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
            writer.key(.merged); writer.number(counts.merged)
            writer.key(.listedAgain); writer.number(counts.listedAgain)
            writer.key(.overridden); writer.number(counts.overridden)
            writer.key(.referenceDates)
            referenceDates(counts.referenceDates, into: &writer)
            writer.key(.footprints)
            footprints(counts.footprints, into: &writer)
            // What the last district check said of the source's rows (kept on the records).
            let regionCounts = counts.districtCheck
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
        writer.key(.districts)
        writer.beginArray()
        for district in state.counts.districts {
            writer.beginObject()
            writer.key(.province); writer.string(district.province)
            writer.key(.district); writer.string(district.district)
            writer.key(.smoking); writer.number(district.smoking)
            writer.key(.nonsmoking); writer.number(district.nonsmoking)
            writer.key(.referenceDates)
            referenceDates(district.referenceDates, into: &writer)
            writer.endObject()
        }
        writer.endArray()
    }
}
