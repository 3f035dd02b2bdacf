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
        do throws(AreasClient.Unreachable) {
            let client = try AreasClient(path: path, timeoutSeconds: timeoutSeconds)
            var failed = false
            while let line = readLine(strippingNewline: true) {
                guard !line.allSatisfy(\.isWhitespace) else { continue }
                let answer = try client.send(Array(line.utf8))
                FileHandle.standardOutput.write(Data(answer + [0x0A]))
                if case .object(let members)? = try? JSONParser.parse(answer), members.first(where: { $0.0 == "ok" })?.1 != .bool(true) { failed = true }
            }
            return failed ? 1 : 0
        } catch {
            StandardError.write("areasctl: \(error)\n")
            return error.kind == .permissionDenied ? 77 : 3
        }
    }

    package static func version(socketPath: String?, timeoutSeconds: Double) -> Int32 {
        print("areasctl \(AreasVersion.current)")
        let path = socketPath ?? DefaultPaths.clientSocket(environment: ProcessInfo.processInfo.environment)
        do throws(AreasClient.Unreachable) {
            let answer = try AreasClient(path: path, timeoutSeconds: timeoutSeconds).send(Request.stats.line)
            guard case .string(let version)? = (try? JSONParser.parse(answer))?[.version] else {
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
