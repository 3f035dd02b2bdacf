import AreasCore
import AreasProtocol
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// `areasctl pipe` and `areasctl version` against a real daemon on the samples.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct ClientSessionTests {
    @Test func pipeAnswersEveryLineInOrderOverOneConnection() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        let requests = [#"{"op":"health"}"#, #"{"op":"near","lat":37.53,"lon":126.97,"k":2,"output":"ids"}"#, "", #"{"op":"get","id":"nope:1"}"#]
        let input = NSTemporaryDirectory() + "areasctl-pipe-\(getpid()).jsonl"
        try (requests.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        defer { unlink(input) }
        let shell = try Binaries.run("/bin/sh", ["-c", "\"$0\" --socket \"$1\" pipe < \"$2\"", Binaries.path("areasctl"), daemon.socket, input])
        #expect(shell.status == 1, "an error answer among them: \(shell.stderr)")
        let answers = try shell.stdout.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)) }
        try #require(answers.count == 3, "one answer a request, the blank line skipped: \(shell.stdout)")
        #expect(answers[0]["healthy"]?.bool == true)
        // The oracle: the same question asked on its own.
        let alone = try #require(DaemonQuestions.ask(daemon.socket, requests[1]))
        #expect(answers[1]["areas"] == alone["areas"])
        #expect(answers[2]["error"]?["code"]?.string == "not_found")
    }

    @Test func versionNamesTheClientAndTheDaemon() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        let both = try Binaries.run("areasctl", ["--socket", daemon.socket, "version"])
        #expect(both.status == 0)
        #expect(both.stdout == "areasctl \(AreasVersion.current)\nareasd \(AreasVersion.current) at \(daemon.socket)\n", "\(both.stdout)")
        let alone = try Binaries.run("areasctl", ["--socket", daemon.socket + ".gone", "version"])
        #expect(alone.status == 3 && alone.stdout == "areasctl \(AreasVersion.current)\n")
    }
}

/// `areasctl pipe` and lines past the protocol's limit.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(2))) struct PipeLineLimitTests {
    /// Feeds areasctl a short line, a line of 96 MiB and a short line, and says what it printed,
    /// how it ended and the most memory it held (`ru_maxrss`, KiB).
    static let feeder = """
        import json, resource, subprocess, sys, threading
        child = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        def feed():
            child.stdin.write(b'{"op":"health"}\\n')
            chunk = b'x' * (1 << 20)
            for _ in range(96):
                child.stdin.write(chunk)
            child.stdin.write(b'\\n{"op":"health"}\\n')
            child.stdin.close()
        feeder = threading.Thread(target=feed)
        feeder.start()
        out = child.stdout.read()
        err = child.stderr.read()
        status = child.wait()
        feeder.join()
        print(json.dumps({"status": status, "stdout": out.decode(), "stderr": err.decode(),
                          "maxrss": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
        """

    /// The long line is refused by areasctl in the daemon's words, holding no more of it than of
    /// a short one, and the line after it is answered on the same connection. (A 200 MB line
    /// grew areasctl to 410 MB; the daemon then closed, and the next line failed with "is
    /// areasd running?".)
    @Test func aLineTooLongIsRefusedInTheClientAndTheNextAnswered() throws {
        let daemon = try SampleDaemon()
        defer { daemon.stop() }
        let run = try Binaries.run("/usr/bin/python3", ["-c", Self.feeder, Binaries.path("areasctl"), "--socket", daemon.socket, "pipe"], seconds: 60)
        try #require(run.status == 0, "\(run.stderr)")
        let result = try JSONParser.parse(Array(run.stdout.utf8))
        let lines = (result["stdout"]?.string ?? "").split(separator: "\n").map(String.init)
        #expect(result["status"]?.double == 1, "\(result["stderr"]?.string ?? "")")
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.first?.hasPrefix(#"{"ok":true"#) == true)
        #expect(lines.dropFirst().first == #"{"ok":false,"error":{"code":"too_large","message":"request line longer than 65536 bytes; not sent"}}"#)
        #expect(lines.last?.hasPrefix(#"{"ok":true"#) == true)
        #expect(result["stderr"]?.string == "")
        // 96 MiB of line, held whole even once, would be far above this.
        let maxKiB = result["maxrss"]?.double ?? .infinity
        #expect(maxKiB < 48 * 1024, "areasctl held \(Int(maxKiB)) KiB")
    }
}

/// `areasctl --url` asks the HTTP front door and prints what the socket's answer prints.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct HTTPClientTests {
    @Test func everyReadingCommandPrintsTheSameOverHTTP() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        let commands: [[String]] = [
            ["near", "37.53", "126.97", "-k", "3", "--kind", "smoking"], ["radius", "37.55", "126.97", "500", "--format", "tsv"],
            ["bbox", "37.5", "126.9", "37.6", "127.0", "--output", "count"], ["check", "37.5289", "126.968", "--previous", "37.5285,126.9680"],
            ["along", "37.55,126.97", "37.53,126.97", "--meters", "100", "--json"], ["get", "yongsan:1f91a67d36b1ef67"],
            ["clusters", "37.4", "126.8", "37.7", "127.2", "--zoom", "11"], ["sources", "--json"], ["health"],
            ["near", "37.53", "126.97", "--district", "용산"],
        ]
        // The data's age in `health` may pass a second's boundary between the two asks.
        func ageless(_ text: String) -> String { text.replacing(/\(data [^)]* old\)/, with: "(data … old)") }
        for command in commands {
            let socket = try Binaries.run("areasctl", ["--socket", daemon.socket] + command)
            let http = try Binaries.run("areasctl", ["--url", "http://\(address)"] + command)
            #expect(http.status == socket.status, "\(command): \(http.stderr)")
            #expect(ageless(http.stdout) == ageless(socket.stdout), "\(command)")
            #expect(http.stderr == socket.stderr, "\(command)")
        }
        // Metrics: the same exposition, give or take the counters the two asks moved.
        let metrics = try Binaries.run("areasctl", ["--url", "http://\(address)", "metrics"])
        let socketMetrics = try Binaries.run("areasctl", ["--socket", daemon.socket, "metrics"])
        func families(_ text: String) -> [Substring] { text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") } }
        #expect(metrics.status == 0 && !families(metrics.stdout).isEmpty)
        #expect(families(metrics.stdout) == families(socketMetrics.stdout))
        // With --json, the socket's answer shape whichever door it came through.
        for door in [["--url", "http://\(address)"], ["--socket", daemon.socket]] {
            let json = try Binaries.run("areasctl", door + ["metrics", "--json"])
            let answer = try JSONParser.parse(Array(json.stdout.utf8))
            #expect(json.status == 0 && answer["ok"]?.bool == true, "\(door)")
            #expect(families(answer["metrics"]?.string ?? "") == families(socketMetrics.stdout), "\(door)")
        }
        let missing = try Binaries.run("areasctl", ["--url", "http://\(address)", "get", "nope:1"])
        #expect(missing.status == 1 && missing.stderr.contains("not_found"), "\(missing.stderr)")
    }

    /// `version` asks the front door too; `pipe`, many questions on one connection, says
    /// plainly that it needs the socket (both were "unknown command" with `--url`).
    @Test func versionAsksOverHTTPAndPipeSaysItNeedsTheSocket() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        let version = try Binaries.run("areasctl", ["--url", "http://\(address)", "version"])
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdout == "areasctl \(AreasVersion.current)\nareasd \(AreasVersion.current) at http://\(address)\n", "\(version.stdout)")
        let pipe = try Binaries.run("areasctl", ["--url", "http://\(address)", "pipe"])
        #expect(pipe.status == 2, "\(pipe.stderr)")
        #expect(pipe.stderr.contains("pipe asks on the socket (--socket PATH)"), "\(pipe.stderr)")
        let both = try Binaries.run("areasctl", ["--url", "http://\(address)", "--socket", daemon.socket, "version"])
        #expect(both.status == 2 && both.stderr.contains("name two daemons"), "\(both.stderr)")
    }

    @Test(arguments: [
        (["--url", "http://127.0.0.1:1", "refresh"], Int32(2), "read-only"),
        (["--url", "https://areas.example.kr", "health"], Int32(2), "TLS belongs to the proxy"),
        (["--url", "ftp://x", "health"], Int32(2), "--url"),
        (["--url", "http://127.0.0.1:8080", "--socket", "/x", "health"], Int32(2), "give one"),
    ])
    func whatItRefuses(arguments: [String], status: Int32, says: String) throws {
        let run = try Binaries.run("areasctl", arguments)
        #expect(run.status == status && run.stderr.contains(says), "\(run.status) \(run.stderr)")
    }

    @Test func nobodyListeningIsExit3() throws {
        let port = try freeLoopbackAddress()
        let run = try Binaries.run("areasctl", ["--url", "http://\(port)", "health"])
        #expect(run.status == 3 && run.stderr.contains("cannot connect to areasd at http://\(port)"), "\(run.stderr)")
    }
}
