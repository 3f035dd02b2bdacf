import AreasSystem

/// Reads a connection with two clocks: the idle time-out between requests, and the request
/// time-out from a request's first byte to its end, so a client that trickles a byte at a time
/// cannot hold its slot for ever. Both front doors read through it.
struct ConnectionReader {
    enum Outcome {
        /// This many bytes were read into the chunk.
        case bytes(Int)
        /// The client closed, reset, or stayed idle past the idle time-out (or the server is
        /// stopping).
        case closed
        /// A request begun was not complete within the request time-out.
        case requestTimedOut
    }

    let connection: FileDescriptor
    /// When the first byte of the request still unfinished arrived (monotonic µs).
    var requestStartedAt: Int?
    private var receiveTimeout: Double

    init(_ connection: FileDescriptor, limits: ConnectionServer.Limits) {
        self.connection = connection
        receiveTimeout = limits.idleTimeoutSeconds
        try? connection.setTimeout(.receive, seconds: limits.idleTimeoutSeconds)
        try? connection.setTimeout(.send, seconds: limits.idleTimeoutSeconds)
    }

    mutating func read(into chunk: UnsafeMutableRawBufferPointer, limits: ConnectionServer.Limits) -> Outcome {
        while true {
            let wanted: Double
            if let requestStartedAt {
                wanted = limits.requestTimeoutSeconds - Double(MonotonicClock.microseconds - requestStartedAt) / 1e6
                if wanted <= 0 { return .requestTimedOut }
            } else {
                wanted = limits.idleTimeoutSeconds
            }
            if wanted != receiveTimeout {
                try? connection.setTimeout(.receive, seconds: wanted)
                receiveTimeout = wanted
            }
            do {
                let count = try connection.read(into: chunk)
                return count == 0 ? .closed : .bytes(count)
            } catch where error.isTimeout && requestStartedAt != nil {
                continue  // the request time-out, checked at the top
            } catch {
                return .closed  // idle time-out, reset, or shutdown
            }
        }
    }
}
