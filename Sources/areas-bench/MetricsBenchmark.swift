import AreasProtocol
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc

/// `areas-bench metrics`: a scrape of `GET /metrics` as the configured sources grow (each a
/// one-row CSV file, so each is a run of series and little else), beside the same exposition
/// asked on the line socket in the same run. The time should grow with the series, linearly.
struct MetricsBenchmark {
    var sources = [1_000, 3_000, 10_000]
    var scrapes = 5

    init(arguments: inout ArgumentList) throws {
        if let text = try arguments.value("--sources") {
            sources = text.split(separator: ",").compactMap { Int($0) }
            guard !sources.isEmpty, sources.allSatisfy({ (1...100_000).contains($0) }) else { throw UsageError.invalidValue("--sources", text) }
        }
        scrapes = try arguments.value("--scrapes", as: { Int($0) }) ?? scrapes
        _ = try arguments.positionals()
    }

    func run() throws {
        let areasd = try BuiltBeside.program("areasd")
        var summary: [String: Double] = [:]
        for count in sources {
            let folder = NSTemporaryDirectory() + "areas-bench-metrics-\(getpid())-\(count)"
            try FileManager.default.createDirectory(atPath: folder + "/files", withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            var entries: [String] = []
            for i in 0..<count {
                try "name,lat,lon\n부스 \(i),\(37 + Double(i) * 1e-5),127.0\n".write(toFile: folder + "/files/s\(i).csv", atomically: false, encoding: .utf8)
                entries.append(#"{"name":"s\#(i)","kind":"smoking","format":"csv","file":"files/s\#(i).csv","fields":{"name":"name","latitude":"lat","longitude":"lon"}}"#)
            }
            let (probe, port) = try Sockets.listenLoopbackTCP()
            probe.close()
            try #"{"snapshot":"\#(folder)/areas.snapshot","http":{"listen":"127.0.0.1:\#(port)"},"sources":[\#(entries.joined(separator: ","))]}"#
                .write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
            let socket = folder + "/areasd.sock"
            let daemon = try Child(areasd, ["--config", folder + "/areasd.json", "--socket", socket, "--log-level", "error"])
            defer { daemon.stop() }
            guard DaemonQuestions.waitUntil(seconds: 300, { DaemonQuestions.ask(socket, #"{"op":"health"}"#)?["areas"]?.double == Double(count) }) else {
                throw UsageError.wrongArguments("areasd did not load \(count) sources within 300 s")
            }
            var http = Double.infinity, line = Double.infinity, bytes = 0, series = 0
            for _ in 0..<scrapes {
                var start = Measure.clock.now
                let answer = try HTTPTestClient("127.0.0.1:\(port)", timeoutSeconds: 120).get("/metrics")
                http = min(http, (Measure.clock.now - start).milliseconds)
                guard answer.status == 200 else { throw UsageError.wrongArguments("GET /metrics answered \(answer.status)") }
                bytes = answer.body.count
                series = answer.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
                start = Measure.clock.now
                _ = DaemonQuestions.ask(socket, #"{"op":"metrics"}"#)
                line = min(line, (Measure.clock.now - start).milliseconds)
            }
            print("\(count) sources: GET /metrics \(Measure.format(http, 1)) ms for \(bytes / 1024) KiB (\(series) series), the socket's metrics \(Measure.format(line, 1)) ms; HTTP / socket \(Measure.format(http / line))x, \(Measure.format(http * 1000 / Double(max(series, 1)), 2)) µs a series")
            summary["s\(count)_http_ms"] = http
            summary["s\(count)_socket_ms"] = line
        }
        print(Measure.json(summary))
    }
}
