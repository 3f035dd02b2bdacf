import AreasTestSupport
import Testing
@testable import AreasProtocol
@testable import AreasServer
@testable import AreasSystem

/// The ways a test asks areasd's service, one API for both: straight into
/// `AreaService.respond` in this process (no socket, no connection thread: what a protocol
/// answer is, apart from its transport), or over the service's Unix socket (the connection
/// server's framing, buffers and threads too). A spec that runs through both shows the answer
/// and its transport apart.
enum ServiceTransport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inProcess, socket

    var testDescription: String { rawValue }
}

extension TestServer {
    /// The answer line (without its newline) to `line`, asked through `transport`; a peer in
    /// this process is this process's user, as the socket's peer credentials say.
    func answer(_ line: String, through transport: ServiceTransport) throws -> [UInt8] {
        switch transport {
        case .inProcess:
            var writer = JSONWriter(capacity: 4_096)
            Array(line.utf8).withUnsafeBufferPointer { bytes in
                service.respond(to: bytes, peerUID: CurrentProcess.userID, view: service.view(), into: &writer)
            }
            var bytes = writer.bytes
            if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
            return bytes
        case .socket:
            return try client().send(Array(line.utf8))
        }
    }

    /// The answer to `line` through `transport`, parsed.
    func ask(_ line: String, through transport: ServiceTransport) throws -> JSONValue {
        try JSONParser.parse(try answer(line, through: transport))
    }
}
