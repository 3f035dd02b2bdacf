import AreasCore
import AreasProtocol

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
    package var steps: [Step] = []
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

    package init() {}

    package init(steps: [Step], firstSeen: Column<Double>, changedAt: Column<Double>) {
        self.steps = steps
        self.firstSeen = firstSeen
        self.changedAt = changedAt
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
    package func next(from old: (table: AreaTable, index: AreaIndex, version: String, at: Double), to new: (table: AreaTable, index: AreaIndex),
                      version: String, at: Double) -> ChangeLog {
        var step = Step(version: version, at: at, since: old.version, sinceAt: old.at)
        var seen = [Double](repeating: at, count: new.table.count)
        var changed = [Double](repeating: 0, count: new.table.count)
        let known = firstSeen.count == old.table.count
        new.table.forEachPair(from: old.table) { i, j in
            let wasServed = i.map { old.index.isServed($0) } ?? false
            let isServed = j.map { new.index.isServed($0) } ?? false
            if let i, let j {
                seen[j] = known ? firstSeen[i] : old.at
                changed[j] = known ? changedAt[i] : 0
                if wasServed && isServed && !new.table.sameArea(at: j, as: old.table, at: i) {
                    step.changed.append(before(old.table, at: i, known: known))
                    changed[j] = at
                }
            }
            if wasServed && !isServed, let i { step.vanished.append(before(old.table, at: i, known: known)) }
            if isServed && !wasServed, let j { step.appeared.append(new.table.id(at: j)) }
        }
        return ChangeLog(steps: Array((steps + [step]).suffix(Self.keptVersions)), firstSeen: Column(seen), changedAt: Column(changed))
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
    /// Sorted lists of ids merged: `pop` gives each entry's list and place, in id order (byte
    /// order, the table's), an id in several lists from the first list first.
    private struct ListMerge {
        let lists: [[String]]
        /// A binary heap of (list, place) by the id there, then the list.
        var heap: [(list: Int, at: Int)]

        init(_ lists: [[String]]) {
            self.lists = lists
            heap = []
            heap.reserveCapacity(lists.count)
            for list in lists.indices where !lists[list].isEmpty { push((list, 0)) }
        }

        /// How `a` and `b` sort by their bytes, as the table's ids do: below zero, zero or above.
        static func order(_ a: String, _ b: String) -> Int {
            var (a, b) = (a, b)
            return a.withUTF8 { x in b.withUTF8 { x.byteOrder(comparedWith: $0) } }
        }

        func before(_ a: (list: Int, at: Int), _ b: (list: Int, at: Int)) -> Bool {
            let order = Self.order(lists[a.list][a.at], lists[b.list][b.at])
            return order != 0 ? order < 0 : a.list < b.list
        }

        mutating func push(_ entry: (list: Int, at: Int)) {
            heap.append(entry)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard before(heap[child], heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        mutating func pop() -> (list: Int, at: Int)? {
            guard let top = heap.first else { return nil }
            if top.at + 1 < lists[top.list].count {
                heap[0] = (top.list, top.at + 1)
            } else {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var first = parent
                if left < heap.count && before(heap[left], heap[first]) { first = left }
                if right < heap.count && before(heap[right], heap[first]) { first = right }
                if first == parent { break }
                heap.swapAt(parent, first)
                parent = first
            }
            return top
        }
    }

    /// Where the first step after a version that touched an id holds it: `item` -1 when it
    /// appeared there, its place in `changed` when 0 or more, -2 - its place in `vanished`
    /// below that; when a later step last removed it; and where the current table holds it.
    private struct Touched {
        var step: Int
        var item: Int
        var lastSeen: Double
        /// Its place in the current table; -1 when the table no longer holds it.
        var position: Int
    }

    /// What `changes` answers: the served areas (their positions in the current table) that
    /// appeared and changed since a version, with what changed, and the ones that vanished.
    package struct Changes: Sendable, Equatable {
        package var appeared: [Int] = []
        package var changed: [(position: Int, what: [String])] = []
        package var vanished: [(id: String, name: String, lastSeen: Double)] = []

        package static func == (a: Changes, b: Changes) -> Bool {
            a.appeared == b.appeared && a.changed.elementsEqual(b.changed) { $0.position == $1.position && $0.what == $1.what }
                && a.vanished.elementsEqual(b.vanished) { $0.id == $1.id && $0.name == $1.name && $0.lastSeen == $1.lastSeen }
        }
    }

    /// The changes from `version` to the data served now (`index`, whose version is
    /// `current`), or nil when `version` is neither the current one nor one a kept step starts
    /// from (too old, or another daemon's).
    package func changes(since version: String, current: String, index: AreaIndex) -> Changes? {
        if version == current { return Changes() }
        guard let first = steps.firstIndex(where: { $0.since == version }) else { return nil }
        // Each touched id as it was at `version`: the first step after it that touched the id
        // says (appeared: not served then; changed or vanished: as it was then), kept as where
        // that step holds it, not a copy. Every step lists each kind of change in id order (it
        // walked both tables by id), so the ids touched since `version` come in id order from
        // a merge of those lists, and their places in the current table from one walk of it.
        // `order`: each sorted id's place in the step's list, for a list that was out of order.
        var lists: [(step: Int, kind: Int, ids: [String], order: [Int]?)] = []
        for s in first..<steps.count {
            let step = steps[s]
            for (kind, ids) in [step.appeared, step.changed.map(\.id), step.vanished.map(\.id)].enumerated() where !ids.isEmpty {
                if zip(ids, ids.dropFirst()).allSatisfy({ ListMerge.order($0, $1) < 0 }) {
                    lists.append((s, kind, ids, nil))
                } else {
                    let order = ids.indices.sorted { ListMerge.order(ids[$0], ids[$1]) < 0 }
                    lists.append((s, kind, order.map { ids[$0] }, order))
                }
            }
        }
        var merge = ListMerge(lists.map(\.ids))
        var touched: [Touched] = []
        var next = 0
        var current: String?
        while let (number, at) = merge.pop() {
            let list = lists[number]
            let id = list.ids[at]
            let item = list.order?[at] ?? at
            if let current, ListMerge.order(current, id) == 0 {
                // A later step's touch of the same id: only a removal (its time) matters.
                if list.kind == 2 { touched[touched.count - 1].lastSeen = steps[list.step].sinceAt }
                continue
            }
            current = id
            let found = index.areas.position(of: id, from: next)
            next = found.position.map { $0 + 1 } ?? found.next
            touched.append(Touched(step: list.step, item: list.kind == 0 ? -1 : list.kind == 1 ? item : -2 - item,
                                   lastSeen: list.kind == 2 ? steps[list.step].sinceAt : 0, position: found.position ?? -1))
        }
        var changes = Changes()
        for entry in touched {
            let served = entry.position >= 0 && index.isServed(entry.position) ? entry.position : nil
            guard entry.item != -1 else {
                if let served { changes.appeared.append(served) }
                continue
            }
            let before = entry.item >= 0 ? steps[entry.step].changed[entry.item] : steps[entry.step].vanished[-2 - entry.item]
            guard let position = served else {
                changes.vanished.append((before.id, before.name, entry.lastSeen))
                continue
            }
            var what = before.what(comparedWith: Before(index.areas, at: position))
            // The same data, back after it vanished, or changed and changed back: its times
            // are what differs.
            if what.isEmpty, let times = times.of(position), times != (before.firstSeen, before.changedAt) {
                what = times.firstSeen != before.firstSeen ? ["firstSeen"] : ["changedAt"]
            }
            if !what.isEmpty { changes.changed.append((position, what)) }
        }
        changes.appeared.sort()
        changes.changed.sort { $0.position < $1.position }
        changes.vanished.sort { $0.id < $1.id }
        return changes
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
    static func steps(from text: [UInt8]) -> [Step]? {
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
