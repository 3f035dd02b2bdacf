import CZlib

/// gzip files, inflated by the system's zlib.
enum Gunzip {
    /// Why bytes could not be inflated.
    struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        let description: String
    }

    /// The bytes `compressed` holds (one gzip member or several, one after another), refused
    /// past `limit` bytes inflated: a small file that inflates to gigabytes is no file to read.
    static func inflate(_ compressed: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        // 16 + the largest window: gzip's header and trailer, checked.
        guard inflateInit2_(&stream, 16 + MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(description: "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        output.reserveCapacity(Swift.min(limit, compressed.count * 4))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let failure: Failure? = compressed.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                guard output.count + produced <= limit else { return Failure(description: "inflates to more than \(limit) bytes") }
                output.append(contentsOf: chunk[..<produced])
                switch status {
                case Z_STREAM_END:
                    // Another member may follow, as `cat a.gz b.gz` makes.
                    guard stream.avail_in > 0 else { return nil }
                    guard inflateReset(&stream) == Z_OK else { return Failure(description: "zlib could not read the next gzip member") }
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return Failure(description: "the gzip data ends early (cut short)")
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    return Failure(description: "not gzip data zlib can read (\(message))")
                }
            }
        }
        if let failure { throw failure }
        return output
    }
}
