import AreasIngest
import AreasSystem
import Foundation
import Glibc
import Synchronization

/// A minimal HTTP/1.1 server on 127.0.0.1 with a kernel-chosen port, for testing and
/// benchmarking the fetcher against a real socket without the network.
///
/// Each connection gets one reply, chosen by the handler, then is closed. The replies include
/// the faults an upstream shows: a connection that hangs, a body cut short, a reset.
package final class LoopbackHTTPServer: Sendable {
    package struct Request: Sendable {
        package var method: String
        package var path: String
        /// The raw query string, still percent-encoded.
        package var rawQuery: String
        /// Query parameters, percent-decoded.
        package var query: [String: String]
        /// Header fields, names lowercased.
        package var headers: [String: String] = [:]
    }

    package enum Reply: Sendable {
        case body(status: Int, contentType: String, [UInt8])
        /// Never answer: the client must time out.
        case hang
        /// Announce the whole body but send only the first `sentBytes`, then close.
        case truncated(status: Int, contentType: String, [UInt8], sentBytes: Int)
        /// Close without a byte.
        case close
        /// A 200 with no declared length whose body never ends: 64 KB of `pattern` a
        /// millisecond until the client goes away.
        case endless(contentType: String, pattern: [UInt8])
        /// Announce `declaredLength` bytes, then send one every `interval` seconds until the
        /// client goes away: a slow upstream that never stops long enough to time out idle.
        case drip(status: Int, contentType: String, declaredLength: Int, interval: Double)
        /// `body` announced whole, then sent a byte every `interval` seconds: a slow peer whose
        /// answer is good, so only a deadline can end it.
        case dripBody(status: Int, contentType: String, [UInt8], interval: Double)
        /// A redirect to `location`.
        case redirect(status: Int, location: String)

        package static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8") -> Reply {
            .body(status: status, contentType: contentType, Array(text.utf8))
        }
    }

    package let port: UInt16
    private let listener: FileDescriptor
    private let handler: @Sendable (Request) -> Reply
    private let open = LockedValue<Set<Int32>>([])
    private let stopped = Atomic<Bool>(false)
    private let served = Atomic<Int>(0)

    package init(handler: @escaping @Sendable (Request) -> Reply) throws(SystemError) {
        // A client that hangs up mid-reply must not kill the process.
        signal(SIGPIPE, SIG_IGN)
        (listener, port) = try Sockets.listenLoopbackTCP()
        self.handler = handler
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    package var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Requests answered so far.
    package var requestCount: Int { served.load(ordering: .relaxed) }

    package func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        _ = shutdown(listener.rawValue, Int32(SHUT_RDWR))
        open.withLock { fds in
            for fd in fds { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    deinit {
        stop()
        listener.close()
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            guard let connection = try? Sockets.accept(listener) else {
                if stopped.load(ordering: .relaxed) { return }
                continue
            }
            open.withLock { _ = $0.insert(connection.rawValue) }
            let thread = Thread { [self] in
                serve(connection)
                open.withLock { _ = $0.remove(connection.rawValue) }
                connection.close()
            }
            thread.start()
        }
    }

    private func serve(_ connection: FileDescriptor) {
        guard let request = readRequest(connection) else { return }
        served.add(1, ordering: .relaxed)
        switch handler(request) {
        case .body(let status, let contentType, let body):
            try? connection.writeAll(Self.head(status, contentType, body.count) + body)
        case .truncated(let status, let contentType, let body, let sentBytes):
            try? connection.writeAll(Self.head(status, contentType, body.count) + body.prefix(sentBytes))
        case .close:
            return
        case .endless(let contentType, let pattern):
            let head = "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nConnection: close\r\n\r\n"
            guard (try? connection.writeAll(Array(head.utf8))) != nil else { return }
            var chunk: [UInt8] = []
            while chunk.count < 65_536 { chunk += pattern }
            // Paced like a fast network (64 MB/s), not a loopback flood.
            while !stopped.load(ordering: .relaxed), (try? connection.writeAll(chunk)) != nil { usleep(1_000) }
        case .drip(let status, let contentType, let declaredLength, let interval):
            drip(connection, status, contentType, declaredLength, interval) { _ in UInt8(ascii: "x") }
        case .dripBody(let status, let contentType, let body, let interval):
            drip(connection, status, contentType, body.count, interval) { body[$0] }
        case .redirect(let status, let location):
            let head = "HTTP/1.1 \(status) Found\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            try? connection.writeAll(Array(head.utf8))
        case .hang:
            // Wait until the client gives up or the server stops.
            var byte: UInt8 = 0
            while !stopped.load(ordering: .relaxed) {
                let n = Glibc.read(connection.rawValue, &byte, 1)
                if n <= 0 && !(n < 0 && errno == EINTR) { return }
            }
        }
    }

    /// Announces `length` bytes, then sends `byte(i)` one every `interval` until the client goes.
    private func drip(_ connection: FileDescriptor, _ status: Int, _ contentType: String, _ length: Int, _ interval: Double, _ byte: (Int) -> UInt8) {
        guard (try? connection.writeAll(Self.head(status, contentType, length))) != nil else { return }
        for i in 0..<length {
            if stopped.load(ordering: .relaxed) || (try? connection.writeAll([byte(i)])) == nil { return }
            usleep(useconds_t(interval * 1_000_000))
        }
    }

    private func readRequest(_ connection: FileDescriptor) -> Request? {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let terminator: [UInt8] = [13, 10, 13, 10]
        while data.count < 65_536 {
            let n = chunk.withUnsafeMutableBytes { (try? connection.read(into: $0)) ?? 0 }
            if n <= 0 { return nil }
            data.append(contentsOf: chunk[0..<n])
            if data.count >= 4, (0...(data.count - 4)).contains(where: { Array(data[$0..<$0 + 4]) == terminator }) { break }
        }
        let head = String(decoding: data, as: UTF8.self)
        guard let line = head.split(separator: "\r\n", maxSplits: 1).first else { return nil }
        let parts = line.split(separator: " ")
        guard parts.count >= 2 else { return nil }
        let target = String(parts[1])
        let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawQuery = pieces.count > 1 ? String(pieces[1]) : ""
        var query: [String: String] = [:]
        for pair in rawQuery.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(kv[0]).removingPercentEncoding ?? String(kv[0])
            query[key] = kv.count > 1 ? (String(kv[1]).removingPercentEncoding ?? String(kv[1])) : ""
        }
        var headers: [String: String] = [:]
        for field in head.split(separator: "\r\n").dropFirst() {
            guard let colon = field.firstIndex(of: ":") else { continue }
            headers[field[..<colon].lowercased()] = field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Request(method: String(parts[0]), path: String(pieces[0]), rawQuery: rawQuery, query: query, headers: headers)
    }

    private static func head(_ status: Int, _ contentType: String, _ length: Int) -> [UInt8] {
        Array("HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")\r\nContent-Type: \(contentType)\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n".utf8)
    }
}
