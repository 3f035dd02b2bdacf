import AreasCore
import AreasProtocol
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// `areasctl pipe` and `areasctl version` against a real daemon on the samples.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ClientSessionTests {
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

/// `areasctl --url` asks the HTTP front door and prints what the socket's answer prints.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct HTTPClientTests {
    @Test func everyReadingCommandPrintsTheSameOverHTTP() throws {
        let (daemon, address) = try SampleDaemon.withHTTP()
        defer { daemon.stop() }
        let commands: [[String]] = [
            ["near", "37.53", "126.97", "-k", "3", "--kind", "smoking"], ["radius", "37.55", "126.97", "500", "--format", "tsv"],
            ["bbox", "37.5", "126.9", "37.6", "127.0", "--output", "count"], ["check", "37.5289", "126.968", "--previous", "37.5285,126.9680"],
            ["along", "37.55,126.97", "37.53,126.97", "--meters", "100", "--json"], ["get", "yongsan:027a36e0cd0ad58b"],
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
        let missing = try Binaries.run("areasctl", ["--url", "http://\(address)", "get", "nope:1"])
        #expect(missing.status == 1 && missing.stderr.contains("not_found"), "\(missing.stderr)")
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
