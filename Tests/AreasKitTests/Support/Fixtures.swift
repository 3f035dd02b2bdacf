import Foundation
@testable import AreasKit

/// Paths to the recorded pages under samples/.
enum Fixtures {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func path(_ relative: String) -> String { root + "/" + relative }

    static func bytes(_ relative: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: path(relative)) ?? Data())
    }

    static func xmlPage(_ n: Int) -> [UInt8] { bytes("samples/nonsmoking-zones/page-\(n).xml") }

    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "areas-test-" + UUID().uuidString.prefix(8)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func source(
        name: String = "zones", kind: AreaKind = .nonsmoking, format: SourceFormat = .dataGoKrXML,
        url: String, keyEnv: String? = nil, pageSize: Int = 1000, fields: FieldMapping = .dataGoKrStandard,
        timeout: Double = 5, retries: Int = 3, maxPages: Int = 100
    ) -> SourceConfig {
        SourceConfig(
            name: name, kind: kind, format: format, location: .url(url), serviceKeyEnv: keyEnv,
            pageSize: pageSize, fields: fields, concurrency: 4, timeoutSeconds: timeout, retries: retries,
            retryDelaySeconds: 0.01, maxPages: maxPages, maxShrink: 0.5, province: nil)
    }

    static func config(_ sources: [SourceConfig]) -> AreasConfig {
        AreasConfig(
            path: "test.json", socket: nil, socketMode: 0o660, socketGroup: nil, snapshot: nil,
            bounds: SyntheticPoints.korea, refreshIntervalSeconds: 3600, maxResults: 10_000,
            maxConnections: 100, idleTimeoutSeconds: 60, adminUids: [], logLevel: nil, sources: sources)
    }

    static func gatewayError(_ code: String, _ name: String) -> String {
        "<OpenAPI_ServiceResponse><cmmMsgHeader><errMsg>SERVICE ERROR</errMsg><returnAuthMsg>\(name)</returnAuthMsg><returnReasonCode>\(code)</returnReasonCode></cmmMsgHeader></OpenAPI_ServiceResponse>"
    }

    static func headerError(_ code: String, _ message: String) -> String {
        "<response><header><resultCode>\(code)</resultCode><resultMsg>\(message)</resultMsg></header></response>"
    }
}
