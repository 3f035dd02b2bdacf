import AreasProtocol
import AreasSystem

/// HTTP/1.1 on a connection: keep-alive, pipelined requests answered in order, `HEAD`,
/// conditional requests. Every query is answered by the same `AreaService.respond` as a request
/// line (`HTTPAnswer`), so the body is the socket's answer byte for byte.
extension ConnectionServer {
    /// How long an HTTP connection may idle between requests (nginx keeps its own 75 s): a
    /// browser's keep-alive connection otherwise holds a slot for `idleTimeoutSeconds`.
    static let httpKeepAliveSeconds = 75.0

    func serveHTTP(_ connection: FileDescriptor, _ http: HTTPFrontDoor) {
        var limits = self.httpLimits
        var reader = ConnectionReader(connection, limits: limits)
        Sockets.setNoDelay(connection)
        let peer = Sockets.peerUID(connection)
        var pending: [UInt8] = []
        // How far the parser has looked into `pending` for the end of the head.
        var scanned = 0
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)
        defer { chunk.deallocate() }
        var body = JSONWriter(capacity: 16 * 1024)
        var view = connectionView()
        var date = HTTPDate()
        var parser = HTTPRequestParser(limits: http.parserLimits)
        while true {
            switch reader.read(into: chunk, limits: limits) {
            case .bytes(let count):
                if pending.isEmpty { reader.requestStartedAt = MonotonicClock.microseconds }
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
            case .closed:
                return
            case .requestTimedOut:
                refuse(HTTPError(.requestTimeout, "the request was not complete \(limits.requestTimeoutSeconds) s after it began"), on: connection, http)
                return
            }
            limits = self.httpLimits
            parser.limits.maxHeadBytes = Swift.min(http.parserLimits.maxHeadBytes, limits.maxLineBytes)
            // Every complete request that has arrived, in order.
            while !pending.isEmpty {
                let head: HTTPRequestHead
                do {
                    guard case .head(let parsed, let consumed) = try parser.parse(pending, scanned: &scanned) else { break }
                    head = parsed
                    pending.removeSubrange(0..<consumed)
                } catch {
                    refuse(error, on: connection, http)
                    return
                }
                guard takeTurn(connection) else { return }
                service.update(&view)
                var tally = RequestTally()
                let answer = HTTPAnswer.answer(head, service: service, view: view, peer: peer, http: http, body: &body, tally: &tally)
                working.signal()
                service.count(tally)
                guard write(answer, for: head, body: body, date: date.current(), http: http, to: connection, peer: peer, limits: limits) else { return }
                // A stop whose time is up ends the connection after a whole answer.
                if !head.keepAlive || abandoning.load(ordering: .relaxed) { return }
                reader.requestStartedAt = pending.isEmpty ? nil : MonotonicClock.microseconds
            }
            if body.capacity > Self.retainedBytes { body = JSONWriter(capacity: 16 * 1024) }
        }
    }

    /// The limits in force, with HTTP's shorter keep-alive.
    var httpLimits: Limits {
        var limits = self.limits
        limits.idleTimeoutSeconds = Swift.min(limits.idleTimeoutSeconds, Self.httpKeepAliveSeconds)
        return limits
    }

    /// Writes an answer's head and (unless the request was HEAD) its body; false when the
    /// connection must close.
    private func write(_ answer: HTTPAnswer, for request: HTTPRequestHead, body: borrowing JSONWriter, date: String,
                       http: HTTPFrontDoor, to connection: FileDescriptor, peer: UInt32?, limits: Limits) -> Bool {
        let close = !request.keepAlive
        let frontDoor = FrontDoor.http(http)
        let bodyBytes: Int
        switch answer.payload {
        case .none: bodyBytes = 0
        case .writer: bodyBytes = body.count
        case .bytes(let bytes): bodyBytes = bytes.count
        case .file(_, let size): bodyBytes = size
        }
        // An HTTP/1.0 client that asked to keep the connection is told it is kept.
        let fields = request.minorVersion == 0 && !close ? answer.fields + [("Connection", "keep-alive")] : answer.fields
        let head = http.head(answer.status, contentType: answer.contentType, contentLength: bodyBytes, date: date, close: close, extra: fields)
        defer { if case .file(let file, _) = answer.payload { file.close() } }
        let sendsBody = request.method != .head
        return head.withUnsafeBytes { head in
            switch answer.payload {
            case .none:
                return send(head: head, body: UnsafeRawBufferPointer(start: nil, count: 0), to: connection, peer: peer, limits: limits, frontDoor: frontDoor)
            case .writer:
                return body.withBytes { bytes in
                    send(head: head, body: sendsBody ? UnsafeRawBufferPointer(bytes) : UnsafeRawBufferPointer(start: nil, count: 0), to: connection, peer: peer, limits: limits, frontDoor: frontDoor)
                }
            case .bytes(let bytes):
                return bytes.withUnsafeBytes { bytes in
                    send(head: head, body: sendsBody ? bytes : UnsafeRawBufferPointer(start: nil, count: 0), to: connection, peer: peer, limits: limits, frontDoor: frontDoor)
                }
            case .file(let file, let size):
                guard (try? connection.writeAll(head)) != nil else { return false }
                return !sendsBody || (try? Sockets.sendFile(file, count: size, to: connection)) != nil
            }
        }
    }

    /// A refused request: its status and the socket's error body, then the connection closes
    /// (after a malformed head, where the next request would begin is unknowable).
    private func refuse(_ error: HTTPError, on connection: FileDescriptor, _ http: HTTPFrontDoor) {
        service.counters.httpRefused.add(1)
        let requestError = RequestError(HTTPFrontDoor.code(for: error.status), error.message)
        var writer = JSONWriter(capacity: 256)
        Answers.error(requestError, into: &writer)
        writer.newline()
        var extra: [(String, String)] = []
        if error.status == .methodNotAllowed { extra.append(("Allow", "GET, HEAD, OPTIONS")) }
        let bytes = http.errorAnswer(requestError, body: writer.withBytes { Array($0) }, status: error.status, extra: extra)
        _ = try? connection.writeAll(bytes)
        Sockets.shutdown(connection, .writing)
    }
}
