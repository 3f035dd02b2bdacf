import AreasProtocol
import AreasSystem
import Foundation
import Glibc
import Synchronization

/// Serves the line protocol on a listening Unix socket: one thread per connection, so a client
/// that stops reading or sends half a line holds only its own thread.
///
/// Each connection reads in large chunks, answers every complete line in the chunk into one
/// buffer, and writes it back in one call: pipelined requests cost one read and one write per
/// batch, not per request.
public final class UnixSocketServer: Sendable {
    public struct Limits: Sendable {
        public var maxLineBytes = 64 * 1024
        public var maxConnections = 1024
        public var idleTimeoutSeconds = 300.0
        /// A request line must be complete this long after its first byte: a client that
        /// trickles a byte at a time would otherwise hold its slot for ever.
        public var requestTimeoutSeconds = 10.0
        public init() {}
    }

    private let listener: FileDescriptor
    private let service: AreaService
    private let limits: Limits
    private let active = LockedValue<Set<Int32>>([])
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchGroup()

    public init(listener: FileDescriptor, service: AreaService, limits: Limits) {
        self.listener = listener
        self.service = service
        self.limits = limits
    }

    public var connectionCount: Int { active.withLock { $0.count } }

    /// Starts accepting on a thread of its own and returns.
    public func start() {
        Signals.ignore(SIGPIPE)
        finished.enter()
        let thread = Thread { [self] in
            acceptLoop()
            finished.leave()
        }
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// Stops accepting, lets every connection answer what it has already read, and waits for
    /// them up to `timeout` seconds. Returns true when all finished in time.
    @discardableResult
    public func stop(timeout: Double) -> Bool {
        guard !stopping.exchange(true, ordering: .relaxed) else { return true }
        _ = shutdown(listener.rawValue, Int32(SHUT_RDWR))
        // Wake readers: each answers what it holds, then sees end of input.
        active.withLock { fds in
            for fd in fds { _ = shutdown(fd, Int32(SHUT_RD)) }
        }
        let inTime = finished.wait(timeout: .now() + timeout) == .success
        if !inTime {
            active.withLock { fds in
                for fd in fds { _ = shutdown(fd, Int32(SHUT_RDWR)) }
            }
        }
        listener.close()
        return inTime
    }

    /// Writes what `writer` holds; false when the peer is gone.
    private static func send(_ writer: borrowing JSONWriter, to connection: FileDescriptor) -> Bool {
        writer.withBytes { (try? connection.writeAll($0)) != nil }
    }

    private func acceptLoop() {
        var refusedInBurst = 0
        while !stopping.load(ordering: .relaxed) {
            let connection: FileDescriptor
            do {
                connection = try Sockets.accept(listener)
            } catch {
                if stopping.load(ordering: .relaxed) { return }
                if error.errno == EMFILE || error.errno == ENFILE {
                    // Logged once per burst, not once per try.
                    if refusedInBurst == 0 { service.logger.error("accept: \(error); waiting before accepting more") }
                    refusedInBurst += 1
                    usleep(100_000)
                }
                continue
            }
            if refusedInBurst > 0 {
                service.logger.warning("accept works again after \(refusedInBurst) tries without a descriptor")
                refusedInBurst = 0
            }
            let admitted = active.withLock { fds -> Bool in
                guard fds.count < limits.maxConnections else { return false }
                fds.insert(connection.rawValue)
                return true
            }
            guard admitted else {
                var writer = JSONWriter(capacity: 128)
                Answers.error(RequestError(.busy, "too many connections (limit \(limits.maxConnections)); try again"), into: &writer)
                writer.newline()
                _ = Self.send(writer, to: connection)
                connection.close()
                continue
            }
            finished.enter()
            let thread = Thread { [self] in
                serve(connection)
                active.withLock { _ = $0.remove(connection.rawValue) }
                connection.close()
                finished.leave()
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
    }

    /// Answers waiting in a connection's buffer are written once they reach this size.
    static let flushBytes = 256 * 1024
    /// A connection's buffer grown past this by one large answer is given back afterwards.
    static let retainedBytes = 2 * 1024 * 1024

    private func serve(_ connection: FileDescriptor) {
        try? connection.setTimeout(SO_RCVTIMEO, seconds: limits.idleTimeoutSeconds)
        try? connection.setTimeout(SO_SNDTIMEO, seconds: limits.idleTimeoutSeconds)
        let peer = Sockets.peerUID(connection)
        var pending: [UInt8] = []
        pending.reserveCapacity(64 * 1024)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var writer = JSONWriter(capacity: 64 * 1024)
        var view = service.view()
        // When the first byte of a line still unfinished arrived (monotonic µs), and the
        // receive time-out in force: the idle one between requests, what is left of the
        // request time-out inside one.
        var lineStartedAt: Int?
        var receiveTimeout = limits.idleTimeoutSeconds
        while true {
            let wanted: Double
            if let lineStartedAt {
                wanted = limits.requestTimeoutSeconds - Double(MonotonicClock.microseconds - lineStartedAt) / 1e6
                if wanted <= 0 {
                    service.logger.info("closed a connection (uid \(peer.map(String.init) ?? "unknown")) whose request line was not complete \(limits.requestTimeoutSeconds) s after it began")
                    return
                }
            } else {
                wanted = limits.idleTimeoutSeconds
            }
            if wanted != receiveTimeout {
                try? connection.setTimeout(SO_RCVTIMEO, seconds: wanted)
                receiveTimeout = wanted
            }
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try connection.read(into: $0) }
            } catch let error as SystemError where error.errno == EAGAIN && lineStartedAt != nil {
                continue  // the request time-out, checked at the top
            } catch {
                return  // idle time-out, reset, or shutdown
            }
            if count == 0 { return }
            if pending.isEmpty { lineStartedAt = MonotonicClock.microseconds }
            pending.append(contentsOf: chunk[0..<count])

            writer.reset()
            service.update(&view)
            var answered = 0
            var consumed = 0
            var tooLarge = false
            var failed = false
            pending.withUnsafeBufferPointer { buffer in
                var start = 0
                while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    var end = newline
                    if end > start && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                    if newline - start > limits.maxLineBytes {
                        tooLarge = true
                        break
                    }
                    if end > start {
                        service.respond(to: UnsafeBufferPointer(rebasing: buffer[start..<end]), peerUID: peer, view: view, into: &writer)
                        answered += 1
                    }
                    start = newline + 1
                    // Large answers go out as they are made: a batch of them must not pile
                    // up tens of megabytes in one buffer.
                    if writer.count >= Self.flushBytes {
                        if !Self.send(writer, to: connection) {
                            failed = true
                            break
                        }
                        writer.reset()
                    }
                }
                consumed = start
                if !tooLarge && buffer.count - start > limits.maxLineBytes { tooLarge = true }
            }
            service.countQueries(answered)
            if failed { return }
            if tooLarge {
                Answers.error(RequestError(.tooLarge, "request line longer than \(limits.maxLineBytes) bytes; closing the connection"), into: &writer)
                writer.newline()
            }
            if !writer.isEmpty {
                if !Self.send(writer, to: connection) { return }
            }
            if tooLarge { return }
            pending.removeSubrange(0..<consumed)
            // A line still unfinished began in the last chunk read when this one consumed lines.
            if pending.isEmpty { lineStartedAt = nil } else if consumed > 0 { lineStartedAt = MonotonicClock.microseconds }
            // One huge answer should not pin its buffer for the life of the connection.
            if writer.capacity > Self.retainedBytes { writer = JSONWriter(capacity: 64 * 1024) }
        }
    }
}
