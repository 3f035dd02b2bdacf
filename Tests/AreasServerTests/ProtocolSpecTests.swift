import AreasCore
import AreasProtocol
import AreasTestSupport
import Testing
import AreasTestTraits

/// The wire protocol's promises for every operation, each asked through both transports
/// (`ServiceTransport`) of one service on the samples: straight into the service and over its
/// socket. Each answer must keep its promise, and the two transports must answer a question
/// with the same bytes.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct ProtocolSpecTests {
    struct Spec: Sendable {
        let line: String
        /// What the answer promises; an issue names the line when it does not.
        let promise: @Sendable (JSONValue) -> Bool
    }

    static func distances(_ answer: JSONValue, _ key: String = "distanceMeters") -> [Double] {
        answer["areas"]?.array.compactMap { $0[key]?.double } ?? []
    }

    /// Questions around Seoul station, where the samples have smoking areas and zones.
    static let specs: [Spec] = [
        Spec(line: #"{"op":"near","lat":37.5547,"lon":126.9707,"k":5}"#) { answer in
            let metres = distances(answer)
            return answer["count"]?.double == 5 && metres.count == 5 && metres == metres.sorted()
        },
        Spec(line: #"{"op":"radius","lat":37.5547,"lon":126.9707,"meters":800,"kind":"smoking"}"#) { answer in
            let areas = answer["areas"]?.array ?? []
            return !areas.isEmpty && distances(answer).allSatisfy { $0 <= 800 } && areas.allSatisfy { $0["kind"]?.string == "smoking" }
        },
        Spec(line: #"{"op":"bbox","south":37.54,"west":126.96,"north":37.56,"east":126.98,"output":"ids"}"#) { answer in
            let areas = answer["areas"]?.array ?? []
            return !areas.isEmpty && areas.allSatisfy { $0["id"]?.string != nil && $0["name"] == nil }
        },
        Spec(line: #"{"op":"bbox","south":37.54,"west":126.96,"north":37.56,"east":126.98}"#) { answer in
            (answer["areas"]?.array ?? []).allSatisfy { area in
                guard let lat = area["lat"]?.double, let lon = area["lon"]?.double else { return false }
                return (37.54...37.56).contains(lat) && (126.96...126.98).contains(lon)
            }
        },
        Spec(line: #"{"op":"check","lat":37.5547,"lon":126.9707,"previous":{"lat":37.56,"lon":126.975}}"#) { answer in
            answer["inside"]?.bool != nil && answer["zones"]?.array != nil && answer["entered"]?.array != nil && answer["exited"]?.array != nil
                && answer["summary"]?.string?.isEmpty == false
        },
        Spec(line: #"{"op":"along","path":[[37.5547,126.9707],[37.5400,126.9700]],"meters":300}"#) { answer in
            let along = distances(answer, "alongMeters")
            return !along.isEmpty && along == along.sorted() && distances(answer, "sideMeters").allSatisfy { $0 <= 300 }
        },
        Spec(line: #"{"op":"clusters","south":37.4,"west":126.8,"north":37.7,"east":127.1,"zoom":11}"#) { answer in
            let inClusters = (answer["clusters"]?.array ?? []).compactMap { $0["count"]?.double }.reduce(0, +)
            return answer["count"]?.double == inClusters + Double(answer["areas"]?.array.count ?? -1)
        },
        Spec(line: #"{"op":"stats"}"#) { answer in
            let byKind = (answer["byKind"]?["smoking"]?.double ?? -1) + (answer["byKind"]?["nonsmoking"]?.double ?? -1)
            return (answer["areas"]?.double ?? 0) > 0 && byKind == answer["areas"]?.double
        },
        Spec(line: #"{"op":"sources"}"#) { answer in !(answer["sources"]?.array ?? []).isEmpty },
        Spec(line: #"{"op":"health"}"#) { answer in answer["loaded"]?.bool == true },
        Spec(line: #"{"op":"metrics"}"#) { answer in answer["metrics"]?.string?.contains("# TYPE areas_") == true },
        Spec(line: #"{"op":"fly"}"#) { answer in answer["error"]?["code"]?.string == "unknown_op" },
        Spec(line: #"{"op":"near","lat":91,"lon":126.97}"#) { answer in
            answer["error"]?["message"]?.string == "lat must be a number between -90 and 90, got 91.0"
        },
        Spec(line: #"{"op":"get","id":"nope:0"}"#) { answer in answer["error"]?["code"]?.string == "not_found" },
    ]

    @Test(arguments: ServiceTransport.allCases)
    func everyOperationKeepsItsPromise(through transport: ServiceTransport) async throws {
        let server = try await TestServer.samples()
        defer { server.stop() }
        for spec in Self.specs {
            let answer = try server.ask(spec.line, through: transport)
            #expect(spec.promise(answer), "\(spec.line): \(answer)")
        }
        // `get` of the nearest area answers with that very area.
        let nearest = try server.ask(#"{"op":"near","lat":37.5547,"lon":126.9707,"k":1}"#, through: transport)
        let id = try #require(nearest["areas"]?.array.first?["id"]?.string)
        let got = try server.ask(String(decoding: Request.get(id: id).line, as: UTF8.self), through: transport)
        #expect(got["areas"]?.array.first?["id"]?.string == id)
    }

    /// Every question but those whose answers carry the clock (stats' uptime, health's and
    /// metrics' ages) gets the same bytes both ways.
    @Test func bothTransportsAnswerAlike() async throws {
        let server = try await TestServer.samples()
        defer { server.stop() }
        for spec in Self.specs where !["stats", "health", "metrics"].contains(where: { spec.line.contains(#""op":"\#($0)""#) }) {
            let inProcess = try server.answer(spec.line, through: .inProcess)
            let socket = try server.answer(spec.line, through: .socket)
            #expect(inProcess == socket, "\(spec.line)")
        }
    }
}
