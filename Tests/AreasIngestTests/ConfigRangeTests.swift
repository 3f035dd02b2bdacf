import Foundation
import Testing
@testable import AreasIngest
import AreasTestTraits

/// Every number in a config is range-checked at load (and so on SIGHUP, which loads the same
/// way): values that once passed and then crashed or silently disabled something.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct ConfigRangeTests {
    static let source = #""name":"a","kind":"smoking","format":"odcloud-json","url":"https://x.example/api","fields":{"name":"n","latitude":"y","longitude":"x"}"#

    @Test(arguments: [
        (#""idleTimeoutSeconds":1e19"#, "idleTimeoutSeconds: must be a number from 0.1 to 86400, got 1e+19"),
        (#""idleTimeoutSeconds":1e-7"#, "idleTimeoutSeconds: must be a number from 0.1 to 86400"),
        (#""maxResults":9223372036854775807"#, "maxResults: must be from 1 to 1000000"),
        (#""maxConnections":0"#, "maxConnections: must be from 1 to 1000000, got 0"),
        (#""refreshIntervalSeconds":1e300"#, "refreshIntervalSeconds: must be a number from 1 to 1000000000"),
        (#""requestTimeoutSeconds":0"#, "requestTimeoutSeconds: must be a number from 0.1 to 3600"),
        (#""maxOutputBytes":1000"#, "maxOutputBytes: must be from 1048576 to 1099511627776, got 1000"),
    ])
    func topLevel(member: String, expected: String) {
        let message = Self.error("{\(member),\"sources\":[{\(Self.source)}]}")
        #expect(message.contains(expected), "\(message)")
    }

    @Test(arguments: [
        (#""retryDelaySeconds":1e11"#, "sources[0].retryDelaySeconds: must be a number from 0.001 to 60"),
        (#""timeoutSeconds":0"#, "sources[0].timeoutSeconds: must be a number from 0.1 to 600"),
        (#""concurrency":1000"#, "sources[0].concurrency: must be from 1 to 64"),
        (#""retries":100"#, "sources[0].retries: must be from 0 to 20"),
        (#""maxPageBytes":10"#, "sources[0].maxPageBytes: must be from 1024 to 1073741824"),
    ])
    func perSource(member: String, expected: String) {
        let message = Self.error("{\"sources\":[{\(Self.source),\(member)}]}")
        #expect(message.contains(expected), "\(message)")
    }

    /// The loader's message for `json`, or "accepted".
    static func error(_ json: String, path: String = "areasd.json") -> String {
        do {
            _ = try AreasConfig.parse(Data(json.utf8), path: path)
            return "accepted"
        } catch {
            return error.description
        }
    }
}
