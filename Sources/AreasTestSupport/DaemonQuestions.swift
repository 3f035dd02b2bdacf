import AreasControl
import AreasProtocol
import AreasSystem
import Foundation

/// Asking a running areasd, as tests and benchmarks do: one request at a time, and waits that
/// end by a deadline rather than hang.
package enum DaemonQuestions {
    /// How long an ask waits for its answer: far longer than any query of the samples takes
    /// (milliseconds; seconds under ThreadSanitizer on a busy machine), and short enough that a
    /// daemon that accepts and never answers fails the test in seconds.
    package static let answerDeadline = 15.0

    /// How long a `refresh` that waits for its report may take: longer than any refresh a
    /// test makes.
    package static let refreshDeadline = 60.0

    /// How long `health` may take: it is answered at once, refreshing or not, so a daemon that
    /// leaves it unanswered this long answers nothing.
    package static let healthDeadline = 5.0

    /// Sends one request line to the daemon at `socket` and parses the answer; nil when it
    /// cannot be reached, answers nothing within `deadline` (`refreshDeadline` for a refresh,
    /// `healthDeadline` for `health`, else `answerDeadline`), or answers something unreadable.
    ///
    /// A daemon that let a question go unanswered past its deadline is not asked again: nil at
    /// once (`SilentPeers`).
    @Sendable package static func ask(_ socket: String, _ request: String, deadline: Double? = nil) -> JSONValue? {
        let line = Array(request.utf8)
        return ask(socket, line: line, deadline: deadline ?? self.deadline(for: try? Request.parse(line)))
    }

    /// Asks `request` of the daemon at `socket` and parses the answer; nil as above.
    @Sendable package static func ask(_ socket: String, _ request: Request, deadline: Double? = nil) -> JSONValue? {
        ask(socket, line: request.line, deadline: deadline ?? self.deadline(for: request))
    }

    private static func deadline(for request: Request?) -> Double {
        switch request?.operation {
        case .refresh?: refreshDeadline
        case .health?: healthDeadline
        default: answerDeadline
        }
    }

    private static func ask(_ socket: String, line: [UInt8], deadline: Double) -> JSONValue? {
        if SilentPeers.contains(socket) { return nil }
        guard let client = try? AreasClient(path: socket, timeoutSeconds: deadline) else { return nil }
        do throws(AreasClient.Unreachable) {
            let answer = try client.send(line)
            return try? JSONParser.parse(answer)
        } catch {
            if error.kind == .timedOut { SilentPeers.unanswered(socket, within: deadline) }
            return nil
        }
    }

    /// The value of one series of the daemon's metrics (`name` with its labels, as written:
    /// `areas_requests_total{op="along"}`); nil when the daemon cannot be asked or lacks it.
    package static func metric(_ socket: String, _ series: String) -> Double? {
        ask(socket, Request.metrics)?["metrics"]?.string.flatMap { metric(series, in: $0) }
    }

    /// The value of one series in a metrics text as the daemon writes it.
    package static func metric(_ series: String, in text: String) -> Double? {
        let line = text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
    }

    /// Checks `condition` every 20 ms until it holds (true) or `seconds` pass (false); false at
    /// once when the condition asked a daemon that let a question go unanswered (`SilentPeers`).
    package static func waitUntil(seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let silentBefore = SilentPeers.noticedOnThisThread
            if condition() { return true }
            if SilentPeers.noticedOnThisThread != silentBefore { return false }
            usleep(20_000)
        }
        return condition()
    }

    /// Waits until the daemon at `socket` says its data is loaded.
    package static func waitUntilLoaded(_ socket: String, seconds: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        return waitUntil(seconds: seconds) {
            ask(socket, Request.health, deadline: max(0.1, min(healthDeadline, deadline.timeIntervalSinceNow)))?[.loaded]?.bool == true
        }
    }
}

extension Fixtures {
    /// A bundled sample config (`config/areasd.json` unless named), written into `directory`
    /// with the sample folders' absolute paths and the snapshot in `directory`; `extra`
    /// top-level members are added, and the operator's corrections kept only with `overrides`,
    /// the city's crowd levels only with `crowd` (they change answers as they arrive and age).
    /// The path of the written file.
    package static func sampleConfig(in directory: String, extra: String = "", from bundled: String = samplesConfigFile, overrides: Bool = false,
                                     crowd: Bool = false, removing lines: [String] = []) throws -> String {
        var text = try String(contentsOfFile: path(bundled), encoding: .utf8)
        for line in lines {
            guard let found = text.range(of: line + "\n") else { throw MissingFile(path: path(bundled) + " (the line \(line))") }
            text.removeSubrange(found)
        }
        text = text.replacingOccurrences(of: "\"../../samples/", with: "\"\(root)/samples/").replacingOccurrences(of: "\"../samples/", with: "\"\(root)/samples/")
        // The overlapping samples' corrections only where a test asks for them.
        if !overrides { text = text.replacingOccurrences(of: #"  "overrides": "\#(root)/samples/overlap/overrides.csv",\#n"#, with: "") }
        if !crowd, let block = text.range(of: #"\n  "crowd": \{[^}]*\},"#, options: .regularExpression) { text.removeSubrange(block) }
        guard let snapshot = text.range(of: #""snapshot": "[^"]*""#, options: .regularExpression) else {
            throw MissingFile(path: path(bundled) + " (its snapshot key)")
        }
        text.replaceSubrange(snapshot, with: #""snapshot": "\#(directory)/areas.snapshot""#)
        if !extra.isEmpty, let brace = text.range(of: "{\n") { text.replaceSubrange(brace, with: "{\n\(extra),\n") }
        let file = directory + "/areasd.json"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}
