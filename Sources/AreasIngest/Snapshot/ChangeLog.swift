import AreasCore
import AreasProtocol
import AreasSystem
import Foundation

/// What changed between the data versions served: each of the last versions' changes from the
/// one before (`steps`), and when each area was first served and last changed. It travels in
/// the snapshot file with the data it describes, so a restart and every follower have it.
///
/// A step keeps only what it touched: the ids that appeared, and the areas that changed or
/// vanished as they were before it (what `changes` compares with the data served now). Any
/// version a kept step starts from can so be brought to the current data by the steps after
/// it, however many areas there are.
package struct ChangeLog: Sendable {
    /// One version's changes from the version before it.
    package struct Step: Sendable, Equatable {
        /// The version this step made, and when its data was written.
        package var version: String
        package var at: Double
        /// The version it started from, and when that one was written.
        package var since: String
        package var sinceAt: Double
        package var appeared: [String] = []
        /// The areas it changed, as they were before.
        package var changed: [Before] = []
        /// The areas it removed, as they were last served.
        package var vanished: [Before] = []
    }

    /// An area as a version served it: what `what` compares.
    package struct Before: Sendable, Equatable {
        package var id: String
        package var kind: AreaKind
        package var name: String
        package var latitude: Double
        package var longitude: Double
        package var address: String
        /// Every other field, as one text (its fields, district, reference date): a change
        /// there is named "details".
        package var details: String
        /// When it was first served and last changed, as of that version.
        package var firstSeen = 0.0
        package var changedAt = 0.0
    }

    /// The versions kept: at most `keptVersions` steps, oldest first.
    package var steps: [Step] { kept.steps }
    private let kept: KeptSteps
    /// For each record of the table, in its order: when it was first served, and when it last
    /// changed (0: never since it was first served). Seconds since 1970.
    package var firstSeen: Column<Double> = Column()
    package var changedAt: Column<Double> = Column()

    package static let keptVersions = 30

    /// When each record was first served and last changed, as answers read them.
    package struct Times: Sendable {
        package let firstSeen: Column<Double>
        package let changedAt: Column<Double>

        /// The times of the record at `position`: none past the columns' end (data no log
        /// describes).
        @inline(__always)
        package func of(_ position: Int) -> (firstSeen: Double, changedAt: Double)? {
            position < firstSeen.count && position < changedAt.count ? (firstSeen[position], changedAt[position]) : nil
        }
    }

    package var times: Times { Times(firstSeen: firstSeen, changedAt: changedAt) }

    package init() {
        kept = KeptSteps([])
    }

    package init(steps: [Step], firstSeen: Column<Double>, changedAt: Column<Double>) {
        kept = KeptSteps(steps)
        self.firstSeen = firstSeen
        self.changedAt = changedAt
    }

    /// The log a snapshot holds: its steps as the file keeps them (`stepsText`), read now
    /// when short, else on a thread of their own from now on, so a start serves before they
    /// are.
    init(stepsText: Column<UInt8>, firstSeen: Column<Double>, changedAt: Column<Double>) {
        kept = KeptSteps(text: stepsText)
        self.firstSeen = firstSeen
        self.changedAt = changedAt
        if stepsText.count < 1 << 20 { _ = kept.steps } else { kept.readAhead() }
    }

    /// The kept steps, as made or as a snapshot holds them. A snapshot's are read once, on
    /// their first use or ahead of it, never before a start serves: at a million areas and
    /// 30 versions they are 67 MB of text, 0.6 s to read. A text that does not read (a file
    /// with a good checksum that this build did not write) is no steps: every earlier version
    /// is then `gone`, never answered wrongly.
    private final class KeptSteps: Sendable {
        private let state: LockedValue<(steps: [Step]?, text: Column<UInt8>)>

        init(_ steps: [Step]) {
            state = LockedValue((steps, Column()))
        }

        init(text: Column<UInt8>) {
            state = LockedValue((nil, text))
        }

        var steps: [Step] {
            state.withLock { state in
                if let steps = state.steps { return steps }
                let steps = ChangeLog.steps(from: Array(state.text)) ?? []
                // The text read, its pages in the mapped file are let go, as a load lets go
                // of the pages it checked.
                if let file = state.text.storage as? MappedFile {
                    state.text.withUnsafeBufferPointer { file.releaseResidentPages(of: UnsafeRawBufferPointer($0)) }
                }
                state = (steps, Column())
                return steps
            }
        }

        func readAhead() {
            DispatchQueue.global(qos: .utility).async { _ = self.steps }
        }
    }
}

extension ChangeLog.Before {
    /// The served area at `position` of `table` as a step keeps it.
    init(_ table: AreaTable, at position: Int) {
        let area = table[position]
        // The row's other columns: those holding the name, an address or the position are
        // those changes already, not another.
        func restates(_ value: String) -> Bool {
            value == area.name || value == area.roadAddress || value == area.lotAddress
                || Double(value).map { $0 == area.coordinate.latitude || $0 == area.coordinate.longitude } ?? false
        }
        let details = [area.province, area.district, area.source, area.referenceDate.map { "\($0)" } ?? "", area.geocoded ? "geocoded" : ""]
            + area.fields.filter { !restates($0.value) }.flatMap { [$0.key, $0.value] }
        self.init(id: area.id, kind: area.kind, name: area.name, latitude: area.coordinate.latitude, longitude: area.coordinate.longitude,
                  address: area.address, details: details.joined(separator: "\u{1F}"))
    }

    /// Whether it was served in `region` (its province and district lead `details`).
    package func lies(in region: Region) -> Bool {
        if region.isAnywhere { return true }
        let parts = details.split(separator: "\u{1F}", maxSplits: 2, omittingEmptySubsequences: false)
        return (region.province.map { parts.count > 0 && parts[0] == $0 } ?? true) && (region.district.map { parts.count > 1 && parts[1] == $0 } ?? true)
    }

    /// What differs between this and `other` ("kind", "name", "position", "address",
    /// "details"), in that order.
    func what(comparedWith other: ChangeLog.Before) -> [String] {
        var what: [String] = []
        if kind != other.kind { what.append("kind") }
        if name != other.name { what.append("name") }
        if latitude != other.latitude || longitude != other.longitude { what.append("position") }
        if address != other.address { what.append("address") }
        if details != other.details { what.append("details") }
        return what
    }
}

extension ChangeLog {
    /// The log after `new` replaced `old` (served as `oldVersion`, written at `oldAt`): one step
    /// more, the oldest past `keptVersions` let go, and each record's times carried over by id.
    /// `runs`: how many runs of ids to walk at once (by default one below 100,000 records, else
    /// one a core).
    package func next(from old: (table: AreaTable, index: AreaIndex, version: String, at: Double), to new: (table: AreaTable, index: AreaIndex),
                      version: String, at: Double, runs: Int? = nil) -> ChangeLog {
        var step = Step(version: version, at: at, since: old.version, sinceAt: old.at)
        // The walk reads locals: a closure reaching into the tuples copied the indexes' large
        // values at every record. A large table is walked in runs of ids on every core, each
        // run's lists kept apart and joined in run order, so every list stays in id order.
        let (oldTable, oldIndex, oldAt, newTable, newIndex) = (old.table, old.index, old.at, new.table, new.index)
        let known = firstSeen.count == oldTable.count
        let (firstSeen, changedAt) = (firstSeen, changedAt)
        let times = NewTimes(count: newTable.count)
        let runs = newTable.pairedRuns(runs ?? (newTable.count < 100_000 ? 1 : min(ProcessInfo.processInfo.activeProcessorCount, 8)), from: oldTable)
        let parts = runs.map { _ in StepPart() }
        DispatchQueue.concurrentPerform(iterations: runs.count) { run in
            let part = parts[run]
            newTable.forEachPair(from: oldTable, runs[run].old, within: runs[run].new) { i, j in
                let wasServed = i.map { oldIndex.isServed($0) } ?? false
                let isServed = j.map { newIndex.isServed($0) } ?? false
                if let j {
                    let carried = i.map { known ? (firstSeen[$0], changedAt[$0]) : (oldAt, 0) } ?? (at, 0)
                    (times.firstSeen.buffer[j], times.changedAt.buffer[j]) = carried
                }
                if let i, let j, wasServed && isServed && !newTable.sameArea(at: j, as: oldTable, at: i, idsMatch: true) {
                    part.changed.append(before(oldTable, at: i, known: known))
                    times.changedAt.buffer[j] = at
                }
                if wasServed && !isServed, let i { part.vanished.append(before(oldTable, at: i, known: known)) }
                if isServed && !wasServed, let j { part.appeared.append(newTable.id(at: j)) }
            }
        }
        step.appeared = parts.flatMap(\.appeared)
        step.changed = parts.flatMap(\.changed)
        step.vanished = parts.flatMap(\.vanished)
        return ChangeLog(steps: Array((steps + [step]).suffix(Self.keptVersions)), firstSeen: times.firstSeen.column, changedAt: times.changedAt.column)
    }

    /// The new table's times, each run of a step's walk writing its own records'.
    private final class NewTimes: @unchecked Sendable {
        let firstSeen: Column<Double>.Unfilled
        let changedAt: Column<Double>.Unfilled

        init(count: Int) {
            (firstSeen, changedAt) = (Column.Unfilled(count: count), Column.Unfilled(count: count))
        }
    }

    /// What one run of a step's walk found, in id order.
    private final class StepPart: @unchecked Sendable {
        var appeared: [String] = []
        var changed: [Before] = []
        var vanished: [Before] = []
    }

    /// The record at `position` of `table`, which this log describes when `known`, with its times.
    private func before(_ table: AreaTable, at position: Int, known: Bool) -> Before {
        var before = Before(table, at: position)
        if known { (before.firstSeen, before.changedAt) = (firstSeen[position], changedAt[position]) }
        return before
    }

    /// The log of data first served at `at` with no earlier version known: every record first
    /// seen then.
    package static func first(records: Int, at: Double) -> ChangeLog {
        ChangeLog(steps: [], firstSeen: Column([Double](repeating: at, count: records)), changedAt: Column([Double](repeating: 0, count: records)))
    }
}

extension ChangeLog {
    /// The steps as the snapshot keeps them: one JSON text.
    package var stepsText: [UInt8] {
        var writer = JSONWriter(capacity: 4_096)
        func area(_ before: Before) {
            writer.beginArray()
            for text in [before.id, before.kind.rawValue, before.name] { writer.string(text) }
            writer.number(before.latitude)
            writer.number(before.longitude)
            writer.string(before.address)
            writer.string(before.details)
            writer.number(before.firstSeen)
            writer.number(before.changedAt)
            writer.endArray()
        }
        writer.beginArray()
        for step in steps {
            writer.beginObject()
            writer.key("version"); writer.string(step.version)
            writer.key("at"); writer.number(step.at)
            writer.key("since"); writer.string(step.since)
            writer.key("sinceAt"); writer.number(step.sinceAt)
            writer.key("appeared"); writer.beginArray(); for id in step.appeared { writer.string(id) }; writer.endArray()
            writer.key("changed"); writer.beginArray(); step.changed.forEach(area); writer.endArray()
            writer.key("vanished"); writer.beginArray(); step.vanished.forEach(area); writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        return writer.bytes
    }

    /// Steps read back from `stepsText`; nil when the text is not what it writes.
    package static func steps(from text: [UInt8]) -> [Step]? {
        guard case .array(let items)? = try? JSONParser.parse(text), items.count <= keptVersions else { return nil }
        func area(_ value: JSONValue) -> Before? {
            let parts = value.array
            guard parts.count == 9, let id = parts[0].string, let kind = parts[1].string.flatMap(AreaKind.init(rawValue:)), let name = parts[2].string,
                  let latitude = parts[3].double, let longitude = parts[4].double, let address = parts[5].string, let details = parts[6].string,
                  let firstSeen = parts[7].double, let changedAt = parts[8].double else { return nil }
            return Before(id: id, kind: kind, name: name, latitude: latitude, longitude: longitude, address: address, details: details,
                          firstSeen: firstSeen, changedAt: changedAt)
        }
        var steps: [Step] = []
        for item in items {
            guard let version = item["version"]?.string, let at = item["at"]?.double, let since = item["since"]?.string, let sinceAt = item["sinceAt"]?.double,
                  case .array(let appeared)? = item["appeared"], case .array(let changed)? = item["changed"], case .array(let vanished)? = item["vanished"] else { return nil }
            var step = Step(version: version, at: at, since: since, sinceAt: sinceAt)
            for id in appeared {
                guard let id = id.string else { return nil }
                step.appeared.append(id)
            }
            for value in changed {
                guard let before = area(value) else { return nil }
                step.changed.append(before)
            }
            for value in vanished {
                guard let before = area(value) else { return nil }
                step.vanished.append(before)
            }
            step.putInIdOrder()
            steps.append(step)
        }
        return steps
    }
}

extension ChangeLog {
    /// The areas that kept steps written after `time` removed and that are not served again
    /// (`index`), each as it was last served with when that was, newest removal first for an
    /// id removed more than once.
    package func vanished(after time: Double, index: AreaIndex) -> [(area: Before, lastSeen: Double)] {
        var found: [String: (area: Before, lastSeen: Double)] = [:]
        for step in steps where step.at > time {
            for before in step.vanished {
                found[before.id] = (before, step.sinceAt)
            }
        }
        return found.values.filter { index.areas.position(of: $0.area.id).map { !index.isServed($0) } ?? true }
            .sorted { $0.area.id < $1.area.id }
    }
}

extension ChangeLog {
    /// The newest kept step that changed `source`'s areas (an id is its source's name and a
    /// colon, then its hash), with how many of them appeared, changed and vanished.
    package func lastChange(of source: String) -> (version: String, at: Double, appeared: Int, changed: Int, vanished: Int)? {
        let prefix = source + ":"
        for step in steps.reversed() {
            let counts = (step.appeared.count { $0.hasPrefix(prefix) }, step.changed.count { $0.id.hasPrefix(prefix) },
                          step.vanished.count { $0.id.hasPrefix(prefix) })
            if counts != (0, 0, 0) { return (step.version, step.at, counts.0, counts.1, counts.2) }
        }
        return nil
    }
}
