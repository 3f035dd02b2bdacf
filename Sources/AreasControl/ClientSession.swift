import AreasCore
import AreasProtocol
import AreasSystem
import Foundation

/// The client commands that are not one question: `pipe` (many request lines over one
/// connection, as `redis-cli --pipe` does) and `version` (the client's and the daemon's).
/// Each returns the exit status.
package enum ClientSession {
    package static func pipe(socketPath: String?, timeoutSeconds: Double) -> Int32 {
        let path = socketPath ?? DefaultPaths.clientSocket(environment: ProcessInfo.processInfo.environment)
        var answered = 0
        do throws(AreasClient.Unreachable) {
            let client = try AreasClient(path: path, timeoutSeconds: timeoutSeconds)
            var lines = RequestLines(FileDescriptor(rawValue: 0), limit: Request.maxLineBytes)
            var failed = false
            while true {
                let next: RequestLines.Line?
                do {
                    next = try lines.next()
                } catch {
                    StandardError.write("areasctl: cannot read standard input: \(error.reason)\n")
                    return 1
                }
                guard let line = next else { break }
                let answer: [UInt8]
                switch line {
                case .text(let bytes):
                    guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { continue }
                    answer = try client.send(bytes)
                case .tooLong:
                    // Refused here, in the daemon's words, rather than sent for the daemon to
                    // refuse by closing the connection on every line after it.
                    var writer = JSONWriter(capacity: 160)
                    RequestError.lineTooLong(Request.maxLineBytes, "not sent").write(into: &writer)
                    answer = writer.bytes
                }
                FileHandle.standardOutput.write(Data(answer + [0x0A]))
                answered += 1
                if case .object(let members)? = try? JSONParser.parse(answer), members.first(where: { $0.0 == "ok" })?.1 != .bool(true) { failed = true }
            }
            return failed ? 1 : 0
        } catch {
            StandardError.write("areasctl: \(error)\(answered > 0 ? " (after \(answered) answer\(answered == 1 ? "" : "s"))" : "")\n")
            return error.kind == .permissionDenied ? 77 : 3
        }
    }

    package static func version(socketPath: String?, url: HTTPQuestion.Address?, timeoutSeconds: Double) -> Int32 {
        print("areasctl \(AreasVersion.current)")
        let path = url?.text ?? socketPath ?? DefaultPaths.clientSocket(environment: ProcessInfo.processInfo.environment)
        do throws(AreasClient.Unreachable) {
            let answer = if let url {
                try HTTPQuestion.ask(.stats, at: url, timeoutSeconds: timeoutSeconds)
            } else {
                DaemonAnswer.line(try AreasClient(path: path, timeoutSeconds: timeoutSeconds).send(Request.stats.line))
            }
            // `build`; a daemon of an earlier release said its release as `version`.
            var stats: JSONValue?
            if case .line(let line) = answer { stats = try? JSONParser.parse(line) }
            guard case .string(let version)? = stats?[.build] ?? stats?[.version] else {
                StandardError.write("areasctl: the daemon at \(path) did not say its version\n")
                return 1
            }
            print("areasd \(version.escapingControlCharacters()) at \(path)")
            return 0
        } catch {
            StandardError.write("areasctl: \(error)\n")
            return error.kind == .permissionDenied ? 77 : 3
        }
    }
}
