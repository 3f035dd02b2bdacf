import AreasProtocol
import AreasSystem
import Foundation
import Synchronization

/// Serves the daemon's front doors: the line protocol on its Unix socket and, when configured,
/// HTTP on a second Unix socket or a TCP port. One thread per connection, so a client that stops
/// reading or sends half a request holds only its own thread; connections of every front door
/// share one connection cap, one set of turns to work, one output limit and the same views of
/// the data.
package final class ConnectionServer: Sendable {
    /// How a listener's connections are spoken to.
    package enum FrontDoor: Sendable {
        case lines
        case http(HTTPFrontDoor)
    }

    /// A listening socket and the front door its connections get.
    package struct Listener: Sendable {
        package let descriptor: FileDescriptor
        package let frontDoor: FrontDoor
        package init(_ descriptor: FileDescriptor, _ frontDoor: FrontDoor) {
            self.descriptor = descriptor
            self.frontDoor = frontDoor
        }
    }

    package struct Limits: Sendable {
        package var maxLineBytes = Request.maxLineBytes
        package var maxConnections = 1024
        package var idleTimeoutSeconds = 300.0
        /// A request line must be complete this long after its first byte: a client that
        /// trickles a byte at a time would otherwise hold its slot for ever.
        package var requestTimeoutSeconds = 10.0
        /// Answers held for clients that read them slowly, all connections together: past it a
        /// connection's answer is dropped and the connection closed, so clients that never read
        /// cannot pin memory.
        package var maxOutputBytes = 256 << 20
        package init() {}
    }

    let listeners: [Listener]
    let service: AreaService
    /// Replaced whole on SIGHUP; each connection reads it once per batch.
    let limitsInForce: LockedValue<Limits>
    let active = LockedValue<Set<Int32>>([])
    /// The answers being written now, by connection: the bytes each holds until its reader
    /// takes them, so that past `maxOutputBytes` the largest can be dropped.
    let writing = LockedValue<[Int32: Int]>([:])
    /// How many of `active` are HTTP connections (changed only under `active`'s lock).
    let httpActive = Atomic<Int>(0)
    /// The most connections open since memory was last given back.
    let peakConnections = Atomic<Int>(0)
    /// Requests are worked on by at most two connections per processor at a time: a thousand
    /// clients asking at once then hold a thousand small buffers, not a thousand half-built
    /// large answers, and each answer is done sooner. (One per processor made busy clients
    /// wait for turns more often, for no saving that matters.)
    let working = DispatchSemaphore(value: 2 * Swift.max(2, ProcessInfo.processInfo.activeProcessorCount))
    let stopping = Atomic<Bool>(false)
    /// Set when a stop's time is up: connections answer no more of what they read, and close
    /// at the end of the answer they are writing, so no client gets an answer cut short.
    let abandoning = Atomic<Bool>(false)
    /// Wakes the accept loops at `stop`: a listener is only ever closed, never shut down, as
    /// one that systemd passed in must go on listening for the next start.
    let wakeup: Wakeup
    let finished = DispatchGroup()

    package init(listeners: [Listener], service: AreaService, limits: Limits) throws(SystemError) {
        self.listeners = listeners
        self.service = service
        self.limitsInForce = LockedValue(limits)
        wakeup = try Wakeup()
    }

    /// The line protocol alone, on `listener`.
    package convenience init(listener: FileDescriptor, service: AreaService, limits: Limits) throws(SystemError) {
        try self.init(listeners: [Listener(listener, .lines)], service: service, limits: limits)
    }

    package var connectionCount: Int { active.withLock { $0.count } }

    /// Bytes of answers waiting for clients to read them.
    package var waitingOutputBytes: Int { service.counters.waitingOutputBytes.current }

    package var limits: Limits { limitsInForce.withLock { $0 } }

    /// New limits for new requests; connections already open keep theirs until their next read.
    package func update(_ limits: Limits) {
        limitsInForce.withLock { $0 = limits }
    }

    /// Starts accepting, a thread per listener, and returns.
    package func start() throws(SystemError) {
        Signals.ignore(SIGPIPE)
        for listener in listeners {
            // Woken from `poll`, accepting never waits (`Sockets.accept(_:unless:)`).
            try listener.descriptor.setNonBlocking()
            finished.enter()
            do {
                try SystemThread.start(stackSize: 256 * 1024) { [self] in
                    acceptLoop(listener)
                    finished.leave()
                }
            } catch {
                finished.leave()
                throw error
            }
        }
    }

    /// Stops accepting, lets every connection answer what it has already read, and waits for
    /// them up to `timeout` seconds. Returns true when all finished in time.
    @discardableResult
    package func stop(timeout: Double) -> Bool {
        guard !stopping.exchange(true, ordering: .relaxed) else { return true }
        wakeup.wake()
        // Wake readers: each answers what it holds, then sees end of input.
        active.withLock { fds in
            for fd in fds { Sockets.shutdown(FileDescriptor(rawValue: fd), .reading) }
        }
        let inTime = finished.wait(timeout: .now() + timeout) == .success
        if !inTime {
            abandoning.store(true, ordering: .relaxed)
            // Only a connection still not done then (a client that stopped reading) is cut.
            if finished.wait(timeout: .now() + 5) != .success {
                active.withLock { fds in
                    for fd in fds { Sockets.shutdown(FileDescriptor(rawValue: fd), .both) }
                }
            }
        }
        // Closed, never shut down: a listener systemd passed in goes on listening for the next start.
        for listener in listeners { listener.descriptor.close() }
        return inTime
    }

    /// Writes what `writer` holds; false when the peer is gone, or when holding the answer for
    /// it would take the answers waiting for readers past `maxOutputBytes` (logged; the caller
    /// closes the connection).
    func send(_ writer: borrowing JSONWriter, to connection: FileDescriptor, peer: UInt32?, limits: Limits) -> Bool {
        writer.withBytes { send(head: UnsafeRawBufferPointer(start: nil, count: 0), body: UnsafeRawBufferPointer($0), to: connection, peer: peer, limits: limits, frontDoor: .lines) }
    }

    /// Writes `head` and `body` together; false when the peer is gone, or when it was dropped
    /// to keep the answers waiting for readers, all connections together, within
    /// `maxOutputBytes`. Past the budget the largest answer waiting is dropped (its connection
    /// shut down, so its writer gives up and closes it), when it is larger than this one; else
    /// this one is (logged, told `busy`; the caller closes the connection).
    func send(head: UnsafeRawBufferPointer, body: UnsafeRawBufferPointer, to connection: FileDescriptor, peer: UInt32?, limits: Limits, frontDoor: FrontDoor) -> Bool {
        let count = head.count + body.count
        let waitingOutput = service.counters.waitingOutputBytes
        let waiting = waitingOutput.add(count)
        defer { waitingOutput.add(-count) }
        if waiting > limits.maxOutputBytes {
            // The largest unread answer, if it is larger than this one, goes instead.
            let largest = writing.withLock { writing -> (fd: Int32, bytes: Int)? in
                guard let (fd, bytes) = writing.max(by: { $0.value < $1.value }), bytes > count else { return nil }
                writing[fd] = nil
                return (fd, bytes)
            }
            service.counters.closedForOutput.add(1)
            if let largest {
                service.logger.warning("dropped an unread answer of \(largest.bytes) bytes and closed its connection: answers waiting for slow readers would pass maxOutputBytes (\(limits.maxOutputBytes)) with \(count) more")
                Sockets.shutdown(FileDescriptor(rawValue: largest.fd), .both)
            } else {
                service.logger.warning("closed a connection (uid \(peer.map(String.init) ?? "unknown")): its answer of \(count) bytes would take answers waiting for slow readers to \(waiting) bytes, past maxOutputBytes (\(limits.maxOutputBytes))")
                Self.sayAndClose(RequestError(.busy, "too many answers are waiting for clients to read them; this connection is closed, try again"), on: connection, frontDoor: frontDoor)
                return false
            }
        }
        writing.withLock { $0[connection.rawValue, default: 0] += count }
        defer { writing.withLock { if let held = $0[connection.rawValue] { $0[connection.rawValue] = held > count ? held - count : nil } } }
        return (try? connection.writeAll(head, body)) != nil
    }

    /// Sends one error (a line, or an HTTP answer), if the socket takes it now, before the
    /// caller closes it.
    static func sayAndClose(_ error: RequestError, on connection: FileDescriptor, frontDoor: FrontDoor) {
        var writer = JSONWriter(capacity: 256)
        Answers.error(error, into: &writer)
        writer.newline()
        switch frontDoor {
        case .lines:
            Sockets.sendWithoutWaiting(connection, writer.withBytes { Array($0) })
        case .http(let http):
            Sockets.sendWithoutWaiting(connection, http.errorAnswer(error, body: writer.withBytes { Array($0) }))
        }
    }

    private func acceptLoop(_ listener: Listener) {
        var refusedInBurst = 0
        var threadFailures = 0
        while !stopping.load(ordering: .relaxed) {
            let connection: FileDescriptor
            do {
                guard let accepted = try Sockets.accept(listener.descriptor, unless: wakeup) else { return }
                connection = accepted
            } catch {
                if stopping.load(ordering: .relaxed) { return }
                if error.errno == EMFILE || error.errno == ENFILE {
                    // Logged once per burst, not once per try.
                    if refusedInBurst == 0 { service.logger.error("accept: \(error); waiting before accepting more") }
                    refusedInBurst += 1
                    SystemThread.sleep(seconds: 0.1)
                }
                continue
            }
            if refusedInBurst > 0 {
                service.logger.warning("accept works again after \(refusedInBurst) tries without a descriptor")
                refusedInBurst = 0
            }
            let maxConnections = limits.maxConnections
            let isHTTP: Bool
            if case .http = listener.frontDoor { isHTTP = true } else { isHTTP = false }
            // HTTP clients (keep-alive connections that idle) never take the last slots: those
            // stay for the line socket, where the operator asks health and refresh.
            let httpLimit = maxConnections - Self.lineReserve(maxConnections)
            let admitted = active.withLock { fds -> Bool in
                guard fds.count < maxConnections, !isHTTP || httpActive.load(ordering: .relaxed) < httpLimit else { return false }
                fds.insert(connection.rawValue)
                if isHTTP { httpActive.add(1, ordering: .relaxed) }
                peakConnections.max(fds.count, ordering: .relaxed)
                service.counters.open.set(fds.count)
                return true
            }
            guard admitted else {
                service.counters.refused.add(1)
                let limit = isHTTP ? "\(httpLimit) for HTTP, the rest kept for the line socket" : "\(maxConnections)"
                Self.sayAndClose(RequestError(.busy, "too many connections (limit \(limit)); try again"), on: connection, frontDoor: listener.frontDoor)
                connection.close()
                continue
            }
            service.counters.accepted.add(1)
            finished.enter()
            do {
                try SystemThread.start(stackSize: Self.stackBytes) { [self] in
                    switch listener.frontDoor {
                    case .lines: serveLines(connection)
                    case .http(let http): serveHTTP(connection, http)
                    }
                    finish(connection, http: isHTTP)
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
                Self.sayAndClose(RequestError(.busy, "the server cannot take another connection now; try again"), on: connection, frontDoor: listener.frontDoor)
                finish(connection, http: isHTTP)
            }
        }
    }

    /// Waits for a turn to work; false (holding no turn) when the client hung up meanwhile.
    func takeTurn(_ connection: FileDescriptor) -> Bool {
        guard working.wait(timeout: .now()) == .timedOut else { return true }
        working.wait()
        // Its turn came after others': the client may have given up meanwhile.
        if Sockets.peerHasHungUp(connection) {
            working.signal()
            return false
        }
        return true
    }

    /// A view of the service whose waits within a request give the turn up meanwhile.
    func connectionView() -> AreaService.View {
        var view = service.view()
        view.whileWaiting = { [working] wait in
            working.signal()
            wait()
            working.wait()
        }
        return view
    }

    /// Slots of `maxConnections` only the line socket may take: an eighth, from 1 to 64.
    static func lineReserve(_ maxConnections: Int) -> Int {
        Swift.min(64, Swift.max(1, maxConnections / 8))
    }

    private func finish(_ connection: FileDescriptor, http: Bool) {
        let remaining = active.withLock { fds in
            fds.remove(connection.rawValue)
            if http { httpActive.subtract(1, ordering: .relaxed) }
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
}
