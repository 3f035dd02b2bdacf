import AreasCore
import AreasProtocol
import AreasTestSupport
import Foundation
import Testing

/// `areasctl pipe` and `areasctl version` against a real daemon on the samples.
@Suite(.timeLimit(.minutes(5))) struct ClientSessionTests {
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
