import AreasProtocol
import AreasSystem
import Glibc

/// One question over areasd's HTTP front door (`areasctl --url http://HOST:PORT`), for a daemon
/// on another host: the bodies are the socket's answers byte for byte, so what is printed is
/// the same. Plain HTTP to areasd's own `http.listen`; TLS is the proxy's job in front of it.
package enum HTTPQuestion {
    package struct Address: Sendable, Equatable {
        package var host: String
        package var port: Int
        /// A path the proxy serves areasd under (`/areas`), empty for areasd itself.
        package var base: String
        package var text: String { "http://\(host):\(port)\(base)" }
    }

    /// `http://HOST[:PORT][/BASE]`.
    package static func address(_ url: String) throws(UsageError) -> Address {
        if url.hasPrefix("https://") {
            throw .wrongArguments("--url \(url): areasctl speaks plain HTTP to areasd's http.listen; TLS belongs to the proxy in front (ask it with curl)")
        }
        guard url.hasPrefix("http://") else { throw .invalidValue("--url (http://HOST:PORT)", url) }
        let rest = url.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" }
        var base = String(rest.dropFirst(authority.count))
        while base.hasSuffix("/") { base.removeLast() }
        let host: Substring, portText: Substring?
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            portText = after.hasPrefix(":") ? after.dropFirst() : nil
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
            portText = nil
        }
        guard !host.isEmpty, let port = portText.map({ Int($0) }) ?? 80, (1...65_535).contains(port) else {
            throw .invalidValue("--url (http://HOST:PORT)", url)
        }
        return Address(host: String(host), port: port, base: base)
    }

    /// The largest answer read: the daemon's own `maxOutputBytes` default.
    static let largestAnswer = 256 << 20

    /// Asks `request` and returns its answer: the JSON body, which is the socket's answer line
    /// byte for byte, or `/metrics`' exposition text as it came.
    package static func ask(_ request: Request, at address: Address, timeoutSeconds: Double) throws(AreasClient.Unreachable) -> DaemonAnswer {
        func unreachable(_ reason: String, _ kind: AreasClient.Unreachable.Kind = .cannotConnect) -> AreasClient.Unreachable {
            AreasClient.Unreachable(path: address.text, reason: reason, kind: kind)
        }
        guard let target = request.httpTarget else {
            throw unreachable("\(request.operation.name) is asked on the socket only: the HTTP front door is read-only")
        }
        // One deadline for the whole question: connecting, sending, and every byte of the answer.
        let deadline = MonotonicClock.seconds + timeoutSeconds
        let connection: FileDescriptor
        do {
            connection = try Sockets.connectTCP(address.host.contains(":") ? "[\(address.host)]:\(address.port)" : "\(address.host):\(address.port)",
                                                timeoutSeconds: timeoutSeconds)
        } catch let error as SystemError where error.errno == EAGAIN {
            throw unreachable("\(Int(timeoutSeconds)) s", .timedOut)
        } catch {
            throw unreachable((error as? SystemError)?.reason ?? "\(error)")
        }
        defer { connection.close() }
        let head = "GET \(address.base)\(target) HTTP/1.1\r\nHost: \(address.host)\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
        var received: [UInt8] = []
        do {
            try connection.writeAll(Array(head.utf8))
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = try chunk.withUnsafeMutableBytes { try connection.read(into: $0, by: deadline) }
                if count == 0 { break }
                received += chunk[0..<count]
                guard received.count <= largestAnswer else { throw unreachable("an answer larger than \(largestAnswer >> 20) MiB") }
            }
        } catch let error as AreasClient.Unreachable {
            throw error
        } catch let error as SystemError {
            throw error.errno == EAGAIN ? unreachable("\(Int(timeoutSeconds)) s", .timedOut) : unreachable(error.reason)
        } catch {
            throw unreachable("\(error)")
        }
        guard let end = received.firstRange(of: [13, 10, 13, 10]) else { throw unreachable("", .closed) }
        let fields = String(decoding: received[..<end.lowerBound], as: UTF8.self).lowercased()
        var body = Array(received[end.upperBound...])
        if let length = fields.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") })
            .flatMap({ Int($0.dropFirst("content-length:".count).filter { $0 != " " && $0 != "\t" }) }), length <= body.count {
            body = Array(body.prefix(length))
        }
        while body.last == 10 || body.last == 13 { body.removeLast() }
        return request.operation == .metrics ? .metrics(String(decoding: body, as: UTF8.self) + "\n") : .line(body)
    }
}

/// What the daemon answered one question: the wire protocol's answer line (without its
/// newline), or, from HTTP's `/metrics`, the exposition text as it came.
package enum DaemonAnswer: Sendable, Equatable {
    case line([UInt8])
    case metrics(String)
}
