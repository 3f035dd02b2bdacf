import AreasCore

// `changes` since a version: the steps' lists of ids merged in id order, a page at a time.

/// How `a` and `b` sort by their bytes, as the table's ids do: below zero, zero or above.
private func idOrder(_ a: String, _ b: String) -> Int {
    var (a, b) = (a, b)
    return a.withUTF8 { x in b.withUTF8 { x.byteOrder(comparedWith: $0) } }
}

extension ChangeLog.Step {
    /// Each of its lists in id order, as `changes` merges them (a step is made so; one read
    /// from a file written otherwise is put in order).
    mutating func putInIdOrder() {
        func inOrder(_ ids: some Collection<String>) -> Bool { zip(ids, ids.dropFirst()).allSatisfy { idOrder($0, $1) < 0 } }
        if !inOrder(appeared) { appeared.sort { idOrder($0, $1) < 0 } }
        if !inOrder(changed.lazy.map(\.id)) { changed.sort { idOrder($0.id, $1.id) < 0 } }
        if !inOrder(vanished.lazy.map(\.id)) { vanished.sort { idOrder($0.id, $1.id) < 0 } }
    }
}

extension ChangeLog {
    /// The id lists of steps merged (each step's appeared, changed and vanished ids, each list
    /// in id order): `pop` gives each entry's list and place in id order (byte order, the
    /// table's), an id in several lists from the earliest step's first.
    private struct ListMerge {
        let steps: ArraySlice<Step>
        /// The lists: for each step from the first, its appeared, changed and vanished ids.
        let lists: [(step: Int, kind: Int)]
        /// A binary heap of (list, place) by the id there, then the list.
        var heap: [(list: Int, at: Int)] = []

        /// The merge of `steps`' lists from the first id after `after` (nil: from the first).
        init(_ steps: ArraySlice<Step>, after: String?) {
            self.steps = steps
            lists = steps.indices.flatMap { step in (0..<3).map { (step, $0) } }
            heap.reserveCapacity(lists.count)
            for list in lists.indices {
                var (low, high) = (0, count(of: list))
                if let after {
                    while low < high {
                        let middle = (low + high) / 2
                        if idOrder(id(list, middle), after) <= 0 { low = middle + 1 } else { high = middle }
                    }
                }
                if low < count(of: list) { push((list, low)) }
            }
        }

        func count(of list: Int) -> Int {
            let (step, kind) = lists[list]
            return kind == 0 ? steps[step].appeared.count : kind == 1 ? steps[step].changed.count : steps[step].vanished.count
        }

        func id(_ list: Int, _ at: Int) -> String {
            let (step, kind) = lists[list]
            return kind == 0 ? steps[step].appeared[at] : kind == 1 ? steps[step].changed[at].id : steps[step].vanished[at].id
        }

        func before(_ a: (list: Int, at: Int), _ b: (list: Int, at: Int)) -> Bool {
            let order = idOrder(id(a.list, a.at), id(b.list, b.at))
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

        /// The next entry: its step, kind (0 appeared, 1 changed, 2 vanished), place and id.
        mutating func pop() -> (step: Int, kind: Int, at: Int, id: String)? {
            guard let top = heap.first else { return nil }
            if top.at + 1 < count(of: top.list) {
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
            let (step, kind) = lists[top.list]
            return (step, kind, top.at, id(top.list, top.at))
        }
    }

    /// One change since a version, listed under its id: a served area that appeared or
    /// changed (its position in the current table, and what changed), or one that vanished.
    package struct Change: Sendable, Equatable {
        package enum What: Sendable, Equatable {
            case appeared(position: Int)
            case changed(position: Int, what: [String])
            case vanished(name: String, lastSeen: Double)
        }

        package var id: String
        package var what: What
    }

    /// The changes from `version` to the data served now (`index`, whose version is
    /// `current`) in id order: those listed after the id `after` (nil: from the first), at
    /// most `limit`, and whether more follow; nil when `version` is neither the current one nor
    /// one a kept step starts from (too old, or another daemon's).
    ///
    /// Each id touched since `version` is as the first step after it that touched it says
    /// (appeared: not served then; changed or vanished: as it was then), and a change only
    /// when the data served now differs. Every step lists each kind of change in id order, so
    /// the touched ids come in id order from a merge of those lists, started at `after` by a
    /// search of each, and their places in the current table from one walk of it: a page costs
    /// its own changes, however many there are since `version`.
    package func changes(since version: String, current: String, index: AreaIndex, after: String? = nil,
                         limit: Int = .max) -> (changes: [Change], more: Bool)? {
        if version == current { return ([], false) }
        let steps = steps
        guard let first = steps.firstIndex(where: { $0.since == version }) else { return nil }
        var merge = ListMerge(steps[first...], after: after)
        var listed: [Change] = []
        var next = 0
        var entry = merge.pop()
        while let touch = entry {
            // Later steps' touches of the same id: only a removal (its time) matters.
            var lastSeen = touch.kind == 2 ? steps[touch.step].sinceAt : 0
            entry = merge.pop()
            while let later = entry, idOrder(later.id, touch.id) == 0 {
                if later.kind == 2 { lastSeen = steps[later.step].sinceAt }
                entry = merge.pop()
            }
            let found = index.areas.position(of: touch.id, from: next)
            next = found.position.map { $0 + 1 } ?? found.next
            let served = found.position.flatMap { index.isServed($0) ? $0 : nil }
            guard let change = change(touch, of: steps[touch.step], lastSeen: lastSeen, served: served, index: index) else { continue }
            if listed.count == limit { return (listed, true) }
            listed.append(change)
        }
        return (listed, false)
    }

    /// What the first touch since a version of an id (`touch`, in `step`), now at `served` when
    /// served, changed; nil when it is as it was.
    private func change(_ touch: (step: Int, kind: Int, at: Int, id: String), of step: Step, lastSeen: Double, served: Int?, index: AreaIndex) -> Change? {
        guard touch.kind != 0 else { return served.map { Change(id: touch.id, what: .appeared(position: $0)) } }
        let before = touch.kind == 1 ? step.changed[touch.at] : step.vanished[touch.at]
        guard let position = served else { return Change(id: touch.id, what: .vanished(name: before.name, lastSeen: lastSeen)) }
        var what = before.what(comparedWith: Before(index.areas, at: position))
        // The same data, back after it vanished, or changed and changed back: its times are
        // what differs.
        if what.isEmpty, let times = times.of(position), times != (before.firstSeen, before.changedAt) {
            what = times.firstSeen != before.firstSeen ? ["firstSeen"] : ["changedAt"]
        }
        return what.isEmpty ? nil : Change(id: touch.id, what: .changed(position: position, what: what))
    }
}
