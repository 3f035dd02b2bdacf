import AreasCore
import AreasIngest
import AreasProtocol
import Foundation

extension Request.Changes: ServedQuestion {
    /// `{"ok","since","version","truncated","appeared","changed","vanished"}`: the served
    /// areas that appeared and changed since `since` (each changed one with `what` changed),
    /// and the ones that vanished (`id`, `name`, `lastSeen`). Past `maxResults` areas the
    /// answer is cut (`truncated`): ask again for everything (`bbox`) and follow from `version`.
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        try asked.requireData()
        let state = asked.state
        let from = since ?? state.changes.steps.last?.since ?? state.version
        guard let changes = state.changes.changes(since: from, current: state.version, index: state.index) else {
            throw RequestError(.gone, "version '\(from)' is not one of the last \(state.changes.steps.count + 1) this daemon keeps (the current is '\(state.version)'): ask for every area again (bbox) and follow changes from its version")
        }
        let listed = changes.appeared.count + changes.changed.count
        let truncated = listed > asked.maxResults
        let appeared = changes.appeared.prefix(asked.maxResults)
        let changed = changes.changed.prefix(asked.maxResults - appeared.count)
        writer.beginObject()
        writer.key(.ok); writer.bool(true)
        writer.key(.since); writer.string(from)
        writer.key(.version); writer.string(state.version)
        writer.key(.truncated); writer.bool(truncated)
        let index = state.index, crowd = asked.view.crowd, times = state.changes.times
        index.areas.withBuffers { areas in
            var shapes = ShapeAllowance.listed
            writer.key(.appeared)
            writer.beginArray()
            for position in appeared {
                Answers.area(position, of: areas, index: index, times: times, crowd: crowd, distance: nil, form: .listed, shapes: &shapes, into: &writer)
                writer.endObject()
            }
            writer.endArray()
            writer.key(.changed)
            writer.beginArray()
            for (position, what) in changed {
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
        for gone in changes.vanished {
            writer.beginObject()
            writer.key(.id); writer.string(gone.id)
            writer.key(.name); writer.string(gone.name)
            writer.key(.lastSeen); writer.time(gone.lastSeen)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }
}
