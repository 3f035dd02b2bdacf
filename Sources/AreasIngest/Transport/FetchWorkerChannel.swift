import AreasSystem
import Foundation

/// The frames the daemon and its fetch worker exchange over their socket: a 4-byte length
/// (little-endian) of what follows, a kind, a 4-byte request id, and the payload.
///
/// The daemon sends `request` (a ``FetchWorkerRequest`` in JSON), `verdict` (its judgement of
/// a body's opening: empty to go on, else the reason to refuse) and `cancel` (the body is no
/// longer wanted). The worker sends `opening` (a body's first bytes, to be judged), `data` (a
/// successful body's next bytes, as they arrive: the worker never holds a page whole), `done`
/// (the body of an answer that is not a success, then a ``FetchWorkerAnswer`` in JSON, then the
/// JSON's length in 4 bytes, so the body is taken where it lies) and `failed` (an
/// ``UpstreamError`` in JSON).
struct FetchWorkerChannel: Sendable {
    enum Kind: UInt8, Sendable {
        case request = 1, verdict, cancel, opening, data, done, failed
    }

    struct Frame {
        var kind: Kind
        var id: UInt32
        var payload: [UInt8]
    }

    /// The largest frame either side accepts: a page or file, and its head, fit well inside.
    static let largestFrame = 1 << 30

    let descriptor: FileDescriptor
    /// Frames from several tasks interleave only whole.
    private let sending = LockedValue(())

    init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }

    /// Sends one frame whose payload is `payload` followed by `trailer`.
    func send(_ kind: Kind, id: UInt32, _ payload: [UInt8] = [], trailer: [UInt8] = []) throws(SystemError) {
        var writer = ByteWriter()
        writer.append(UInt32(5 + payload.count + trailer.count))
        writer.append(kind.rawValue)
        writer.append(id)
        let head = writer.bytes
        let result: Result<Void, SystemError> = sending.withLock { _ in
            head.withUnsafeBytes { head in
                payload.withUnsafeBytes { body in
                    trailer.withUnsafeBytes { trailer in
                        do throws(SystemError) {
                            try descriptor.writeAll(head, body)
                            return .success(try descriptor.writeAll(trailer))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
            }
        }
        try result.get()
    }

    /// Why a frame could not be read.
    enum ReadError: Error, CustomStringConvertible {
        case system(SystemError)
        case malformed(String)

        var description: String {
            switch self {
            case .system(let error): return "\(error)"
            case .malformed(let why): return why
            }
        }
    }

    /// The next frame, or nil when the other side closed the channel between frames.
    func receive() throws(ReadError) -> Frame? {
        guard let head = try read(9, endAllowed: true) else { return nil }
        let (length, code, id) = head.withUnsafeBytes { bytes in
            var reader = ByteReader(bytes: bytes)
            return (Int((try? reader.read(UInt32.self)) ?? 0), (try? reader.read(UInt8.self)) ?? 0, (try? reader.read(UInt32.self)) ?? 0)
        }
        guard length >= 5, length - 5 <= Self.largestFrame else { throw .malformed("a frame of \(length) bytes") }
        guard let kind = Kind(rawValue: code) else { throw .malformed("a frame of unknown kind \(code)") }
        let payload = try read(length - 5, endAllowed: false) ?? []
        return Frame(kind: kind, id: id, payload: payload)
    }

    private func read(_ count: Int, endAllowed: Bool) throws(ReadError) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result: Result<Int, SystemError> = bytes.withUnsafeMutableBytes { buffer in
                do throws(SystemError) { return .success(try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))) } catch { return .failure(error) }
            }
            let n: Int
            switch result {
            case .success(let read): n = read
            case .failure(let error): throw .system(error)
            }
            if n == 0 {
                if filled == 0 && endAllowed { return nil }
                throw .malformed("the channel closed within a frame")
            }
            filled += n
        }
        return bytes
    }
}

/// One GET the daemon asks its fetch worker to make.
struct FetchWorkerRequest: Codable, Sendable {
    var url: String
    var headers: [[String]]
    var timeoutSeconds: Double
    var maxBytes: Int
    /// How many of the body's first bytes the daemon judges before the rest is fetched.
    var openingBytes: Int?
}

/// The head of a finished GET.
struct FetchWorkerAnswer: Codable, Sendable {
    var status: Int
    var headers: [String: String]
}
