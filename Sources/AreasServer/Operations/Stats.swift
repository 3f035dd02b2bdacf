import AreasProtocol

extension Request.Stats: ServedQuestion {
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        let service = asked.service
        Answers.stats(asked.state, status: service.status, configured: service.config.sources.map(\.name), into: &writer)
    }
}
