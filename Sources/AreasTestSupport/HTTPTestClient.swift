import AreasSystem
import Glibc

/// A raw HTTP/1.1 client for tests and benchmarks: sends exactly the bytes it is given (so
/// hostile requests can be written by hand) and reads answers framed by `Content-Length`.
package final class HTTPTestClient {
    package struct Response: Sendable {
        package var status: Int
        /// Field names lowercased, in order.
        package var fields: [(name: String, value: String)]
        package var body: [UInt8]

        package func field(_ name: String) -> String? { fields.first { $0.name == name }?.value }
        package var text: String { String(decoding: body, as: UTF8.self) }
    }

    package struct Closed: Error {}

    /// The daemon at `address` let a whole request go unanswered before (`SilentPeers`).
    package struct Silent: Error, CustomStringConvertible {
        package var address: String
        package var description: String { "not asked: the daemon at \(address) let a request go unanswered before" }
    }

    package let descriptor: FileDescriptor
    private let address: String
    private let timeoutSeconds: Double
    private var buffer: [UInt8] = []

    /// Connects to "HOST:PORT", or to a Unix socket when `address` starts with "/".
    package init(_ address: String, timeoutSeconds: Double = 10) throws {
        if SilentPeers.contains(address) { throw Silent(address: address) }
        self.address = address
        self.timeoutSeconds = timeoutSeconds
        descriptor = address.hasPrefix("/")
            ? try Sockets.connectUnix(path: address, timeoutSeconds: timeoutSeconds)
            : try Sockets.connectTCP(address, timeoutSeconds: timeoutSeconds)
    }

    deinit { descriptor.close() }

    package func send(_ bytes: [UInt8]) throws { try descriptor.writeAll(bytes) }
    package func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// `GET target` with a Host field and any `fields` given.
    package func get(_ target: String, method: String = "GET", fields: [String] = []) throws -> Response {
        try send((["\(method) \(target) HTTP/1.1", "Host: areas.test"] + fields).joined(separator: "\r\n") + "\r\n\r\n")
        do {
            return try response(bodyExpected: method != "HEAD")
        } catch let error as SystemError where error.errno == EAGAIN {
            // A whole, well-formed request unanswered: no later one will be.
            SilentPeers.unanswered(address, within: timeoutSeconds)
            throw error
        }
    }

    /// Reads one answer; a HEAD answer, 204 and 304 carry no body whatever their fields say.
    package func response(bodyExpected: Bool = true) throws -> Response {
        var headEnd: Int?
        while headEnd == nil {
            headEnd = Self.find([13, 10, 13, 10], in: buffer)
            if headEnd == nil { try fill() }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        buffer.removeSubrange(..<(headEnd! + 4))
        let statusParts = head[0].split(separator: " ")
        let status = statusParts.count > 1 ? Int(statusParts[1]) ?? 0 : 0
        let fields = head.dropFirst().map { line -> (String, String) in
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            return (line[..<colon].lowercased(), String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
        var response = Response(status: status, fields: fields, body: [])
        guard bodyExpected && status != 204 && status != 304 else { return response }
        let length = Int(response.field("content-length") ?? "") ?? 0
        while buffer.count < length { try fill() }
        response.body = Array(buffer[..<length])
        buffer.removeSubrange(..<length)
        return response
    }

    /// True when the server has closed the connection (reads end of stream) within the time-out.
    package func isClosedByServer() -> Bool {
        while true {
            do { try fill() } catch is Closed { return true } catch { return false }
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) }
        guard count > 0 else { throw Closed() }
        buffer.append(contentsOf: chunk[..<count])
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] && Array(haystack[i..<(i + needle.count)]) == needle {
            return i
        }
        return nil
    }
}
