import AreasCore
import AreasSystem
import Foundation
import Synchronization

/// One line per event on stderr. Under systemd (`$JOURNAL_STREAM` set) each line carries the
/// `<N>` priority prefix the journal reads; otherwise a plain timestamped line.
package struct Logger: Sendable {
    private final class SharedLevel: Sendable {
        let value: Atomic<Int>
        init(_ value: Int) { self.value = Atomic(value) }
        func load() -> Int { value.load(ordering: .relaxed) }
        func store(_ newValue: Int) { value.store(newValue, ordering: .relaxed) }
    }

    package enum Level: Int, Sendable, Comparable, CaseIterable {
        case error = 3
        case warning = 4
        case info = 6
        case debug = 7

        package init?(name: String) {
            switch name {
            case "error": self = .error
            case "warning", "warn": self = .warning
            case "info": self = .info
            case "debug": self = .debug
            default: return nil
            }
        }

        package var name: String {
            switch self {
            case .error: return "error"
            case .warning: return "warning"
            case .info: return "info"
            case .debug: return "debug"
            }
        }

        package static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// The most detailed level written. Shared by every copy of this logger, so a SIGHUP that
    /// changes `logLevel` reaches the service's and each connection's copy at once.
    package var threshold: Level {
        get { Level(rawValue: level.load()) ?? .info }
        nonmutating set { level.store(newValue.rawValue) }
    }
    private let level: SharedLevel
    package var journal: Bool
    /// Where lines go; stderr unless a test captures them.
    package var sink: @Sendable (String) -> Void

    package init(threshold: Level = .info, environment: [String: String] = ProcessInfo.processInfo.environment,
                sink: @escaping @Sendable (String) -> Void = { StandardError.write($0) }) {
        self.level = SharedLevel(threshold.rawValue)
        self.journal = environment["JOURNAL_STREAM"] != nil
        self.sink = sink
    }

    package func format(_ level: Level, _ message: String) -> String {
        // One event, one line: no message (upstream text included) may break the format, start
        // a journal entry of its own or reach a terminal as a control sequence.
        let flat = message.escapingControlCharacters(lineBreak: " | ")
        if journal { return "<\(level.rawValue)>\(flat)\n" }
        let now = WallClock.now
        let time = WallClock.utc(now.seconds)
        let stamp = String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", time.year, time.month, time.day,
                           time.hour, time.minute, time.second, now.nanoseconds / 1_000_000)
        return "\(stamp) \(level.name) \(flat)\n"
    }

    package func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level <= threshold else { return }
        sink(format(level, message()))
    }

    package func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    package func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    package func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    package func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
