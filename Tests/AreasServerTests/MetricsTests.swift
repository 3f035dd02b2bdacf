import AreasTestSupport
import Foundation
import Glibc
import Testing
import AreasTestTraits

/// `areasctl metrics` against a real daemon: valid Prometheus text (0.0.4), read by a parser
/// written here from the format's rules and, when installed, by `promtool check metrics`; and
/// figures that agree with what the test did and with `stats`.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct MetricsTests {
    /// One sample: family name, labels, value.
    struct Sample: Hashable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    /// Reads the exposition text, failing on anything the format does not allow: a sample
    /// before its family's HELP and TYPE, a TYPE given twice, a counter not named `_total`, a
    /// bad name or label, an unescaped quote, a value that is not a number, a series twice.
    static func parse(_ text: String) throws -> [Sample] {
        struct Invalid: Error, CustomStringConvertible { var description: String }
        let name = /[a-zA-Z_:][a-zA-Z0-9_:]*/
        var helped = Set<String>()
        var types: [String: String] = [:]
        var samples: [Sample] = []
        var series = Set<String>()
        guard text.hasSuffix("\n") else { throw Invalid(description: "the text must end with a newline") }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.hasPrefix("# HELP ") {
                let parts = line.dropFirst(7).split(separator: " ", maxSplits: 1)
                guard let family = parts.first, (try? name.wholeMatch(in: family)) != nil, parts.count == 2 else { throw Invalid(description: "bad HELP: \(line)") }
                guard helped.insert(String(family)).inserted else { throw Invalid(description: "HELP twice: \(line)") }
            } else if line.hasPrefix("# TYPE ") {
                let parts = line.dropFirst(7).split(separator: " ")
                guard parts.count == 2, ["counter", "gauge", "histogram", "summary", "untyped"].contains(String(parts[1])) else { throw Invalid(description: "bad TYPE: \(line)") }
                guard types.updateValue(String(parts[1]), forKey: String(parts[0])) == nil else { throw Invalid(description: "TYPE twice: \(line)") }
                if parts[1] == "counter" && !parts[0].hasSuffix("_total") { throw Invalid(description: "a counter not named _total: \(line)") }
            } else if line.hasPrefix("#") || line.isEmpty {
                throw Invalid(description: "unexpected line: '\(line)'")
            } else {
                guard let match = try /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.wholeMatch(in: line) else { throw Invalid(description: "bad sample: \(line)") }
                let family = String(match.1)
                guard types[family] != nil, helped.contains(family) else { throw Invalid(description: "a sample before its HELP and TYPE: \(line)") }
                var labels: [String: String] = [:]
                if let body = match.3 {
                    var rest = Substring(body)
                    while !rest.isEmpty {
                        guard let pair = try /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)",?/.prefixMatch(in: rest) else { throw Invalid(description: "bad labels: \(line)") }
                        labels[String(pair.1)] = String(pair.2).replacingOccurrences(of: "\\\"", with: "\"")
                        rest = rest[pair.range.upperBound...]
                    }
                }
                guard let value = Double(match.4) else { throw Invalid(description: "bad value: \(line)") }
                guard series.insert(line.split(separator: " ").dropLast().joined(separator: " ")).inserted else { throw Invalid(description: "a series twice: \(line)") }
                samples.append(Sample(name: family, labels: labels, value: value))
            }
        }
        return samples
    }

    @Test func metricsAreValidAndAgreeWithWhatHappened() throws {
        let daemon = try SampleDaemon()
        let socket = daemon.socket
        for _ in 0..<3 { _ = DaemonQuestions.ask(socket, #"{"op":"near","lat":37.53,"lon":126.97}"#) }
        _ = DaemonQuestions.ask(socket, #"{"op":"near","lat":91,"lon":126.97}"#)
        _ = DaemonQuestions.ask(socket, #"{"op":"fly"}"#)

        let run = try Binaries.run("areasctl", ["--socket", socket, "metrics"])
        #expect(run.status == 0, "\(run.stderr)")
        let samples = try Self.parse(run.stdout)
        func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
            samples.first { $0.name == name && $0.labels == labels }?.value
        }
        // The request with latitude 91 is not read as a near: it counts as a bad_request only.
        #expect(value("areas_requests_total", ["op": "near"]) == 3)
        #expect((value("areas_request_errors_total", ["code": "bad_request"]) ?? 0) >= 1)
        #expect((value("areas_request_errors_total", ["code": "unknown_op"]) ?? 0) >= 1)
        #expect(value("areas_data_loaded") == 1)
        #expect(value("areas_build_info", ["version": try #require(DaemonQuestions.ask(socket, #"{"op":"stats"}"#)?["build"]?.string)]) == 1)
        let byKind = samples.filter { $0.name == "areas_areas" }.reduce(0) { $0 + $1.value }
        #expect(Int(byKind) == SampleCounts.total)
        for source in SampleCounts.sourceNames {
            #expect(value("areas_source_areas", ["source": source]) != nil, "\(source) listed")
            #expect(value("areas_source_last_refresh_success", ["source": source]) == 1, "\(source) taken")
        }
        #expect((value("process_resident_memory_bytes") ?? 0) > 1_000_000)
        #expect((value("areas_connections_accepted_total") ?? 0) >= 6)

        // Ages and the refresh's duration as stats gives them (asked after the scrape, so an
        // age may be a few seconds more there; stats rounds durations to the millisecond).
        let stats = try #require(DaemonQuestions.ask(socket, #"{"op":"stats"}"#))
        var ages: [Double] = []
        for source in SampleCounts.sourceNames {
            let age = try #require(value("areas_source_age_seconds", ["source": source]), "\(source)'s age")
            let statsAge = try #require(stats["bySource"]?[source]?["ageSeconds"]?.double)
            #expect(age >= 0 && statsAge - age >= -1 && statsAge - age < 30, "\(source): \(age) s in the metrics, \(statsAge) s in stats")
            ages.append(age)
        }
        #expect(value("areas_data_age_seconds") == ages.max(), "the data's age is its oldest source's")
        let duration = try #require(value("areas_refresh_duration_seconds"))
        let statsDuration = try #require(stats["lastRefresh"]?["durationMilliseconds"]?.double)
        #expect(duration > 0 && abs(duration * 1000 - statsDuration) < 1, "\(duration) s, stats \(statsDuration) ms")
    }

    /// promtool, the format's own checker (Debian's prometheus package).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/promtool"), "needs promtool (Tests/run.sh installs prometheus)"))
    func promtoolAcceptsTheMetrics() throws {
        let daemon = try SampleDaemon()
        _ = DaemonQuestions.ask(daemon.socket, #"{"op":"fly"}"#)
        let run = try Binaries.run("areasctl", ["--socket", daemon.socket, "metrics"])
        #expect(run.status == 0, "\(run.stderr)")
        let file = daemon.folder + "/metrics.prom"
        try run.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        // Killed after 30 s, so a promtool that hangs fails the test instead of the run.
        let check = try Binaries.run("/bin/sh", ["-c", "/usr/bin/promtool check metrics < '\(file)' 2>&1"])
        #expect(check.status == 0 && check.stdout.isEmpty, "promtool: \(check.stdout)")
    }

    @Test(arguments: [
        "# TYPE x counter\n# HELP x h\nx 1\n",
        "# HELP x_total h\n# TYPE x_total counter\nx_total{a=\"b\"} one\n",
        "# HELP x h\n# TYPE x gauge\nx{a=\"un\"escaped\"} 1\n",
        "# HELP x h\n# TYPE x gauge\nx 1\nx 2\n",
        "x 1\n",
    ])
    func theParserRefusesWhatTheFormatForbids(text: String) {
        #expect(throws: (any Error).self) { try Self.parse(text) }
    }
}
