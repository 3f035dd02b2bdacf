import AreasCore
import AreasProtocol

extension Request.Get: ServedQuestion {
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        try asked.requireData()
        let state = asked.state
        // A record merged into another source's area answers with that area.
        guard let position = state.index.position(ofAreaWith: id) else { throw RequestError(.notFound, "no area with id '\(id)'") }
        guard !state.index.overrides.hides(position) else {
            let note = state.index.overrides.note(of: position).map { ": \($0)" } ?? ""
            throw RequestError(.notFound, "the area with id '\(id)' is hidden by the operator's overrides\(note)")
        }
        if let crowd = asked.view.crowd, let hotspot = crowd.members.hotspot(ofArea: position) { crowd.watch.ask(about: hotspot) }
        Answers.detail(position, served: asked.view, form: asked.form, into: &writer)
    }
}
