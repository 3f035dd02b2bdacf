import AreasCore
import AreasProtocol

extension HTTPAnswer {
    /// An OGC API - Features answer. Everything but the API document follows the data (its
    /// ETag and caching as the other data answers); the links name the host the client asked.
    static func ogc(_ asked: OGCRequest, head: HTTPRequestHead, view: AreaService.View, http: HTTPFrontDoor, body: inout JSONWriter) -> HTTPAnswer {
        let base = head.publicOrigin ?? ""
        let state = view.state
        let target = head.path + (head.query.isEmpty ? "" : "?" + head.query.map { "\($0.name)=\(Request.percentEncoded($0.value))" }.joined(separator: "&"))
        var host = FNV1a()
        host.add(base.utf8)
        host.add(target.utf8)
        // Items may carry crowd levels: their tag follows them.
        let carriesCrowd: Bool = switch asked { case .items, .item: view.crowd != nil; default: false }
        let tag = view.tag(".ogc." + String(host.value, radix: 36), followingCrowd: carriesCrowd)
        let caching = [("ETag", tag), ("Cache-Control", http.cacheControl)]
        if state.hasData, let condition = head.header("if-none-match"), matches(condition, tag) {
            return HTTPAnswer(status: .notModified, contentType: nil, fields: caching, payload: .none)
        }
        var type = json
        do throws(RequestError) {
            switch asked {
            case .landing: OGCAnswers.landing(base: base, into: &body)
            case .conformance: OGCAnswers.conformance(into: &body)
            case .api:
                OGCApiDocument.write(base: base, into: &body)
                type = "application/vnd.oai.openapi+json;version=3.0"
            case .collections: OGCAnswers.collections(base: base, state: state, into: &body)
            case .collection(let collection): OGCAnswers.collection(collection, base: base, state: state, into: &body)
            case .queryables(let collection):
                OGCAnswers.queryables(collection, base: base, into: &body)
                type = "application/schema+json"
            case .items(let collection, let query):
                guard state.hasData else { throw RequestError(.unavailable, "no data loaded yet: the first refresh is running") }
                try OGCAnswers.items(collection, query: query, base: base, target: target, state: state, crowd: view.crowd, into: &body)
                type = "application/geo+json"
            case .item(let collection, let id):
                guard state.hasData else { throw RequestError(.unavailable, "no data loaded yet: the first refresh is running") }
                try OGCAnswers.item(collection, id: id, base: base, state: state, crowd: view.crowd, into: &body)
                type = "application/geo+json"
            }
        } catch {
            return failure(error.code, body: &body, error: error)
        }
        body.newline()
        return HTTPAnswer(status: .ok, contentType: type, fields: caching, payload: .writer)
    }
}
