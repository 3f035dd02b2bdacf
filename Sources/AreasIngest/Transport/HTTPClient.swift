import AreasSystem
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// GET requests over HTTP(S) with one long-lived `URLSession` for the whole process: pages,
/// files and geocoder questions all share its connections, and nothing is torn down per refresh.
///
/// A process that has called ``fetchInWorker(_:)`` (the daemon) makes them in a ``FetchWorker``
/// instead, whose `URLSession` lives in a child process that ends when the fetching does.
package enum HTTPClient {
    private static let transfers = Transfers()
    private static let worker = LockedValue<FetchWorker?>(nil)

    /// Every GET from now on is made by `worker` (nil: in this process).
    package static func fetchInWorker(_ worker: FetchWorker?) { self.worker.withLock { $0 = worker } }

    /// No request is expected for a while (a refresh has fetched its sources): the fetch
    /// worker, if one runs and holds no request, ends now rather than after its idle time.
    package static func fetchingPaused() { worker.withLock { $0 }?.retireIfIdle() }

    /// Where a successful body goes as it arrives, instead of being held.
    package typealias BodySink = @Sendable ([UInt8]) throws(SystemError) -> Void

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
    }()

    /// The status and body of `GET url`. A body larger than `maxBytes` is refused as too large,
    /// as soon as its declared length or the bytes received pass the limit: a huge page is never
    /// held whole. `timeoutSeconds` bounds the whole request, from the first byte sent to the
    /// last received (`URLRequest.timeoutInterval` alone bounds only the silence between two
    /// packets, so an upstream that drips a byte a second would hold it for days). A redirect is
    /// not followed: the request, and the key in its query or headers, go to the configured host
    /// only. Errors never echo the URL: it may hold a service key.
    ///
    /// `opening`, when given, judges the body's first `opening.bytes` bytes as soon as they
    /// arrive (a reason to refuse it, or nil): a body that is not what was asked for is cut off
    /// there, not downloaded whole first.
    ///
    /// `sink`, when given, receives a successful answer's body as it arrives (after its
    /// opening passed), written to the file rather than held: the response's body is then
    /// empty. An answer that is not a success is held, up to 1 MiB, to say what it was.
    package static func get(_ url: String, headers: [(String, String)] = [], timeoutSeconds: Double, maxBytes: Int,
                            opening: Opening? = nil, sink: FileDescriptor? = nil) async throws(UpstreamError) -> PageResponse {
        let bodySink = sink.map(writing(to:))
        if let worker = worker.withLock({ $0 }) {
            return try await worker.get(url, headers: headers, timeoutSeconds: timeoutSeconds, maxBytes: maxBytes, opening: opening, sink: bodySink)
        }
        return try await getInProcess(url, headers: headers, timeoutSeconds: timeoutSeconds, maxBytes: maxBytes, opening: opening, sink: bodySink)
    }

    private static func writing(to file: FileDescriptor) -> BodySink {
        { (bytes: [UInt8]) throws(SystemError) -> Void in try file.writeAll(bytes) }
    }

    /// `get` made with this process's own `URLSession`.
    static func getInProcess(_ url: String, headers: [(String, String)], timeoutSeconds: Double, maxBytes: Int,
                             opening: Opening?, sink: BodySink?) async throws(UpstreamError) -> PageResponse {
        guard let target = URL(string: url) else { throw .transport("cannot form a URL from the configured address") }
        var request = URLRequest(url: target)
        // FoundationNetworking's own timer (whole seconds of silence) must never fire first: it
        // traps when it ends a task that is waiting to be told not to follow a redirect. The
        // deadline below ends every request; this one is only a backstop.
        request.timeoutInterval = timeoutSeconds + 60
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let result: Result<PageResponse, UpstreamError> = await withCheckedContinuation { continuation in
            let task = session.dataTask(with: request)
            let id = task.taskIdentifier
            transfers.begin(id, Transfer(maxBytes: maxBytes, timeoutSeconds: timeoutSeconds, opening: opening, sink: sink) { continuation.resume(returning: $0) })
            task.resume()
            DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds) { [transfers] in
                if transfers.expire(id) { task.cancel() }
            }
        }
        return try result.get()
    }

    /// A check of a body's first bytes.
    package struct Opening: Sendable {
        package var bytes: Int
        package var check: @Sendable ([UInt8]) -> String?

        package init(bytes: Int, check: @escaping @Sendable ([UInt8]) -> String?) {
            self.bytes = bytes
            self.check = check
        }
    }

    /// One request in flight: the body so far, its limit, and who waits for it.
    final class Transfer: @unchecked Sendable {
        let maxBytes: Int
        let timeoutSeconds: Double
        var opening: Opening?
        /// Where a successful body goes as it arrives; `body` then holds only what is not yet
        /// written (its opening, before that is judged).
        let sink: BodySink?
        var body: [UInt8] = []
        /// Bytes of the body received so far, written or held.
        var received = 0
        var status = 0
        var headers: [String: String] = [:]
        let finish: (Result<PageResponse, UpstreamError>) -> Void

        /// The most of an answer that is not a success held when the body goes to a sink.
        static let heldErrorBytes = 1 << 20

        init(maxBytes: Int, timeoutSeconds: Double, opening: Opening?, sink: BodySink?, finish: @escaping (Result<PageResponse, UpstreamError>) -> Void) {
            self.maxBytes = maxBytes
            self.timeoutSeconds = timeoutSeconds
            self.opening = opening
            self.sink = sink
            self.finish = finish
        }
    }

    /// The session's delegate: collects each task's body and stops a task whose body passes
    /// its limit.
    final class Transfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var inFlight: [Int: Transfer] = [:]

        func begin(_ id: Int, _ transfer: Transfer) { lock.withLock { inFlight[id] = transfer } }

        /// Tasks told not to follow a redirect. FoundationNetworking traps when a task waiting
        /// to be told is cancelled before it takes the answer in: such a task is not cancelled
        /// at its deadline (the redirect, delivered as the answer next, ends it), and a task
        /// already cancelled is never told (it ends as cancelled).
        private var redirecting: Set<Int> = []

        /// Ends the request `id` if it is still in flight at its deadline; true when its task
        /// is to be cancelled.
        func expire(_ id: Int) -> Bool {
            let (transfer, cancel) = lock.withLock { (inFlight.removeValue(forKey: id), !redirecting.contains(id)) }
            guard let transfer else { return false }
            transfer.finish(.failure(.timedOut(seconds: transfer.timeoutSeconds)))
            return cancel
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            let waited = lock.withLock {
                guard inFlight[task.taskIdentifier] != nil else { return false }
                redirecting.insert(task.taskIdentifier)
                return true
            }
            // Not followed: the redirect itself arrives as the answer, and is refused there.
            if waited { completionHandler(nil) }
        }
        private func transfer(_ id: Int) -> Transfer? { lock.withLock { inFlight[id] } }

        /// Ends a callback that changed a transfer: the callbacks of one task come in order but
        /// not always on one thread, and the one that completes the task reads what the
        /// others wrote (the body, the status, the headers) after taking the lock, so the
        /// writes are published through it.
        private func published() { lock.withLock {} }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            defer { published() }
            _ = lock.withLock { redirecting.remove(dataTask.taskIdentifier) }
            guard let transfer = transfer(dataTask.taskIdentifier) else { return completionHandler(.cancel) }
            transfer.status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if (300..<400).contains(transfer.status) && transfer.status != 304 {
                refuse(transfer, .redirected(status: transfer.status), task: dataTask.taskIdentifier)
                return completionHandler(.cancel)
            }
            for (name, value) in (response as? HTTPURLResponse)?.allHeaderFields ?? [:] {
                if let name = name as? String, let value = value as? String { transfer.headers[name.lowercased()] = value }
            }
            let declared = response.expectedContentLength
            if declared > Int64(transfer.maxBytes) {
                refuse(transfer, .tooLarge(bytes: Int(declared), limit: transfer.maxBytes), task: dataTask.taskIdentifier)
                return completionHandler(.cancel)
            }
            if declared > 0 && transfer.sink == nil { transfer.body.reserveCapacity(Int(declared)) }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard let transfer = transfer(dataTask.taskIdentifier) else { return }
            defer { published() }
            func stop(_ error: UpstreamError) {
                refuse(transfer, error, task: dataTask.taskIdentifier)
                transfer.body = []
                dataTask.cancel()
            }
            let success = (200..<300).contains(transfer.status)
            if transfer.received + data.count > transfer.maxBytes {
                return stop(.tooLarge(bytes: transfer.received + data.count, limit: transfer.maxBytes))
            }
            if transfer.sink != nil && !success && transfer.body.count + data.count > Transfer.heldErrorBytes {
                return stop(.transport("answered HTTP \(transfer.status) with more than 1 MiB"))
            }
            transfer.received += data.count
            transfer.body.append(contentsOf: data)
            if let opening = transfer.opening, transfer.body.count >= opening.bytes, success {
                transfer.opening = nil
                if let reason = opening.check(Array(transfer.body.prefix(opening.bytes))) { return stop(.transport(reason)) }
            }
            if let sink = transfer.sink, success, transfer.opening == nil {
                do throws(SystemError) {
                    try sink(transfer.body)
                    transfer.body.removeAll(keepingCapacity: true)
                } catch {
                    stop(.transport("cannot write the answer to disk: \(error)"))
                }
            }
        }

        /// Answers the waiting caller now, once: a cancelled task's completion comes when the
        /// session gets to it, and then finds nothing left to do. The body is left to the
        /// delegate's queue, which alone writes it (the deadline fires on another).
        private func refuse(_ transfer: Transfer, _ error: UpstreamError, task id: Int) {
            guard lock.withLock({ inFlight.removeValue(forKey: id) }) != nil else { return }
            transfer.finish(.failure(error))
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            _ = lock.withLock { redirecting.remove(task.taskIdentifier) }
            guard let transfer = lock.withLock({ inFlight.removeValue(forKey: task.taskIdentifier) }) else { return }
            if let error {
                let nsError = error as NSError
                transfer.finish(.failure(nsError.code == NSURLErrorTimedOut
                    ? .timedOut(seconds: transfer.timeoutSeconds) : .transport("\(nsError.localizedDescription) (code \(nsError.code))")))
            } else {
                // A success shorter than its opening has not been judged, nor written: it goes
                // to the sink now, and its judge is whoever reads the file.
                if let sink = transfer.sink, (200..<300).contains(transfer.status), !transfer.body.isEmpty {
                    do throws(SystemError) { try sink(transfer.body) } catch {
                        return transfer.finish(.failure(.transport("cannot write the answer to disk: \(error)")))
                    }
                    transfer.body = []
                }
                transfer.finish(.success(PageResponse(status: transfer.status, body: transfer.body, headers: transfer.headers)))
            }
        }
    }

    /// `value` percent-encoded with everything but unreserved characters escaped, so `+`, `/`,
    /// `=` and Korean text arrive intact.
    package static func encode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
