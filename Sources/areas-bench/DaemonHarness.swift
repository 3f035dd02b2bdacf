import AreasControl
import AreasProtocol
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc
import Synchronization

/// What `faults` and `soak` share: a scratch folder, the areasd binary built beside this one,
/// an upstream on loopback whose behaviour can be switched, and a config pointing at it.
struct DaemonHarness {
    let directory: String
    let samples: String
    let areasd: String
    let upstream: SwitchableUpstream

    init(directory: String) throws {
        samples = FileManager.default.currentDirectoryPath + "/samples"
        guard FileManager.default.fileExists(atPath: samples + "/nonsmoking-zones/page-1.xml") else {
            throw UsageError.wrongArguments("run from the package folder (samples/ not found)")
        }
        areasd = try BuiltBeside.program("areasd")
        self.directory = directory
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        upstream = try SwitchableUpstream(samples: samples + "/nonsmoking-zones")
    }

    func close() {
        upstream.server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A config with one source from the switchable upstream and one from recorded pages.
    func config(snapshot: String) throws -> String {
        let path = directory + "/areasd-\(UUID().uuidString.prefix(6)).json"
        let text = """
            {"snapshot":"\(snapshot)","refreshIntervalSeconds":1e9,"maxShrink":0.5,"idleTimeoutSeconds":30,"sources":[
             {"name":"zones","kind":"nonsmoking","format":"data-go-kr-xml","url":"\(upstream.server.baseURL)/x","timeoutSeconds":1,"retries":1,"retryDelaySeconds":0.05},
             {"name":"yongsan","kind":"smoking","format":"odcloud-json","pages":"\(samples)/yongsan-smoking",
              "fields":{"name":"서울특별시 용산구 설치 위치","latitude":"위도","longitude":"경도"}}]}
            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Sendable static func ask(_ socket: String, _ request: String) -> JSONValue? { DaemonQuestions.ask(socket, request) }
    @Sendable static func ask(_ socket: String, _ request: Request) -> JSONValue? { DaemonQuestions.ask(socket, request) }

    static func waitReady(_ socket: String) -> Bool { DaemonQuestions.waitUntilLoaded(socket, seconds: 10) }
}

/// The upstream: the recorded XML pages, in two alternating variants so every refresh
/// changes the data, with a fault switched in by name.
final class UpstreamSwitches: Sendable {
    let mode = LockedValue<String>("good")
    let variant = Atomic<Int>(0)
}

final class SwitchableUpstream: Sendable {
    let switches = UpstreamSwitches()
    func setMode(_ value: String) { switches.mode.withLock { $0 = value } }
    func nextVariant() { switches.variant.add(1, ordering: .relaxed) }
    let server: LoopbackHTTPServer

    init(samples: String) throws {
        let pages = (1...3).map { [UInt8](FileManager.default.contents(atPath: "\(samples)/page-\($0).xml") ?? Data()) }
        let switches = self.switches
        let mode = switches
        let variant = switches
        server = try LoopbackHTTPServer { request in
            let page = Int(request.query["pageNo"] ?? "1") ?? 1
            let current = mode.mode.withLock { $0 }
            guard page >= 1 && page <= 3 else { return .text(200, "<response><header><resultCode>03</resultCode><resultMsg>NODATA_ERROR</resultMsg></header></response>") }
            var body = pages[page - 1]
            if variant.variant.load(ordering: .relaxed) % 2 == 1 {
                // The second variant renames every zone, so the two data sets share no id.
                body = Array(String(decoding: body, as: UTF8.self).replacingOccurrences(of: "<prhsmkNm>", with: "<prhsmkNm>B ").utf8)
            }
            switch current {
            case "http500": return .text(500, "Internal Server Error")
            case "hang": return page == 2 ? .hang : .body(status: 200, contentType: "text/xml", body)
            case "truncated": return page == 2 ? .body(status: 200, contentType: "text/xml", Array(body.prefix(body.count / 2))) : .body(status: 200, contentType: "text/xml", body)
            case "html": return .text(200, "<!DOCTYPE html><html><body>서비스 점검 중입니다</body></html>", contentType: "text/html")
            case "key-revoked": return .text(200, "<OpenAPI_ServiceResponse><cmmMsgHeader><errMsg>SERVICE ERROR</errMsg><returnAuthMsg>SERVICE_KEY_IS_NOT_REGISTERED_ERROR</returnAuthMsg><returnReasonCode>30</returnReasonCode></cmmMsgHeader></OpenAPI_ServiceResponse>")
            case "quota": return .text(200, "<response><header><resultCode>22</resultCode><resultMsg>LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR</resultMsg></header></response>")
            case "empty-success": return .text(200, "<response><header><resultCode>00</resultCode><resultMsg>NORMAL_SERVICE</resultMsg></header><body><items></items><totalCount>0</totalCount></body></response>")
            case "shrink":
                // One page of 10% of the rows, claiming to be all of them.
                let text = String(decoding: body, as: UTF8.self)
                let items = text.components(separatedBy: "<item>")
                let kept = items.prefix(1 + (items.count - 1) / 10).joined(separator: "<item>")
                return page == 1 ? .text(200, kept + "</items><totalCount>100</totalCount></body></response>", contentType: "text/xml")
                    : .text(200, "<response><header><resultCode>03</resultCode><resultMsg>NODATA_ERROR</resultMsg></header></response>")
            case "dies-between-pages": return page == 1 ? .body(status: 200, contentType: "text/xml", body) : .close
            case "never-finishes": return page == 3 ? .truncated(status: 200, contentType: "text/xml", body, sentBytes: 1000) : .body(status: 200, contentType: "text/xml", body)
            default: return .body(status: 200, contentType: "text/xml", body)
            }
        }
    }
}
