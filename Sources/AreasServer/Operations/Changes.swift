import AreasCore
import AreasIngest
import AreasProtocol

extension Request.Changes: ServedQuestion {
    /// `{"ok","since","version","truncated","next","appeared","changed","vanished"}`: the
    /// served areas that appeared and changed since `since` (each changed one with `what`
    /// changed), and the ones that vanished (`id`, `name`, `lastSeen`). The three lists are one
    /// list in id order, paged at `maxResults`: a page that stops short of its end says
    /// `truncated` and gives `next`, the `cursor` for the page after it. A cursor names the data
    /// version it was given for; after a refresh it is `gone` (ask again from `since`). A page
    /// is worked out from the change log on its own, from its cursor's id.
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        try asked.requireData()
        let state = asked.state
        let from = since ?? state.changes.steps.last?.since ?? state.version
        var after: String?
        if let cursor {
            guard let tilde = cursor.firstIndex(of: "~") else {
                throw RequestError(.badRequest, "cursor '\(cursor.prefix(64))' is not one this daemon gave: ask without it for the first page")
            }
            guard cursor[..<tilde] == state.version else {
                throw RequestError(.gone, "the data changed since the page before (a refresh): ask for the changes since '\(from)' again from the first page")
            }
            after = String(cursor[cursor.index(after: tilde)...])
        }
        guard let (page, more) = state.changes.changes(since: from, current: state.version, index: state.index, after: after, limit: asked.maxResults) else {
            throw RequestError(.gone, "version '\(from)' is not one of the last \(state.changes.steps.count + 1) this daemon keeps (the current is '\(state.version)'): ask for every area again (bbox) and follow changes from its version")
        }
        writer.beginObject()
        writer.key(.ok); writer.bool(true)
        writer.key(.since); writer.string(from)
        writer.key(.version); writer.string(state.version)
        writer.key(.truncated); writer.bool(more)
        if more, let last = page.last { writer.key(.next); writer.string(state.version + "~" + last.id) }
        let index = state.index, crowd = asked.view.crowd, times = state.changes.times
        index.areas.withBuffers { areas in
            var shapes = ShapeAllowance.listed
            writer.key(.appeared)
            writer.beginArray()
            for listed in page {
                guard case .appeared(let position) = listed.what else { continue }
                Answers.area(position, of: areas, index: index, times: times, crowd: crowd, distance: nil, form: .listed, shapes: &shapes, into: &writer)
                writer.endObject()
            }
            writer.endArray()
            writer.key(.changed)
            writer.beginArray()
            for listed in page {
                guard case .changed(let position, let what) = listed.what else { continue }
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
            guard case .vanished(let name, let lastSeen) = listed.what else { continue }
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
