import AreasSystem

/// Request lines read from a stream (`areasctl pipe`'s standard input), none held longer than
/// `limit` bytes: a longer line is read to its end and dropped, so a line of hundreds of
/// megabytes costs the client no more memory than a short one.
struct RequestLines {
    enum Line: Equatable {
        /// A line's bytes, without its newline (or `\r\n`).
        case text([UInt8])
        /// A line longer than the limit, dropped.
        case tooLong
    }

    private let input: FileDescriptor
    private let limit: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false

    init(_ input: FileDescriptor, limit: Int) {
        self.input = input
        self.limit = limit
    }

    /// The next line, or nil at the end of the stream.
    mutating func next() throws(SystemError) -> Line? {
        var dropping = false
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = Array(buffer[start..<end])
                start = newline + 1
                if start >= 1 << 16 {
                    buffer.removeSubrange(..<start)
                    start = 0
                }
                return dropping || line.count > limit ? .tooLong : .text(line)
            }
            if buffer.count - start > limit {
                // Past the limit without a newline: what came so far is dropped, and so is the
                // rest of the line as it comes.
                dropping = true
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            if ended {
                defer { buffer = []; start = 0 }
                if dropping { return .tooLong }
                return start < buffer.count ? .text(Array(buffer[start...])) : nil
            }
            let read: Result<Int, SystemError> = chunk.withUnsafeMutableBytes { space in
                do throws(SystemError) { return .success(try input.read(into: space)) } catch { return .failure(error) }
            }
            let count = try read.get()
            if count == 0 { ended = true } else { buffer += chunk[0..<count] }
        }
    }
}
