import AreasSystem
import Glibc

/// A connection to areasd: send request lines, read response lines.
public final class AreasClient {
    public let path: String
    private let fd: FileDescriptor
    private var buffer: [UInt8] = []

    /// Why the daemon could not be reached or stopped answering.
    public struct Unreachable: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot connect to areasd at \(path): \(reason) (is areasd running?)" }
    }

    public init(path: String) throws(Unreachable) {
        self.path = path
        do {
            fd = try Sockets.connectUnix(path: path)
        } catch let error as SystemError {
            throw Unreachable(path: path, reason: error.reason)
        } catch {
            throw Unreachable(path: path, reason: "\(error)")
        }
    }

    deinit { fd.close() }

    /// Sends one request line and returns the response line (without its newline).
    public func send(_ line: [UInt8]) throws(Unreachable) -> [UInt8] {
        do {
            try fd.writeAll(line + [UInt8(ascii: "\n")])
        } catch {
            throw Unreachable(path: path, reason: error.reason)
        }
        return try readLine()
    }

    public func readLine() throws(Unreachable) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) }
            } catch {
                throw Unreachable(path: path, reason: (error as? SystemError)?.reason ?? "\(error)")
            }
            if count == 0 { throw Unreachable(path: path, reason: "the connection closed before an answer") }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
}
