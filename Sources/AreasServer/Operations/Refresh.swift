import AreasIngest
import AreasProtocol

extension Request.Refresh: ServedQuestion {
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        let handle = asked.service.startRefresh(force: force)
        writer.beginObject()
        writer.key(.ok); writer.bool(true)
        var finished: RefreshReport?
        if wait { asked.view.whileWaiting { finished = handle.wait() } }
        if let report = finished {
            writer.key(.refreshed); writer.bool(true)
            writer.key(.report)
            Answers.report(report, into: &writer)
        } else {
            writer.key(.started); writer.bool(true)
        }
        writer.endObject()
    }
}
