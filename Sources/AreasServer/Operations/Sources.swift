import AreasProtocol

extension Request.Sources: ServedQuestion {
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        Answers.sources(asked.state, configured: asked.service.config.sources, into: &writer)
    }
}
