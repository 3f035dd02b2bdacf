import AreasCore
import AreasIngest
import AreasProtocol
import AreasSystem
import Foundation

extension Request.Changes: ServedQuestion {
    /// `{"ok","since","version","truncated","next","appeared","changed","vanished"}`: the
    /// served areas that appeared and changed since `since` (each changed one with `what`
    /// changed), and the ones that vanished (`id`, `name`, `lastSeen`). The three lists are one
    /// list in id order, paged at `maxResults`: a page that stops short of its end says
    /// `truncated` and gives `next`, the `cursor` for the page after it. A cursor names the data
    /// version it was given for; after a refresh it is `gone` (ask again from `since`).
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        try asked.requireData()
        let state = asked.state
        let from = since ?? state.changes.steps.last?.since ?? state.version
        guard let listed = state.changePages.changes(since: from, log: state.changes, current: state.version, index: state.index) else {
            throw RequestError(.gone, "version '\(from)' is not one of the last \(state.changes.steps.count + 1) this daemon keeps (the current is '\(state.version)'): ask for every area again (bbox) and follow changes from its version")
        }
        var start = 0
        if let cursor {
            guard let tilde = cursor.firstIndex(of: "~") else {
                throw RequestError(.badRequest, "cursor '\(cursor.prefix(64))' is not one this daemon gave: ask without it for the first page")
            }
            guard cursor[..<tilde] == state.version else {
                throw RequestError(.gone, "the data changed since the page before (a refresh): ask for the changes since '\(from)' again from the first page")
            }
            let after = String(cursor[cursor.index(after: tilde)...])
            start = listed.firstIndex(after: after)
        }
        let end = min(start + asked.maxResults, listed.entries.count)
        let page = listed.entries[start..<end]
        writer.beginObject()
        writer.key(.ok); writer.bool(true)
        writer.key(.since); writer.string(from)
        writer.key(.version); writer.string(state.version)
        writer.key(.truncated); writer.bool(end < listed.entries.count)
        if end < listed.entries.count, let last = page.last { writer.key(.next); writer.string(state.version + "~" + last.id) }
        let index = state.index, crowd = asked.view.crowd, times = state.changes.times
        index.areas.withBuffers { areas in
            var shapes = ShapeAllowance.listed
            writer.key(.appeared)
            writer.beginArray()
            for listed in page {
                guard case .appeared(let position) = listed.change else { continue }
                Answers.area(position, of: areas, index: index, times: times, crowd: crowd, distance: nil, form: .listed, shapes: &shapes, into: &writer)
                writer.endObject()
            }
            writer.endArray()
            writer.key(.changed)
            writer.beginArray()
            for listed in page {
                guard case .changed(let position, let what) = listed.change else { continue }
                Answers.area(position, of: areas, index: index, times: times, crowd: crowd, distance: nil, form: .listed, shapes: &shapes, into: &writer)
                writer.key(.what)
                writer.beginArray()
                for word in what { writer.string(word) }
                writer.endArray()
                writer.endObject()
            }
            writer.endArray()
        }
        writer.key(.vanished)
        writer.beginArray()
        for listed in page {
            guard case .vanished(let name, let lastSeen) = listed.change else { continue }
            writer.beginObject()
            writer.key(.id); writer.string(listed.id)
            writer.key(.name); writer.string(name)
            writer.key(.lastSeen); writer.time(lastSeen)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }
}

/// The changes since a version as one list in id order, worked out once for the data served
/// and kept for its next pages: at a million areas and 30 versions back, working them out is
/// a second, where a page is a slice.
package final class ChangePages: Sendable {
    /// One change, by the id it is listed under.
    package struct Listed: Sendable {
        package enum Change: Sendable {
            case appeared(position: Int)
            case changed(position: Int, what: [String])
            case vanished(name: String, lastSeen: Double)
        }

        package var id: String
        package var change: Change
    }

    package struct List: Sendable {
        package var entries: [Listed]

        /// The position of the first entry listed after `id`.
        package func firstIndex(after id: String) -> Int {
            var (low, high) = (0, entries.count)
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].id <= id { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// The lists kept, newest last: the versions a client is paging from.
    private let kept = LockedValue<[(since: String, list: List)]>([])
    static let keptLists = 2

    package init() {}

    /// The changes `log` knows since `version` to the data served (`index`, version
    /// `current`); nil when the log does not reach it.
    package func changes(since version: String, log: ChangeLog, current: String, index: AreaIndex) -> List? {
        if let list = kept.withLock({ $0.first { $0.since == version }?.list }) { return list }
        guard let changes = log.changes(since: version, current: current, index: index) else { return nil }
        var entries: [Listed] = []
        entries.reserveCapacity(changes.appeared.count + changes.changed.count + changes.vanished.count)
        index.areas.withBuffers { areas in
            func id(_ position: Int) -> String { String(decoding: areas.utf8(areas.records[position].id), as: UTF8.self) }
            entries += changes.appeared.map { Listed(id: id($0), change: .appeared(position: $0)) }
            entries += changes.changed.map { Listed(id: id($0.position), change: .changed(position: $0.position, what: $0.what)) }
        }
        entries += changes.vanished.map { Listed(id: $0.id, change: .vanished(name: $0.name, lastSeen: $0.lastSeen)) }
        entries.sort { $0.id < $1.id }
        let list = List(entries: entries)
        kept.withLock { kept in
            kept.removeAll { $0.since == version }
            kept.append((version, list))
            if kept.count > Self.keptLists { kept.removeFirst(kept.count - Self.keptLists) }
        }
        return list
    }
}
