import AreasSystem
import Dispatch
import Foundation

extension FetchWorker {
    /// The worker's side: reads requests from the channel on descriptor 3, makes each with
    /// ``HTTPClient`` in this process, and answers; exits when the daemon closes the channel
    /// (the daemon's end closes with it, so a worker never outlives its daemon).
    package static func serve() -> Never {
        Signals.ignore(SIGPIPE)
        // Bodies in their own mappings, handed back as each is sent; few arenas to hold the rest.
        FreeMemory.mapLargeBlocksSeparately()
        FreeMemory.limitArenas(to: 2)
        let channel = FetchWorkerChannel(FileDescriptor(rawValue: ChannelChild.channelDescriptor))
        let requests = WorkerRequests(channel: channel)
        while true {
            let frame: FetchWorkerChannel.Frame?
            do throws(FetchWorkerChannel.ReadError) { frame = try channel.receive() } catch {
                StandardError.write("areasd fetch worker: \(error)\n")
                exit(1)
            }
            guard let frame else { exit(0) }
            switch frame.kind {
            case .request:
                guard let request = try? JSONDecoder().decode(FetchWorkerRequest.self, from: Data(frame.payload)) else {
                    requests.answer(frame.id, .failure(.transport("the fetch worker could not read the request")))
                    continue
                }
                Task { await requests.run(frame.id, request) }
            case .verdict: requests.judged(frame.id, frame.payload.isEmpty ? nil : String(decoding: frame.payload, as: UTF8.self))
            case .cancel: requests.cancel(frame.id)
            case .opening, .data, .done, .failed:
                StandardError.write("areasd fetch worker: the daemon sent a frame only the worker sends\n")
                exit(1)
            }
        }
    }

    /// The worker's requests in flight: the verdicts awaited and the bodies no longer wanted.
    final class WorkerRequests: Sendable {
        let channel: FetchWorkerChannel
        private let state = LockedValue((verdicts: [UInt32: Verdict](), cancelled: Set<UInt32>()))

        /// A verdict awaited on one of the session's threads.
        final class Verdict: @unchecked Sendable {
            let arrived = DispatchSemaphore(value: 0)
            var reason: String?
        }

        init(channel: FetchWorkerChannel) { self.channel = channel }

        func run(_ id: UInt32, _ request: FetchWorkerRequest) async {
            let opening = request.openingBytes.map { bytes in
                HTTPClient.Opening(bytes: bytes) { [self] opening in judge(id, opening, waiting: request.timeoutSeconds) }
            }
            let headers = request.headers.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
            do throws(UpstreamError) {
                let response = try await HTTPClient.getInProcess(request.url, headers: headers, timeoutSeconds: request.timeoutSeconds,
                                                                 maxBytes: request.maxBytes, opening: opening, sink: streaming(id))
                answer(id, .success(response))
            } catch {
                answer(id, .failure(error))
            }
            state.withLock { _ = $0.cancelled.remove(id) }
        }

        /// A sink that sends a body's bytes to the daemon as they arrive, until it cancels.
        private func streaming(_ id: UInt32) -> HTTPClient.BodySink {
            { [self] (bytes: [UInt8]) throws(SystemError) -> Void in
                if state.withLock({ $0.cancelled.contains(id) }) { throw SystemError("send", errno: ECANCELED) }
                try channel.send(.data, id: id, bytes)
            }
        }

        func answer(_ id: UInt32, _ result: Result<PageResponse, UpstreamError>) {
            // A daemon that is gone reads nothing more; the worker ends when it sees the close.
            switch result {
            case .success(let response):
                var trailer = ByteWriter()
                trailer.bytes = (try? [UInt8](JSONEncoder().encode(FetchWorkerAnswer(status: response.status, headers: response.headers)))) ?? Array("{}".utf8)
                trailer.append(UInt32(trailer.bytes.count))
                try? channel.send(.done, id: id, response.body, trailer: trailer.bytes)
            case .failure(let error):
                try? channel.send(.failed, id: id, (try? [UInt8](JSONEncoder().encode(error))) ?? [])
            }
            // What set the request up once (TLS and locale data, the first page's buffers) need
            // not stay resident beside the daemon's refresh while later pages come.
            FreeMemory.releaseUnusedPages(atMostEvery: 0.25)
        }

        /// Asks the daemon about a body's opening and waits for its verdict, as long as the
        /// request may take: nil to go on, else the reason to refuse.
        private func judge(_ id: UInt32, _ opening: [UInt8], waiting seconds: Double) -> String? {
            let verdict = Verdict()
            state.withLock { $0.verdicts[id] = verdict }
            defer { state.withLock { _ = $0.verdicts.removeValue(forKey: id) } }
            do throws(SystemError) { try channel.send(.opening, id: id, opening) } catch { return "the daemon is gone" }
            guard verdict.arrived.wait(timeout: .now() + seconds) == .success else { return "the daemon gave no verdict on the answer's opening" }
            return verdict.reason
        }

        func judged(_ id: UInt32, _ reason: String?) {
            guard let verdict = state.withLock({ $0.verdicts[id] }) else { return }
            verdict.reason = reason
            verdict.arrived.signal()
        }

        func cancel(_ id: UInt32) { state.withLock { _ = $0.cancelled.insert(id) } }
    }
}
