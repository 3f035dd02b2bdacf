import AreasSystem
import Glibc

/// A connection to areasd: send request lines, read response lines, each answer whole within
/// a time-out.
package final class AreasClient {
    package let path: String
    private let fd: FileDescriptor
    private var buffer: [UInt8] = []
    private let timeoutSeconds: Double?

    /// Why the daemon could not be reached or did not answer.
    package struct Unreachable: Error, CustomStringConvertible {
        package enum Kind: Sendable { case cannotConnect, permissionDenied, timedOut, closed }
        package var path: String
        package var reason: String
        package var kind: Kind = .cannotConnect

        package var description: String {
            switch kind {
            case .cannotConnect: return "cannot connect to areasd at \(path): \(reason) (is areasd running?)"
            case .permissionDenied: return "permission denied connecting to areasd at \(path): \(reason)"
            case .timedOut: return "areasd at \(path) did not answer within \(reason) (a stopped or overloaded daemon; --timeout SECONDS waits longer)"
            case .closed: return "areasd at \(path) closed the connection before answering"
            }
        }
    }

    /// Connects to the daemon's socket; with `timeoutSeconds`, connecting, sending and each
    /// answer give up after that long (an answer's deadline counts from its question, however
    /// slowly its bytes come).
    package init(path: String, timeoutSeconds: Double? = nil) throws(Unreachable) {
        self.path = path
        self.timeoutSeconds = timeoutSeconds
        do {
            fd = try Sockets.connectUnix(path: path, timeoutSeconds: timeoutSeconds)
        } catch let error as SystemError where error.errno == EAGAIN {
            throw Unreachable(path: path, reason: Self.seconds(timeoutSeconds), kind: .timedOut)
        } catch let error as SystemError where error.errno == EACCES {
            throw Unreachable(path: path, reason: Self.whoMayConnect(path), kind: .permissionDenied)
        } catch let error as SystemError {
            throw Unreachable(path: path, reason: error.reason)
        } catch {
            throw Unreachable(path: path, reason: "\(error)")
        }
    }

    deinit { fd.close() }

    /// Sends one request line and returns the response line (without its newline). When the
    /// daemon closed the connection before the request went out, the line it sent first (a
    /// `busy` answer) is still returned.
    package func send(_ line: [UInt8]) throws(Unreachable) -> [UInt8] {
        let deadline = answerDeadline()
        do {
            try fd.writeAll(line + [UInt8(ascii: "\n")])
        } catch {
            if error.errno == EAGAIN { throw Unreachable(path: path, reason: Self.seconds(timeoutSeconds), kind: .timedOut) }
            if let answer = try? readLine(by: deadline) { return answer }
            // The daemon had been reached: it went away, it was not missing.
            if error.errno == EPIPE || error.errno == ECONNRESET { throw Unreachable(path: path, reason: error.reason, kind: .closed) }
            throw Unreachable(path: path, reason: error.reason)
        }
        return try readLine(by: deadline)
    }

    /// The next response line, whole within the time-out from now.
    package func readLine() throws(Unreachable) -> [UInt8] { try readLine(by: answerDeadline()) }

    /// When an answer asked for now must have come whole (`MonotonicClock.seconds`), or nil
    /// without a time-out.
    private func answerDeadline() -> Double? { timeoutSeconds.map { MonotonicClock.seconds + $0 } }

    private func readLine(by deadline: Double?) throws(Unreachable) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { buffer in
                    if let deadline { try fd.read(into: buffer, by: deadline) } else { try fd.read(into: buffer) }
                }
            } catch let error as SystemError where error.errno == EAGAIN {
                throw Unreachable(path: path, reason: Self.seconds(timeoutSeconds), kind: .timedOut)
            } catch {
                throw Unreachable(path: path, reason: (error as? SystemError)?.reason ?? "\(error)")
            }
            if count == 0 { throw Unreachable(path: path, reason: "", kind: .closed) }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// Who may connect to the socket at `path`, and how to become one of them.
    static func whoMayConnect(_ path: String) -> String {
        guard let status = try? FileSystem.status(of: path) else { return "its folder may not be entered by this user" }
        guard let group = FileSystem.groupName(status.group) else { return "only its owner and group \(status.group) may connect" }
        return "only its owner and members of group \(group) may connect (add this user with: sudo usermod -aG \(group) $USER, then log in again)"
    }

    private static func seconds(_ value: Double?) -> String {
        guard let value else { return "the time allowed" }
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
