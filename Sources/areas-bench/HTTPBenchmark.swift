import AreasCore
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc

/// `areas-bench http`: near k=10 over HTTP keep-alive beside the same questions over the line
/// protocol, against one areasd of N areas, and nginx serving a static 1 KB file (when it is
/// installed) as the price of an HTTP answer that does nothing. Throughput, p99, and each
/// server's CPU per answer, from its own /proc accounting; runs interleaved.
struct HTTPBenchmark {
    var points = 100_000
    var connections = 8
    var seconds = 5.0
    var rounds = 2
    let areasd: String

    init(arguments: inout ArgumentList) throws {
        points = try arguments.value("--points", as: { Int($0) }) ?? points
        connections = try arguments.value("--connections", as: { Int($0) }) ?? connections
        seconds = try arguments.value("--seconds", as: { Double($0) }) ?? seconds
        rounds = try arguments.value("--rounds", as: { Int($0) }) ?? rounds
        areasd = try BuiltBeside.program("areasd")
        guard points > 0, connections > 0, seconds > 0, rounds > 0 else { throw UsageError.wrongArguments("--points, --connections, --seconds and --rounds must be positive") }
    }

    struct Run {
        var label: String
        var throughput: Double
        var p99: Double
        var cpuMicrosPerAnswer: Double
    }

    func run() throws {
        let directory = "/tmp/areas-bench-http-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (probe, port) = try Sockets.listenLoopbackTCP()
        probe.close()
        let address = "127.0.0.1:\(port)"
        let areas = BenchData.areas(count: points)
        let httpSocket = directory + "/http.sock"
        try _ = BenchData.writeDaemonFiles(areas: areas, directory: directory, extra: #""http": {"listen": "\#(address)", "socket": "\#(httpSocket)"}"#)
        let socket = directory + "/areasd.sock"
        let daemon = try Child(areasd, ["--config", directory + "/areasd.json", "--socket", socket, "--log-level", "error"])
        defer { daemon.stop() }
        guard DaemonHarness.waitReady(socket) else { throw UsageError.wrongArguments("areasd did not start") }
        let tree = PackedRTree(entries: areas.map { GeoBox($0.coordinate) })
        let queries = SocketBenchmark.queries(count: 20_000, mix: [("near", 1)], points: areas.map(\.coordinate), ids: [], tree: tree, seed: 5)

        let nginx = try NginxStatic(directory: directory + "/nginx")
        if nginx == nil { print("note: nginx is not installed (apt-get install nginx); comparing the two front doors only") }
        defer { nginx?.stop() }

        print("== near k=10, \(points) areas, \(connections) connections, one request in flight each, \(Int(seconds)) s per run, \(rounds) rounds ==")
        var best: [String: Run] = [:]
        func measure(_ label: String, _ server: Child, _ address: String, _ wire: any BenchWire) {
            let cpuBefore = server.cpuSeconds
            let result = LoadGenerator(socket: address, wire: wire, connections: connections, pipeline: 1, seconds: seconds).run(queries)
            let cpu = (server.cpuSeconds - cpuBefore) * 1e6 / Double(max(result.answered, 1))
            let run = Run(label: label, throughput: result.throughput, p99: result.percentile(0.99), cpuMicrosPerAnswer: cpu)
            print("\(label.padding(toLength: 26, withPad: " ", startingAt: 0)) \(Measure.format(run.throughput, 0)) answers/s, p99 \(Measure.format(run.p99, 0)) µs, server CPU \(Measure.format(cpu, 1)) µs per answer\(result.failed > 0 ? ", \(result.failed) failed" : "")")
            if best[label].map({ $0.cpuMicrosPerAnswer > run.cpuMicrosPerAnswer }) ?? true { best[label] = run }
        }
        for _ in 0..<rounds {
            measure("areasd line protocol", daemon, socket, AreasWire(output: "full", bboxLimit: 1000))
            measure("areasd HTTP (TCP)", daemon, address, HTTPWire())
            measure("areasd HTTP (Unix socket)", daemon, httpSocket, HTTPWire())
            if let nginx { measure("nginx static 1 KB file", nginx.process, nginx.address, HTTPWire(path: "/1k.json")) }
        }
        var summary: [String: Double] = [:]
        if let line = best["areasd line protocol"], let http = best["areasd HTTP (TCP)"], let httpUnix = best["areasd HTTP (Unix socket)"] {
            print("HTTP over the Unix socket (nginx's path) / line protocol: CPU per answer \(Measure.format(httpUnix.cpuMicrosPerAnswer / line.cpuMicrosPerAnswer))x")
            summary["http_unix_line_cpu_ratio"] = httpUnix.cpuMicrosPerAnswer / line.cpuMicrosPerAnswer
            print("HTTP / line protocol: CPU per answer \(Measure.format(http.cpuMicrosPerAnswer / line.cpuMicrosPerAnswer))x (target at most 2x), throughput \(Measure.format(http.throughput / line.throughput))x")
            summary["http_line_cpu_ratio"] = http.cpuMicrosPerAnswer / line.cpuMicrosPerAnswer
            summary["http_answers_per_second"] = http.throughput
            summary["line_answers_per_second"] = line.throughput
            summary["http_p99_us"] = http.p99
            if let file = best["nginx static 1 KB file"] {
                print("areasd HTTP near / nginx static file: CPU per answer \(Measure.format(http.cpuMicrosPerAnswer / file.cpuMicrosPerAnswer))x (target at most 1x), throughput \(Measure.format(http.throughput / file.throughput))x")
                summary["http_nginx_cpu_ratio"] = http.cpuMicrosPerAnswer / file.cpuMicrosPerAnswer
            }
        }
        print(Measure.json(summary))
    }
}

/// nginx from the distribution, one worker process (its CPU is then one process's), serving a
/// 1 KB JSON file with keep-alive and no logging.
struct NginxStatic {
    let process: Child
    let address: String

    init?(directory: String) throws {
        guard let binary = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        try FileManager.default.createDirectory(atPath: directory + "/root", withIntermediateDirectories: true)
        let body = "{\"ok\":true,\"padding\":\"" + String(repeating: "x", count: 1024 - 26) + "\"}\n"
        try body.write(toFile: directory + "/root/1k.json", atomically: true, encoding: .utf8)
        let (probe, port) = try Sockets.listenLoopbackTCP()
        probe.close()
        address = "127.0.0.1:\(port)"
        let config = """
            daemon off; master_process off; worker_processes 1; pid \(directory)/nginx.pid; error_log \(directory)/error.log;
            events { worker_connections 1024; }
            http {
              access_log off; keepalive_requests 10000000; keepalive_timeout 60s;
              client_body_temp_path \(directory); proxy_temp_path \(directory); fastcgi_temp_path \(directory); uwsgi_temp_path \(directory); scgi_temp_path \(directory);
              types { application/json json; }
              server { listen \(address); root \(directory)/root; }
            }
            """
        try config.write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
        process = try Child(binary, ["-c", directory + "/nginx.conf", "-p", directory])
        let deadline = Date().addingTimeInterval(10)
        while (try? Sockets.connectTCP(address))?.close() == nil {
            guard Date() < deadline else { throw UsageError.wrongArguments("nginx did not start; see \(directory)/error.log") }
            usleep(20_000)
        }
    }

    func stop() { process.stop() }
}
