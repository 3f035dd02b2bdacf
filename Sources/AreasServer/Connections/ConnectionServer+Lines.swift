import AreasProtocol
import AreasSystem
import Foundation

/// The line protocol on a connection: JSON request lines in, JSON answer lines out.
///
/// Each connection reads in large chunks, answers every complete line in the chunk into one
/// buffer, and writes it back in one call: pipelined requests cost one read and one write per
/// batch, not per request.
extension ConnectionServer {
    func serveLines(_ connection: FileDescriptor) {
        var limits = self.limits
        var reader = ConnectionReader(connection, limits: limits)
        let peer = Sockets.peerUID(connection)
        var pending: [UInt8] = []
        pending.reserveCapacity(64 * 1024)
        // Not zeroed: an idle connection's pages are touched only by what it sends.
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { chunk.deallocate() }
        var writer = JSONWriter(capacity: 64 * 1024)
        var view = connectionView()
        while true {
            let count: Int
            switch reader.read(into: chunk, limits: limits) {
            case .bytes(let read): count = read
            case .closed: return
            case .requestTimedOut:
                service.logger.info("closed a connection (uid \(peer.map(String.init) ?? "unknown")) whose request line was not complete \(limits.requestTimeoutSeconds) s after it began")
                return
            }
            limits = self.limits
            if pending.isEmpty { reader.requestStartedAt = MonotonicClock.microseconds }
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))

            writer.reset()
            service.update(&view)
            var tally = RequestTally()
            var consumed = 0
            var tooLarge = false
            var failed = false
            var presenceCheckedAt = MonotonicClock.microseconds
            var holdingTurn = true
            var abandoned = false
            guard takeTurn(connection) else { return }
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
                    // A stop whose time is up: the answers made go out whole, the rest is left.
                    if abandoning.load(ordering: .relaxed) {
                        abandoned = true
                        break
                    }
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
                Answers.error(.lineTooLong(limits.maxLineBytes, "closing the connection"), into: &writer)
                writer.newline()
            }
            if !writer.isEmpty {
                if !send(writer, to: connection, peer: peer, limits: limits) { return }
            }
            if tooLarge { return }
            if abandoned {
                // What the client sent and will get no answer to is read and dropped (the stop
                // shut reading, so this ends when the socket's queue is empty): closed with
                // requests unread, the connection would end in a reset, not at the answer's end.
                while case .bytes = reader.read(into: chunk, limits: limits) {}
                return
            }
            pending.removeSubrange(0..<consumed)
            // A line still unfinished began in the last chunk read when this one consumed lines.
            if pending.isEmpty { reader.requestStartedAt = nil } else if consumed > 0 { reader.requestStartedAt = MonotonicClock.microseconds }
            // One huge answer should not pin its buffer for the life of the connection.
            if writer.capacity > Self.retainedBytes { writer = JSONWriter(capacity: 64 * 1024) }
        }
    }
}
