import AreasCore
import AreasIngest
import AreasSystem
import Foundation

/// The package's own files (recorded pages under samples/, configs, fuzz regressions) and the
/// configuration values the tests build on.
package enum Fixtures {
    /// A fixture file that is not there: a test that reads it fails naming the path, rather than
    /// going on with an empty page.
    package struct MissingFile: Error, CustomStringConvertible {
        package let path: String
        package var description: String { "fixture file missing: \(path)" }
    }

    /// The package's root folder.
    package static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    package static func path(_ relative: String) -> String { root + "/" + relative }

    /// The tests' own copy of the samples config (`config/areasd.json`, its paths from
    /// `Tests/Fixtures`): the README tells people to edit that file, and a test must not serve
    /// an HTTP port or a regions folder someone added to it. `ConfigTests` keeps the two alike.
    package static let samplesConfigFile = "Tests/Fixtures/areasd.samples.json"
    package static var samplesConfig: String { path(samplesConfigFile) }

    package static func bytes(_ relative: String) throws(MissingFile) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(relative)) else {
            throw MissingFile(path: path(relative))
        }
        return [UInt8](data)
    }

    /// Page `n` of the recorded non-smoking-zone answer.
    package static func xmlPage(_ n: Int) throws(MissingFile) -> [UInt8] {
        try bytes("samples/nonsmoking-zones/page-\(n).xml")
    }

    /// Every recorded non-smoking-zone page, in order.
    package static func xmlPages() throws(MissingFile) -> [[UInt8]] {
        try (1...SampleCounts.nonSmokingZonePages).map { n throws(MissingFile) in try xmlPage(n) }
    }

    /// A new folder for one test. Every one made is removed when the test process exits,
    /// whatever the test did: a test that fails before its own clean-up leaves nothing behind.
    /// Opens the FIFO at `path` for writing, if a reader waits on it, and closes it again: a
    /// reader blocked in open(2) or read(2) then returns (with end of file).
    package static func openAndCloseWriter(_ path: String) {
        let fd = open(path, O_WRONLY | O_NONBLOCK)
        if fd >= 0 { close(fd) }
    }

    package static func temporaryDirectory() -> String {
        _ = removedAtExit
        let path = NSTemporaryDirectory() + "areas-test-" + UUID().uuidString.prefix(8)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        madeFolders.withLock { $0.append(path) }
        return path
    }

    private static let madeFolders = LockedValue<[String]>([])
    private static let removedAtExit: Void = {
        atexit {
            for folder in Fixtures.madeFolders.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: folder) }
        }
    }()

    /// One source with the test defaults: short retry delays, four pages at once.
    package static func source(
        name: String = "zones", kind: AreaKind = .nonsmoking, format: SourceFormat = .dataGoKrXML,
        url: String, keyEnv: String? = nil, pageSize: Int = 1000, fields: FieldMapping = .dataGoKrStandard,
        timeout: Double = 60, retries: Int = 3, maxPages: Int = 100
    ) -> SourceConfig {
        SourceConfig(
            name: name, kind: kind, format: format, location: .url(url), serviceKeyEnv: keyEnv,
            pageSize: pageSize, fields: fields, concurrency: 4, timeoutSeconds: timeout, retries: retries,
            retryDelaySeconds: 0.01, maxPages: maxPages, maxShrink: 0.5, province: nil)
    }

    /// A whole configuration around `sources`, with the documented defaults.
    package static func config(_ sources: [SourceConfig]) -> AreasConfig {
        AreasConfig(
            path: "test.json", socket: nil, socketMode: 0o660, socketGroup: nil, snapshot: nil,
            bounds: .korea, refreshIntervalSeconds: 3600, maxResults: 10_000,
            maxConnections: 100, idleTimeoutSeconds: 60, adminUids: [], logLevel: nil, sources: sources)
    }

    /// The gateway's own error envelope (a bad key, an over-quota key).
    package static func gatewayError(_ code: String, _ name: String) -> String {
        "<OpenAPI_ServiceResponse><cmmMsgHeader><errMsg>SERVICE ERROR</errMsg><returnAuthMsg>\(name)</returnAuthMsg><returnReasonCode>\(code)</returnReasonCode></cmmMsgHeader></OpenAPI_ServiceResponse>"
    }

    /// A data.go.kr answer whose header carries a result code other than 00.
    package static func headerError(_ code: String, _ message: String) -> String {
        "<response><header><resultCode>\(code)</resultCode><resultMsg>\(message)</resultMsg></header></response>"
    }
}
