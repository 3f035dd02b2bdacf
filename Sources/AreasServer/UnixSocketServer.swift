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
        /// Answers held for clients that read them slowly, all connections together: past it a
        /// connection's answer is dropped and the connection closed, so clients that never read
        /// cannot pin memory.
        public var maxOutputBytes = 256 << 20
        public init() {}
    }

    private let listener: FileDescriptor
    private let service: AreaService
    /// Replaced whole on SIGHUP; each connection reads it once per batch.
    private let limitsInForce: LockedValue<Limits>
    private let active = LockedValue<Set<Int32>>([])
    /// The most connections open since memory was last given back.
    private let peakConnections = Atomic<Int>(0)
    /// Requests are worked on by at most two connections per processor at a time: a thousand
    /// clients asking at once then hold a thousand small buffers, not a thousand half-built
    /// large answers, and each answer is done sooner. (One per processor made busy clients
    /// wait for turns more often, for no saving that matters.)
    private let working = DispatchSemaphore(value: 2 * Swift.max(2, ProcessInfo.processInfo.activeProcessorCount))
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchGroup()

    public init(listener: FileDescriptor, service: AreaService, limits: Limits) {
        self.listener = listener
        self.service = service
        self.limitsInForce = LockedValue(limits)
    }

    public var connectionCount: Int { active.withLock { $0.count } }

    /// Bytes of answers waiting for clients to read them.
    public var waitingOutputBytes: Int { service.counters.waitingOutputBytes.current }

    public var limits: Limits { limitsInForce.withLock { $0 } }

    /// New limits for new requests; connections already open keep theirs until their next read.
    public func update(_ limits: Limits) {
        limitsInForce.withLock { $0 = limits }
    }

    /// Starts accepting on a thread of its own and returns.
    public func start() throws(SystemError) {
        Signals.ignore(SIGPIPE)
        finished.enter()
        do {
            try SystemThread.start(stackSize: 256 * 1024) { [self] in
                acceptLoop()
                finished.leave()
            }
        } catch {
            finished.leave()
            throw error
        }
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

    /// Writes what `writer` holds; false when the peer is gone, or when holding the answer for
    /// it would take the answers waiting for readers past `maxOutputBytes` (logged; the caller
    /// closes the connection).
    private func send(_ writer: borrowing JSONWriter, to connection: FileDescriptor, peer: UInt32?, limits: Limits) -> Bool {
        let bytes = writer.count
        let waitingOutput = service.counters.waitingOutputBytes
        let waiting = waitingOutput.add(bytes)
        defer { waitingOutput.add(-bytes) }
        if waiting > limits.maxOutputBytes {
            service.counters.closedForOutput.add(1)
            service.logger.warning("closed a connection (uid \(peer.map(String.init) ?? "unknown")): its answer of \(bytes) bytes would take answers waiting for slow readers to \(waiting) bytes, past maxOutputBytes (\(limits.maxOutputBytes))")
            Self.sayAndClose(RequestError(.busy, "too many answers are waiting for clients to read them; this connection is closed, try again"), on: connection)
            return false
        }
        return writer.withBytes { (try? connection.writeAll($0)) != nil }
    }

    /// Sends one error line, if the socket takes it now, before the caller closes it.
    private static func sayAndClose(_ error: RequestError, on connection: FileDescriptor) {
        var writer = JSONWriter(capacity: 256)
        Answers.error(error, into: &writer)
        writer.newline()
        Sockets.sendWithoutWaiting(connection, writer.withBytes { Array($0) })
    }

    private func acceptLoop() {
        var refusedInBurst = 0
        var threadFailures = 0
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
            let maxConnections = limits.maxConnections
            let admitted = active.withLock { fds -> Bool in
                guard fds.count < maxConnections else { return false }
                fds.insert(connection.rawValue)
                peakConnections.max(fds.count, ordering: .relaxed)
                service.counters.open.set(fds.count)
                return true
            }
            guard admitted else {
                service.counters.refused.add(1)
                Self.sayAndClose(RequestError(.busy, "too many connections (limit \(maxConnections)); try again"), on: connection)
                connection.close()
                continue
            }
            service.counters.accepted.add(1)
            finished.enter()
            do {
                try SystemThread.start(stackSize: Self.stackBytes) { [self] in
                    serve(connection)
                    finish(connection)
                }
                if threadFailures > 0 {
                    service.logger.warning("threads start again after \(threadFailures) connections were refused")
                    threadFailures = 0
                }
            } catch {
                // Out of threads (a task limit, memory): refuse this client and free its slot.
                service.counters.refused.add(1)
                if threadFailures == 0 { service.logger.error("cannot start a thread for a connection (\(error)); refusing connections until one starts") }
                threadFailures += 1
                Self.sayAndClose(RequestError(.busy, "the server cannot take another connection now; try again"), on: connection)
                finish(connection)
            }
        }
    }

    private func finish(_ connection: FileDescriptor) {
        let remaining = active.withLock { fds in
            fds.remove(connection.rawValue)
            service.counters.open.set(fds.count)
            return fds.count
        }
        connection.close()
        // Many connections leaving free their buffers into the allocator's per-thread pools,
        // which keep them: hand the pages back once most of a crowd has gone.
        let peak = peakConnections.load(ordering: .relaxed)
        if peak >= 64 && remaining <= peak / 4 && peakConnections.compareExchange(expected: peak, desired: remaining, ordering: .relaxed).exchanged {
            FreeMemory.release()
        }
        finished.leave()
    }

    static let stackBytes = 512 * 1024

    /// How often a batch of requests checks, between answers, that its client is still there.
    static let presenceCheckMicroseconds = 50_000

    /// Answers waiting in a connection's buffer are written once they reach this size.
    static let flushBytes = 256 * 1024
    /// A connection's buffer grown past this by a large answer is given back afterwards: a
    /// thousand idle connections must not each keep the largest answer they were ever sent.
    static let retainedBytes = flushBytes

    private func serve(_ connection: FileDescriptor) {
        var limits = self.limits
        try? connection.setTimeout(SO_RCVTIMEO, seconds: limits.idleTimeoutSeconds)
        try? connection.setTimeout(SO_SNDTIMEO, seconds: limits.idleTimeoutSeconds)
        let peer = Sockets.peerUID(connection)
        var pending: [UInt8] = []
        pending.reserveCapacity(64 * 1024)
        // Not zeroed: an idle connection's pages are touched only by what it sends.
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { chunk.deallocate() }
        var writer = JSONWriter(capacity: 64 * 1024)
        var view = service.view()
        view.whileWaiting = { [working] wait in
            working.signal()
            wait()
            working.wait()
        }
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
                count = try connection.read(into: chunk)
            } catch where error.errno == EAGAIN && lineStartedAt != nil {
                continue  // the request time-out, checked at the top
            } catch {
                return  // idle time-out, reset, or shutdown
            }
            if count == 0 { return }
            limits = self.limits
            if pending.isEmpty { lineStartedAt = MonotonicClock.microseconds }
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))

            writer.reset()
            service.update(&view)
            var tally = RequestTally()
            var consumed = 0
            var tooLarge = false
            var failed = false
            var presenceCheckedAt = MonotonicClock.microseconds
            var holdingTurn = true
            if working.wait(timeout: .now()) == .timedOut {
                working.wait()
                // Its turn came after others': the client may have given up meanwhile.
                if Sockets.peerHasHungUp(connection) {
                    working.signal()
                    return
                }
            }
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
                        service.respond(to: UnsafeBufferPointer(rebasing: buffer[start..<end]), peerUID: peer, view: view, into: &writer, tally: &tally)
                    }
                    start = newline + 1
                    // Large answers go out as they are made: a batch of them must not pile
                    // up tens of megabytes in one buffer.
                    if writer.count >= Self.flushBytes {
                        // A slow reader must not hold a processor's turn while it waits.
                        working.signal()
                        guard send(writer, to: connection, peer: peer, limits: limits) else {
                            holdingTurn = false
                            failed = true
                            break
                        }
                        writer.reset()
                        working.wait()
                    }
                    // A client that sent a long batch and left gets no more work done for it.
                    let now = MonotonicClock.microseconds
                    if now - presenceCheckedAt >= Self.presenceCheckMicroseconds {
                        presenceCheckedAt = now
                        if Sockets.peerHasHungUp(connection) {
                            let unanswered = buffer[start...].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                            service.logger.info("stopped answering a connection (uid \(peer.map(String.init) ?? "unknown")) whose client has gone; \(unanswered) requests left unanswered")
                            failed = true
                            break
                        }
                    }
                }
                consumed = start
                if !tooLarge && buffer.count - start > limits.maxLineBytes { tooLarge = true }
            }
            if holdingTurn { working.signal() }
            service.count(tally)
            if failed { return }
            if tooLarge {
                Answers.error(RequestError(.tooLarge, "request line longer than \(limits.maxLineBytes) bytes; closing the connection"), into: &writer)
                writer.newline()
            }
            if !writer.isEmpty {
                if !send(writer, to: connection, peer: peer, limits: limits) { return }
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
