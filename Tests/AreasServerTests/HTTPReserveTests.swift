import AreasControl
import AreasProtocol
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// Idle HTTP keep-alive connections cannot lock the operator out: the last eighth of
/// `maxConnections` is kept for the line socket, where `health` and `refresh` are asked.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct HTTPReserveTests {
    @Test func httpClientsLeaveRoomForTheLineSocket() throws {
        let (daemon, address) = try SampleDaemon.withHTTP(extra: #""maxConnections": 16"#)
        defer { daemon.stop() }
        // 16 slots, 2 of them the line socket's: 14 idle HTTP connections fill HTTP's share.
        var idle: [HTTPTestClient] = []
        for _ in 0..<14 { idle.append(try HTTPTestClient(address)) }
        // Each is served (a request answered), so all 14 are surely held.
        for client in idle { #expect(try client.get("/healthz").status == 200) }
        let refused = try HTTPTestClient(address).get("/healthz")
        #expect(refused.status == 503, "\(refused.status) \(refused.text)")
        #expect(refused.text.contains("14 for HTTP"), "\(refused.text)")
        // The operator still gets an answer on the socket, twice at once.
        let first = try AreasSocketClient(daemon.socket), second = try AreasSocketClient(daemon.socket)
        #expect(try first.ask(#"{"op":"health"}"#)["ok"]?.bool == true)
        #expect(try second.ask(#"{"op":"stats"}"#)["ok"]?.bool == true)
        withExtendedLifetime(idle) {}
    }
}

/// A line-protocol client holding its connection, for tests that need several at once.
final class AreasSocketClient {
    let client: AreasControl.AreasClient
    init(_ socket: String) throws { client = try AreasControl.AreasClient(path: socket, timeoutSeconds: DaemonQuestions.answerDeadline) }
    func ask(_ line: String) throws -> AreasProtocol.JSONValue { try AreasProtocol.JSONParser.parse(try client.send(Array(line.utf8))) }
}
