import AreasCore
import AreasProtocol

extension Request.Where: ServedQuestion {
    func answer(_ asked: Asked, into writer: inout JSONWriter) throws(RequestError) {
        guard let map = asked.view.regions.map else { throw RequestError(.unavailable, asked.view.regions.problem ?? "no administrative map") }
        Answers.place(of: point, on: map, into: &writer)
    }
}
