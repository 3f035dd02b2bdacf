import AreasProtocol

extension Request.Metrics: ServedQuestion {
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        writer.beginObject()
        writer.key(.ok); writer.bool(true)
        writer.key(.metrics)
        writer.string(asked.service.metricsText(asked.view))
        writer.endObject()
    }
}
