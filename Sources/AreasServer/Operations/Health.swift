import AreasProtocol

extension Request.Health: ServedQuestion {
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        Answers.health(asked.service.currentHealth(asked.view), into: &writer)
    }
}
