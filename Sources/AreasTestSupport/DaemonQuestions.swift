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

    /// Sends one request line to the daemon at `socket` and parses the answer; nil when it
    /// cannot be reached, answers nothing within `deadline` (`refreshDeadline` for a refresh,
    /// else `answerDeadline`), or answers something unreadable.
    ///
    /// A daemon that let a question of 5 s or more go unanswered is not asked again (nil at
    /// once): a test of one that accepts and never answers then fails in seconds, not in a
    /// deadline for each of its hundreds of questions.
    @Sendable package static func ask(_ socket: String, _ request: String, deadline: Double? = nil) -> JSONValue? {
        if silent.withLock({ $0.contains(socket) }) { return nil }
        let waitsForARefresh: Bool
        if case .refresh? = try? Request.parse(Array(request.utf8)) { waitsForARefresh = true } else { waitsForARefresh = false }
        let deadline = deadline ?? (waitsForARefresh ? refreshDeadline : answerDeadline)
        guard let client = try? AreasClient(path: socket, timeoutSeconds: deadline) else { return nil }
        do throws(AreasClient.Unreachable) {
            let line = try client.send(Array(request.utf8))
            return try? JSONParser.parse(line)
        } catch {
            if error.kind == .timedOut && deadline >= 5 { _ = silent.withLock { $0.insert(socket) } }
            return nil
        }
    }

    /// The sockets whose daemon let a question go unanswered.
    private static let silent = LockedValue<Set<String>>([])

    /// Sends `request` to the daemon at `socket` and parses the answer; nil as above.
    @Sendable package static func ask(_ socket: String, _ request: Request) -> JSONValue? {
        ask(socket, String(decoding: request.line, as: UTF8.self))
    }

    /// The value of one series of the daemon's metrics (`name` with its labels, as written:
    /// `areas_requests_total{op="along"}`); nil when the daemon cannot be asked or lacks it.
    package static func metric(_ socket: String, _ series: String) -> Double? {
        guard let text = ask(socket, Request.metrics)?["metrics"]?.string else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
    }

    /// Checks `condition` every 20 ms until it holds (true) or `seconds` pass (false).
    package static func waitUntil(seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// Waits until the daemon at `socket` says its data is loaded. `health` is answered at
    /// once, refreshing or not, so each ask here waits 5 s at most: a daemon that accepts and
    /// never answers fails the wait in `seconds`, not in `answerDeadline` per try.
    package static func waitUntilLoaded(_ socket: String, seconds: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        return waitUntil(seconds: seconds) {
            ask(socket, String(decoding: Request.health.line, as: UTF8.self), deadline: max(0.1, min(5, deadline.timeIntervalSinceNow)))?[.loaded]?.bool == true
        }
    }
}

extension Fixtures {
    /// A bundled sample config (`config/areasd.json` unless named), written into `directory`
    /// with the sample folders' absolute paths and the snapshot in `directory`; `extra`
    /// top-level members are added, and the operator's corrections kept only with `overrides`.
    /// The path of the written file.
    package static func sampleConfig(in directory: String, extra: String = "", from bundled: String = "config/areasd.json", overrides: Bool = false) throws -> String {
        var text = try String(contentsOfFile: path(bundled), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"../samples/", with: "\"\(root)/samples/")
        // The overlapping samples' corrections only where a test asks for them.
        if !overrides { text = text.replacingOccurrences(of: #"  "overrides": "\#(root)/samples/overlap/overrides.csv",\#n"#, with: "") }
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
