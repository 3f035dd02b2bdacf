import AreasCore
import AreasIngest
import AreasProtocol
import AreasSystem

/// What the HTTP front door answers to one request: a status, the fields particular to it, and
/// where the body is (the connection's answer buffer, bytes, or the snapshot file).
struct HTTPAnswer {
    enum Payload {
        case none
        /// The connection's `JSONWriter`, which `AreaService.respond` wrote the answer into.
        case writer
        case bytes([UInt8])
        case file(FileDescriptor, size: Int)
    }

    var status: HTTPStatus
    var contentType: String?
    var fields: [(String, String)]
    var payload: Payload

    static let json = "application/json"
    static let noStore = ("Cache-Control", "no-store")

    /// The answer to `head`, with the served data's version (`Areas-Version`) when there is data.
    static func answer(_ head: HTTPRequestHead, service: AreaService, view: AreaService.View, peer: UInt32?, http: HTTPFrontDoor,
                       body: inout JSONWriter, tally: inout RequestTally) -> HTTPAnswer {
        var answer = routed(head, service: service, view: view, peer: peer, http: http, body: &body, tally: &tally)
        if view.state.hasData { answer.fields.append(("Areas-Version", view.state.version)) }
        return answer
    }

    private static func routed(_ head: HTTPRequestHead, service: AreaService, view: AreaService.View, peer: UInt32?, http: HTTPFrontDoor,
                               body: inout JSONWriter, tally: inout RequestTally) -> HTTPAnswer {
        body.reset()
        let route: HTTPRoute
        do {
            route = try HTTPRoute.route(head)
        } catch {
            tally.answered += 1
            tally.count(error)
            return failure(error.code, body: &body, error: error)
        }
        switch route {
        case .preflight:
            return HTTPAnswer(status: .noContent, contentType: nil, fields: [
                ("Allow", "GET, HEAD, OPTIONS"), ("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS"),
                ("Access-Control-Allow-Headers", "Accept, If-None-Match"), ("Access-Control-Max-Age", "86400"),
            ], payload: .none)
        case .request(let request, let geojson, let idsOnly, let cacheable):
            // An answer that may carry crowd levels changes with them too.
            let followsCrowd = view.crowd != nil && request.operation.answerCarriesCrowd
            let tag = view.tag(geojson ? ".geojson" : "", followingCrowd: followsCrowd)
            let caching: [(String, String)] = cacheable
                ? [("ETag", tag), ("Cache-Control", http.cacheControl), ("Vary", "Accept")]
                : [noStore, ("Vary", "Accept")]
            // Only a success may be 304: a request whose parameters were checked by the router
            // succeeds whenever there is data, except one that may fail on the data, which is
            // run (a 304 costs it a query).
            let revalidated = cacheable && view.state.hasData && head.header("if-none-match").map { matches($0, tag) } == true
            // A question that asks the city about a hotspot is run even then, to ask it.
            if revalidated && !request.operation.mayFailOnData && !followsCrowd {
                tally.answered += 1
                return HTTPAnswer(status: .notModified, contentType: nil, fields: caching, payload: .none)
            }
            let form: AnswerForm = geojson ? .geoJSON(idsOnly: idsOnly) : .json
            if let code = service.respond(to: request, form: form, peerUID: peer, view: view, into: &body, tally: &tally) {
                return HTTPAnswer(status: HTTPFrontDoor.status(for: code), contentType: json, fields: [noStore] + retry(code), payload: .writer)
            }
            if revalidated { return HTTPAnswer(status: .notModified, contentType: nil, fields: caching, payload: .none) }
            return HTTPAnswer(status: .ok, contentType: geojson ? "application/geo+json" : json, fields: caching, payload: .writer)
        case .health(let strict):
            tally.answered += 1
            tally.count(.health)
            let health = service.currentHealth(view)
            Answers.health(health, into: &body)
            body.newline()
            let serving = health.loaded && (!strict || health.healthy)
            return HTTPAnswer(status: serving ? .ok : .serviceUnavailable, contentType: json, fields: [noStore] + (serving ? [] : [("Retry-After", "5")]), payload: .writer)
        case .metrics:
            tally.answered += 1
            tally.count(.metrics)
            let text = service.metricsText(view)
            return HTTPAnswer(status: .ok, contentType: "text/plain; version=0.0.4; charset=utf-8", fields: [noStore], payload: .bytes(Array(text.utf8)))
        case .snapshot:
            tally.answered += 1
            return snapshot(head, path: service.snapshotPath, confirmed: view.state.fileFetchTimes, body: &body)
        case .mapPage:
            tally.answered += 1
            return HTTPAnswer(status: .ok, contentType: "text/html; charset=utf-8", fields: [("Cache-Control", "no-cache")],
                              payload: .bytes(MapPage.html(http: http.map, regions: view.regions.map != nil, crowd: view.crowd != nil)))
        case .favicon:
            return HTTPAnswer(status: .noContent, contentType: nil, fields: [("Cache-Control", "public, max-age=86400")], payload: .none)
        case .mapAsset(let path):
            tally.answered += 1
            if let file = MapPage.files[path] {
                return HTTPAnswer(status: .ok, contentType: file.type, fields: [("Cache-Control", "no-cache")], payload: .bytes(file.bytes))
            }
            return asset(path, in: http.map.assets, body: &body)
        case .tile(let z, let x, let y):
            tally.answered += 1
            guard view.state.hasData else {
                return failure(.unavailable, body: &body, error: RequestError(.unavailable, "no data loaded yet: the first refresh is running"))
            }
            // Cached as every data answer: a tile changes only with the data.
            let tag = view.tag(".mvt")
            let caching = [("ETag", tag), ("Cache-Control", http.cacheControl)]
            if let condition = head.header("if-none-match"), matches(condition, tag) {
                return HTTPAnswer(status: .notModified, contentType: nil, fields: caching, payload: .none)
            }
            let state = view.state
            guard let bytes = state.tiles.tile(z: z, x: x, y: y, make: { VectorTiles.tile(z: z, x: x, y: y, index: state.index) }) else {
                return HTTPAnswer(status: .noContent, contentType: nil, fields: caching, payload: .none)
            }
            return HTTPAnswer(status: .ok, contentType: "application/vnd.mapbox-vector-tile", fields: caching, payload: .bytes(bytes))
        case .tileJSON:
            tally.answered += 1
            // Changes with the config (the bounds) and names the host it was asked by.
            let origin = head.publicOrigin
            var host = FNV1a()
            host.add((origin ?? "").utf8)
            let tag = view.tag(".tilejson." + String(host.value, radix: 36))
            let caching = [("ETag", tag), ("Cache-Control", http.cacheControl)]
            if let condition = head.header("if-none-match"), matches(condition, tag) {
                return HTTPAnswer(status: .notModified, contentType: nil, fields: caching, payload: .none)
            }
            TileJSON.write(origin: origin, bounds: view.bounds, into: &body)
            return HTTPAnswer(status: .ok, contentType: "application/json", fields: caching, payload: .writer)
        case .ogc(let asked):
            tally.answered += 1
            return ogc(asked, head: head, view: view, http: http, body: &body)
        case .regions(let level, let box, let zoom):
            tally.answered += 1
            guard let map = view.regions.map else {
                return failure(.unavailable, body: &body, error: RequestError(.unavailable, view.regions.problem ?? "no administrative map"))
            }
            // Changes with the data (the counts) and the map (a new map bumps the config's epoch).
            let tag = view.tag(".regions")
            let caching = [("ETag", tag), ("Cache-Control", http.cacheControl)]
            if let condition = head.header("if-none-match"), matches(condition, tag) {
                return HTTPAnswer(status: .notModified, contentType: nil, fields: caching, payload: .none)
            }
            let state = view.state
            let counts = state.regionCounts.counts(epoch: view.configEpoch) { map.counts(of: state.index) }
            do throws(RequestError) {
                try Answers.regions(map.drawn(level, in: box, tolerance: Answers.pixelDegrees(zoom: zoom)), level: level, map: map, counts: counts, into: &body)
            } catch {
                body.reset()
                return failure(error.code, body: &body, error: error)
            }
            return HTTPAnswer(status: .ok, contentType: "application/geo+json", fields: caching, payload: .writer)
        }
    }

    /// A file of the map page's from the assets folder (the distribution's, so its links are
    /// followed), as long as it is a regular file of at most 16 MiB.
    static func asset(_ path: String, in folder: String, body: inout JSONWriter) -> HTTPAnswer {
        let missing = RequestError(.notFound, "no map file /map/\(path) in \(folder) (install Debian's libjs-leaflet and libjs-leaflet.markercluster, or set http.assets)")
        guard let file = try? FileDescriptor.open(folder + "/" + path, []) else { return failure(.notFound, body: &body, error: missing) }
        guard let info = try? file.status(), info.kind == .regular, info.size <= 16 << 20 else {
            file.close()
            return failure(.notFound, body: &body, error: missing)
        }
        let type = path.split(separator: ".").last.flatMap { HTTPRoute.assetTypes[String($0)] } ?? "application/octet-stream"
        return HTTPAnswer(status: .ok, contentType: type, fields: [("Cache-Control", "public, max-age=86400")], payload: .file(file, size: info.size))
    }

    /// The current snapshot file, by identity: a refresh renames a new file into place, and the
    /// one opened here is sent whole. `confirmed`: the served sources' fetch times, which
    /// refreshes that found nothing new confirmed later than the file's own; followers need them
    /// to know how fresh the data is.
    static func snapshot(_ head: HTTPRequestHead, path: String, confirmed: [String: Double], body: inout JSONWriter) -> HTTPAnswer {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, [.noFollow])
        } catch {
            let error = RequestError(.notFound, error.isNoSuchFile ? "no snapshot has been written yet" : "the snapshot cannot be read: \(error.reason)")
            return failure(error.code, body: &body, error: error)
        }
        guard let info = try? file.status(), info.kind == .regular else {
            file.close()
            return failure(.notFound, body: &body, error: RequestError(.notFound, "the snapshot is not a regular file"))
        }
        let confirmedAt = (confirmed.values.max() ?? 0).bitPattern
        let tag = "\"snapshot-\(String(info.inode, radix: 36))-\(String(info.size, radix: 36))-\(String(info.modifiedNanoseconds, radix: 36))-\(String(confirmedAt, radix: 36))\""
        var fields = [("ETag", tag), ("Cache-Control", "no-cache")]
        if !confirmed.isEmpty { fields.append(("Areas-Fetched-At", FetchTimes.headerValue(confirmed))) }
        if let condition = head.header("if-none-match"), matches(condition, tag) {
            file.close()
            return HTTPAnswer(status: .notModified, contentType: nil, fields: fields, payload: .none)
        }
        return HTTPAnswer(status: .ok, contentType: "application/octet-stream", fields: fields, payload: .file(file, size: info.size))
    }

    static func failure(_ code: RequestError.Code, body: inout JSONWriter, error: RequestError) -> HTTPAnswer {
        body.reset()
        Answers.error(error, into: &body)
        body.newline()
        return HTTPAnswer(status: HTTPFrontDoor.status(for: code), contentType: json, fields: [noStore] + retry(code), payload: .writer)
    }

    static func retry(_ code: RequestError.Code) -> [(String, String)] {
        code == .busy || code == .unavailable ? [("Retry-After", "1")] : []
    }

    /// `If-None-Match`: `*`, or a list of entity tags, weak ones compared weakly (RFC 9110 §13.1.2).
    static func matches(_ condition: String, _ tag: String) -> Bool {
        if condition.trimmed == "*" { return true }
        return condition.split(separator: ",").contains { candidate in
            var text = Substring(String(candidate).trimmed)
            if text.hasPrefix("W/") { text = text.dropFirst(2) }
            return text == tag
        }
    }
}
