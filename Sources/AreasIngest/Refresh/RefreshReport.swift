import AreasCore

/// What one refresh did, source by source. Kept beside the snapshot (without the corrections
/// it read), so a restart still says what the last refresh read.
package struct RefreshReport: Sendable, Equatable, Codable {
    package var startedAt: Double
    package var durationMilliseconds: Double
    package var forced: Bool
    package var sources: [SourceReport]
    /// Problems of the refresh as a whole, such as a positions file that cannot be read.
    package var problems: [String] = []
    /// The operator's corrections as read by this refresh; nil when there is no overrides file
    /// or it could not be read.
    package var overrides: [AreaOverride]?

    /// True when every source was fetched and taken.
    package var succeeded: Bool { sources.allSatisfy { $0.status == .updated } }

    /// Read back from beside the snapshot at start: the refresh was an earlier process's.
    package var isFromBeforeRestart = false

    private enum CodingKeys: String, CodingKey {
        case startedAt, durationMilliseconds, forced, sources, problems
    }

    package init(startedAt: Double, durationMilliseconds: Double, forced: Bool, sources: [SourceReport]) {
        self.startedAt = startedAt
        self.durationMilliseconds = durationMilliseconds
        self.forced = forced
        self.sources = sources
    }
}

/// One source's part of a refresh.
package struct SourceReport: Sendable, Equatable, Codable {
    package enum Status: String, Sendable, Codable {
        /// Fetched completely and taken.
        case updated
        /// Could not be fetched; its previous areas are still served.
        case failed
        /// Fetched, but empty or shrunken beyond `maxShrink`: the previous areas are kept.
        case heldBack = "held-back"
    }

    package var name: String
    package var status: Status
    package var pages: Int = 0
    package var retries: Int = 0
    package var received: Int = 0
    package var accepted: Int = 0
    package var rejected: [String: Int] = [:]
    package var repaired: Int = 0
    /// Areas at the position the source published.
    package var published: Int = 0
    /// Areas placed by asking the geocoder in this refresh.
    package var geocodedNew: Int = 0
    /// Areas placed by what the geocoder said in an earlier refresh.
    package var geocodedRemembered: Int = 0
    /// Areas placed by the operator's positions file.
    package var placedByOperator: Int = 0
    package var duplicates: Int = 0
    /// Areas farther than `regions.toleranceMeters` outside their stated district (kept, flagged).
    package var outsideDistrict: Int = 0
    /// Areas without a district that got the one their position lies in.
    package var districtsFromPosition: Int = 0
    /// Areas whose stated reference date is not a date: served without one.
    package var unreadableDates: Int = 0
    /// The oldest and newest date the fetched records state, when any does.
    package var referenceDates: ClosedRange<ReferenceDate>?
    package var added: Int = 0
    package var removed: Int = 0
    package var changed: Int = 0
    /// Rows moved, renamed or re-addressed that kept their place's id (`StableIDs`); nil
    /// when none did.
    package var keptIDs: Int?
    /// Records folded into an area of an earlier source (after the refresh's merge).
    package var merged: Int = 0
    /// Areas served for this source after the refresh.
    package var serving: Int = 0
    package var durationMilliseconds: Double = 0
    package var error: String?
    /// Things an operator should look at that did not stop the source.
    package var warnings: [String] = []
    /// For a `dataset` source: the upload served (or still served, when the document could not
    /// be read), with the columns chosen for it when the config left them to the daemon.
    package var revision: DatasetRevision?

    /// One line for logs and `areasctl refresh`.
    /// Fetched whole and taken, and its areas are the ones served before.
    package var isUnchanged: Bool { status == .updated && added == 0 && removed == 0 && changed == 0 }

    package init(name: String, status: Status) {
        self.name = name
        self.status = status
    }

    package var summary: String {
        var text = "\(name): \(isUnchanged ? "unchanged" : status.rawValue)"
        switch status {
        case .updated where isUnchanged:
            text += ", \(accepted) areas from \(pages) page\(pages == 1 ? "" : "s")"
        case .updated:
            text += ", \(accepted) areas from \(pages) page\(pages == 1 ? "" : "s") (+\(added) -\(removed) ~\(changed))"
        case .failed, .heldBack:
            text += ", still serving \(serving) areas"
        }
        let rejectedTotal = rejected.values.reduce(0, +)
        if rejectedTotal > 0 {
            text += ", \(rejectedTotal) rejected (" + rejected.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
        }
        if repaired > 0 { text += ", \(repaired) repaired" }
        if let revision, status == .updated {
            text += ", upload \(revision.title) (\(revision.date), \(revision.uddi))"
            if let chosen = revision.chosenFields { text += " with the columns chosen: " + chosen.map { "\($0.field) \($0.column)" }.joined(separator: ", ") }
        }
        let geocoded = geocodedNew + geocodedRemembered
        if geocoded > 0 || placedByOperator > 0 {
            text += ", \(published) published positions, \(geocoded) geocoded (\(geocodedNew) new, \(geocodedRemembered) remembered)"
            if placedByOperator > 0 { text += ", \(placedByOperator) from the positions file" }
        }
        if duplicates > 0 { text += ", \(duplicates) duplicates" }
        if outsideDistrict > 0 { text += ", \(outsideDistrict) outside their stated district" }
        if districtsFromPosition > 0 { text += ", \(districtsFromPosition) districts found from the position" }
        if let dates = referenceDates {
            text += dates.lowerBound == dates.upperBound ? ", dated \(dates.lowerBound.text)" : ", dated \(dates.lowerBound.text) to \(dates.upperBound.text)"
        }
        if unreadableDates > 0 { text += ", \(unreadableDates) reference dates that are not dates" }
        if retries > 0 { text += ", \(retries) retries" }
        text += ", \(Int(durationMilliseconds.rounded())) ms"
        if let error { text += ": \(error)" }
        for warning in warnings { text += "; \(warning)" }
        return text
    }
}
