import AreasSystem
import Dispatch
import Foundation

/// Makes the daemon's GET requests in a child process: `areasd --fetch-worker`, started when a
/// request comes and ended once none has been in flight for `idleSeconds`.
///
/// `URLSession`, curl and the TLS library keep a megabyte or two of heap alive between requests
/// and scatter free pages around it that the allocator cannot give back; the libraries' own
/// pages come in as they run. In a worker all of it ends with the fetching, so a daemon that
/// serves between refreshes holds only the data it serves. The worker makes each request as
/// ``HTTPClient`` does in-process (the same deadline, size limit, redirect refusal and errors);
/// a body comes back as it arrives, so the worker never holds a page whole, and the daemon judges
/// a body's opening and writes it to a sink itself.
///
/// A worker that dies fails the requests it held with a transport error (each source's
/// back-off tries again, in a new worker); one that stops answering is given its requests'
/// deadlines and a grace period, then killed.
package final class FetchWorker: Sendable {
    /// The program and its arguments (the first is `argv[0]`).
    let program: String
    let arguments: [String]
    let idleSeconds: Double

    /// The argument that makes `areasd` a fetch worker.
    package static let argument = "--fetch-worker"
    /// How long past a request's own deadline the daemon waits for the worker's answer.
    static let graceSeconds = 15.0

    private let state = LockedValue(State())
    private struct State {
        var connection: Connection?
        var nextID: UInt32 = 1
        /// Workers started so far.
        var started = 0
    }

    package init(program: String, arguments: [String], idleSeconds: Double = 1) {
        self.program = program
        self.arguments = arguments
        self.idleSeconds = idleSeconds
    }

    /// This very executable as a worker (`/proc/self/exe`: the same build even when the file
    /// on disk has been replaced since the daemon started).
    package static func ofThisProgram() -> FetchWorker {
        FetchWorker(program: "/proc/self/exe", arguments: [CommandLine.arguments.first ?? "areasd", argument])
    }

    /// Workers started so far, and the pid of the one running now.
    package var workers: (started: Int, running: Int32?) { state.withLock { ($0.started, $0.connection?.child.pid) } }

    /// `HTTPClient.get`, made by the worker.
    package func get(_ url: String, headers: [(String, String)] = [], timeoutSeconds: Double, maxBytes: Int,
                     opening: HTTPClient.Opening? = nil, sink: HTTPClient.BodySink? = nil) async throws(UpstreamError) -> PageResponse {
        let request = FetchWorkerRequest(url: url, headers: headers.map { [$0.0, $0.1] }, timeoutSeconds: timeoutSeconds, maxBytes: maxBytes,
                                         openingBytes: opening?.bytes)
        let payload: [UInt8]
        do { payload = try [UInt8](JSONEncoder().encode(request)) } catch { throw .transport("cannot form the request for the fetch worker: \(error)") }
        let result: Result<PageResponse, UpstreamError> = await withCheckedContinuation { continuation in
            let waiting = Waiting(opening: opening, sink: sink) { continuation.resume(returning: $0) }
            let assigned = state.withLock { (state: inout State) -> Result<(Connection, UInt32), SystemError> in
                let connection: Connection
                if let running = state.connection {
                    connection = running
                } else {
                    do throws(SystemError) { connection = try Connection(ChannelChild.start(program, arguments), owner: self) } catch {
                        return .failure(error)
                    }
                    state.connection = connection
                    state.started += 1
                }
                let id = state.nextID
                state.nextID &+= 1
                connection.begin(id, waiting)
                return .success((connection, id))
            }
            guard case .success(let (connection, id)) = assigned else {
                if case .failure(let error) = assigned { waiting.finish(.failure(.transport("cannot start the fetch worker: \(error)"))) }
                return
            }
            do throws(SystemError) { try connection.channel.send(.request, id: id, payload) } catch {
                connection.finish(id, .failure(.transport("cannot reach the fetch worker: \(error)")))
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds + Self.graceSeconds) {
                if connection.finish(id, .failure(.timedOut(seconds: timeoutSeconds))) { connection.child.kill() }
            }
        }
        return try result.get()
    }

    /// Ends `connection`'s worker `idleSeconds` from now if it is still idle then.
    fileprivate func retireWhenIdle(_ connection: Connection, generation: Int) {
        DispatchQueue.global().asyncAfter(deadline: .now() + idleSeconds) { [self] in retire(connection, ifIdleSince: generation) }
    }

    /// Ends the running worker now if it holds no request.
    package func retireIfIdle() {
        guard let (connection, generation) = state.withLock({ $0.connection.map { ($0, $0.generation) } }) else { return }
        retire(connection, ifIdleSince: generation)
    }

    /// The daemon closes its side, and the worker, reading the end, exits.
    private func retire(_ connection: Connection, ifIdleSince generation: Int) {
        let retire = state.withLock { state in
            guard state.connection === connection, connection.isIdle(since: generation) else { return false }
            state.connection = nil
            return true
        }
        if retire { Sockets.shutdown(connection.channel.descriptor, .writing) }
    }

    /// A worker that ended is not given new requests.
    fileprivate func forget(_ connection: Connection) {
        state.withLock { state in if state.connection === connection { state.connection = nil } }
    }

    /// A request in flight: who waits, and what the daemon does with its body.
    struct Waiting: Sendable {
        var opening: HTTPClient.Opening?
        var sink: HTTPClient.BodySink?
        /// Why the sink refused the body, once it has.
        var sinkFailure: SystemError?
        /// A successful body so far, as it arrived, when there is no sink: joined once whole.
        var chunks: [[UInt8]] = []
        let finish: @Sendable (Result<PageResponse, UpstreamError>) -> Void
    }

    /// One worker: its process, its channel, the requests it holds, and the thread reading
    /// its frames.
    final class Connection: Sendable {
        let child: ChannelChild
        let channel: FetchWorkerChannel
        private weak let owner: FetchWorker?
        private let inFlight = LockedValue((waiting: [UInt32: Waiting](), generation: 0))

        init(_ child: ChannelChild, owner: FetchWorker) throws(SystemError) {
            self.child = child
            self.channel = FetchWorkerChannel(child.channel)
            self.owner = owner
            do {
                try SystemThread.start(stackSize: 256 << 10) { [self] in readFrames() }
            } catch {
                child.kill()
                _ = child.reap()
                throw error
            }
        }

        /// The channel closes only when nothing holds the connection: a request that took it
        /// just before its worker ended sends to a closed peer (an error it reports), never to
        /// a descriptor number the daemon has since given to another file.
        deinit { channel.descriptor.close() }

        func begin(_ id: UInt32, _ waiting: Waiting) {
            inFlight.withLock {
                $0.waiting[id] = waiting
                $0.generation += 1
            }
        }

        func isIdle(since generation: Int) -> Bool { inFlight.withLock { $0.waiting.isEmpty && $0.generation == generation } }

        /// Changes with every request begun: an idle worker is retired only if none began since.
        var generation: Int { inFlight.withLock { $0.generation } }

        /// Answers the request `id` once; false when it had been answered already.
        @discardableResult
        func finish(_ id: UInt32, _ result: Result<PageResponse, UpstreamError>) -> Bool {
            let (waiting, idle) = inFlight.withLock { state in
                let waiting = state.waiting.removeValue(forKey: id)
                return (waiting, waiting != nil && state.waiting.isEmpty ? state.generation : nil)
            }
            guard let waiting else { return false }
            waiting.finish(result)
            if let idle { owner?.retireWhenIdle(self, generation: idle) }
            return true
        }

        private func readFrames() {
            var why: String?
            while why == nil {
                do throws(FetchWorkerChannel.ReadError) {
                    guard var frame = try channel.receive() else { break }
                    handle(&frame)
                } catch {
                    why = "sent what could not be read (\(error))"
                }
            }
            if why != nil { child.kill() }
            owner?.forget(self)
            let ended = child.reap()
            let waiting = inFlight.withLock { state in
                defer { state.waiting.removeAll() }
                return state.waiting
            }
            for (_, request) in waiting {
                request.finish(.failure(.transport("the fetch worker (pid \(child.pid)) \(why ?? "ended") and \(ended) before it answered")))
            }
        }

        private func handle(_ frame: inout FetchWorkerChannel.Frame) {
            switch frame.kind {
            case .opening:
                let check = inFlight.withLock { $0.waiting[frame.id]?.opening?.check }
                let reason = check.map { $0(frame.payload) } ?? "no longer wanted"
                try? channel.send(.verdict, id: frame.id, Array((reason ?? "").utf8))
            case .data:
                var chunk: [UInt8] = []
                swap(&chunk, &frame.payload)
                let sink = inFlight.withLock { state -> HTTPClient.BodySink? in
                    guard let waiting = state.waiting[frame.id] else { return nil }
                    if waiting.sink == nil { state.waiting[frame.id]?.chunks.append(chunk) }
                    return waiting.sinkFailure == nil ? waiting.sink : nil
                }
                guard let sink else { return }
                do throws(SystemError) { try sink(chunk) } catch {
                    inFlight.withLock { $0.waiting[frame.id]?.sinkFailure = error }
                    try? channel.send(.cancel, id: frame.id)
                }
            case .done:
                let failure = inFlight.withLock { $0.waiting[frame.id]?.sinkFailure }
                if let failure { finish(frame.id, .failure(.transport("cannot write the answer to disk: \(failure)"))); return }
                let chunks = inFlight.withLock { state in
                    defer { state.waiting[frame.id]?.chunks = [] }
                    return state.waiting[frame.id]?.chunks ?? []
                }
                finish(frame.id, Self.answer(taking: &frame.payload).map { response in
                    var response = response
                    if !chunks.isEmpty {
                        response.body.reserveCapacity(chunks.reduce(0) { $0 + $1.count })
                        for chunk in chunks { response.body += chunk }
                    }
                    return response
                })
            case .failed:
                let failure = inFlight.withLock { $0.waiting[frame.id]?.sinkFailure }
                if let failure { finish(frame.id, .failure(.transport("cannot write the answer to disk: \(failure)"))); return }
                let error = (try? JSONDecoder().decode(UpstreamError.self, from: Data(frame.payload)))
                    ?? .transport("the fetch worker's error could not be read")
                finish(frame.id, .failure(error))
            case .request, .verdict, .cancel:
                finish(frame.id, .failure(.transport("the fetch worker sent a frame only the daemon sends")))
            }
        }

        /// A `done` frame's answer: the body, the head, the head's length. The body stays in
        /// the frame's own array.
        static func answer(taking payload: inout [UInt8]) -> Result<PageResponse, UpstreamError> {
            var body: [UInt8] = []
            swap(&body, &payload)
            guard body.count >= 4 else { return .failure(.transport("the fetch worker's answer is cut short")) }
            let length = body.withUnsafeBytes { bytes in
                var reader = ByteReader(bytes: bytes, offset: bytes.count - 4)
                return Int((try? reader.read(UInt32.self)) ?? 0)
            }
            guard length <= body.count - 4,
                  let head = try? JSONDecoder().decode(FetchWorkerAnswer.self, from: Data(body[(body.count - 4 - length)..<(body.count - 4)]))
            else { return .failure(.transport("the fetch worker's answer could not be read")) }
            body.removeLast(4 + length)
            return .success(PageResponse(status: head.status, body: body, headers: head.headers))
        }
    }
}
