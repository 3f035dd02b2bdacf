import AreasIngest
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc
import Synchronization
import Testing
import AreasTestTraits

/// The fetch worker (`areasd --fetch-worker`, a real child process) against a real loopback
/// server: each answer and each refusal is the one `HTTPClient` gives making the request in
/// this process, which is the oracle; a streamed body arrives whole and an opening is judged by
/// the caller; a worker that dies fails only what it held, and the next request starts another;
/// an idle worker ends; and a daemon's refresh fetches through one that is gone afterwards.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct FetchWorkerTests {
    static func worker(idleSeconds: Double = 0.5) -> FetchWorker {
        FetchWorker(program: Binaries.path("areasd"), arguments: ["areasd", FetchWorker.argument], idleSeconds: idleSeconds)
    }

    /// What a GET came to, comparable between the two ways of making it.
    enum Outcome: Equatable {
        case answered(status: Int, body: [UInt8], etag: String?)
        case refused(UpstreamError)
    }

    static func outcome(_ get: () async throws(UpstreamError) -> PageResponse) async -> Outcome {
        do throws(UpstreamError) {
            let response = try await get()
            return .answered(status: response.status, body: response.body, etag: response.etag)
        } catch {
            return .refused(error)
        }
    }

    static let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }

    @Test(arguments: ["page", "missing", "redirect", "too-large", "drip", "close", "truncated"])
    func theWorkerAnswersAsThisProcessWould(reply: String) async throws {
        let server = try LoopbackHTTPServer { _ in
            switch reply {
            case "page": return .body(status: 200, contentType: "application/json", Self.body)
            case "missing": return .text(404, "no such page")
            case "redirect": return .redirect(status: 302, location: "http://127.0.0.1:1/elsewhere")
            case "too-large": return .body(status: 200, contentType: "text/csv", Self.body)
            case "drip": return .drip(status: 200, contentType: "text/csv", declaredLength: 100_000, interval: 0.2)
            case "close": return .close
            default: return .truncated(status: 200, contentType: "text/csv", Self.body, sentBytes: 1_000)
            }
        }
        defer { server.stop() }
        let worker = Self.worker()
        let url = server.baseURL + "/page?serviceKey=secret", limit = reply == "too-large" ? 100_000 : 1 << 20
        let here = await Self.outcome { () async throws(UpstreamError) in try await HTTPClient.get(url, timeoutSeconds: 2, maxBytes: limit) }
        let there = await Self.outcome { () async throws(UpstreamError) in try await worker.get(url, timeoutSeconds: 2, maxBytes: limit) }
        #expect(there == here)
        if case .answered(let status, let body, _) = there { #expect(status == 200 && body == Self.body || reply == "missing") }
        #expect(worker.workers.started == 1)
    }

    @Test func aStreamedBodyArrivesWholeAfterItsOpeningIsJudged() async throws {
        let server = try LoopbackHTTPServer { request in
            request.path == "/endless" ? .endless(contentType: "application/octet-stream", pattern: Array("NOTASNAPSHOT".utf8))
                : .body(status: 200, contentType: "application/octet-stream", Self.body + Self.body + Self.body)
        }
        defer { server.stop() }
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let worker = Self.worker()
        let judged = Atomic<Int>(0)
        let opening = HTTPClient.Opening(bytes: 16) { first in
            judged.add(1, ordering: .relaxed)
            return first == Array(Self.body.prefix(16)) ? nil : "not what was asked for"
        }
        let file = try FileDescriptor.open(folder + "/body", [.writeOnly, .create, .exclusive], permissions: 0o600)
        defer { file.close() }
        let sink: HTTPClient.BodySink = { (bytes: [UInt8]) throws(SystemError) -> Void in try file.writeAll(bytes) }
        let response = try await worker.get(server.baseURL + "/file", timeoutSeconds: 30, maxBytes: 1 << 30, opening: opening, sink: sink)
        #expect(response.status == 200 && response.body.isEmpty, "the body went to the sink")
        #expect(try WholeFile.read(folder + "/body", limit: 1 << 24) == Self.body + Self.body + Self.body)
        #expect(judged.load(ordering: .relaxed) == 1)

        // A body without end whose opening is refused is cut off there.
        let refusal = await #expect(throws: UpstreamError.self) {
            try await worker.get(server.baseURL + "/endless", timeoutSeconds: 30, maxBytes: 1 << 30, opening: opening, sink: sink)
        }
        #expect(refusal == .transport("not what was asked for"))
        #expect(judged.load(ordering: .relaxed) == 2)
    }

    @Test func aWorkerThatDiesFailsWhatItHeldAndTheNextRequestStartsAnother() async throws {
        let server = try LoopbackHTTPServer { request in request.path == "/hang" ? .hang : .body(status: 200, contentType: "text/plain", Self.body) }
        defer { server.stop() }
        let worker = Self.worker()
        let held = Task { await Self.outcome { () async throws(UpstreamError) in try await worker.get(server.baseURL + "/hang", timeoutSeconds: 60, maxBytes: 1 << 20) } }
        let deadline = MonotonicClock.seconds + 30
        while server.requestCount == 0 && MonotonicClock.seconds < deadline { usleep(10_000) }
        let pid = try #require(worker.workers.running, "no worker runs while a request waits")
        kill(pid, SIGKILL)
        guard case .refused(.transport(let why)) = await held.value else {
            Issue.record("the held request did not fail as a transport error")
            return
        }
        #expect(why.contains("the fetch worker (pid \(pid))") && why.contains("killed by signal 9"), "\(why)")
        let again = try await worker.get(server.baseURL + "/page", timeoutSeconds: 30, maxBytes: 1 << 20)
        #expect(again.body == Self.body)
        #expect(worker.workers.started == 2)
    }

    @Test func manyRequestsAtOnceShareOneWorkerThatEndsWhenIdle() async throws {
        let server = try LoopbackHTTPServer { request in .text(200, "page \(request.query["n"] ?? "")") }
        defer { server.stop() }
        let worker = Self.worker(idleSeconds: 0.3)
        let bodies = await withTaskGroup(of: (Int, String).self) { group in
            for n in 0..<40 {
                group.addTask {
                    let response = try? await worker.get(server.baseURL + "/page?n=\(n)", timeoutSeconds: 30, maxBytes: 1 << 20)
                    return (n, String(decoding: response?.body ?? [], as: UTF8.self))
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(bodies.count == 40 && bodies.allSatisfy { $0.value == "page \($0.key)" })
        #expect(worker.workers.started == 1)
        // Idle, it ends: the daemon closes its side and reaps it.
        let deadline = MonotonicClock.seconds + 10
        while worker.workers.running != nil && MonotonicClock.seconds < deadline { usleep(20_000) }
        #expect(worker.workers.running == nil, "the worker still runs 10 s after its last request")
    }
}

/// areasd itself fetches through a worker: one runs while a source's page is being answered,
/// it is areasd's own child run as `--fetch-worker`, none is left once the refresh is done, and
/// one killed mid-refresh costs the source a retry, not its data.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5))) struct DaemonFetchWorkerTests {
    private let daemons = StartedDaemons()
    private let folder = Fixtures.temporaryDirectory()
    private let daemonPID = LockedValue<Int32>(0)
    static let rows = (try? WholeFile.read(Fixtures.path("samples/overlap/yongsan-district.csv"), limit: 1 << 20)) ?? nil

    /// Starts areasd on one CSV source at `server`; the daemon is killed and the folder removed
    /// when the test ends, however it ends.
    private func startDaemon(_ server: LoopbackHTTPServer) throws -> (pid: Int32, socket: String) {
        try """
            {"snapshot": "\(folder)/areas.snapshot", "sources": [
             {"name": "district", "kind": "smoking", "format": "csv", "url": "\(server.baseURL)/rows.csv", "province": "서울특별시",
              "retryDelaySeconds": 0.1, "fields": {"name": "설치위치", "latitude": "위도", "longitude": "경도"}}]}
            """.write(toFile: folder + "/areasd.json", atomically: true, encoding: .utf8)
        let socket = folder + "/areasd.sock"
        let (process, _) = try daemons.start(["--config", folder + "/areasd.json", "--socket", socket])
        daemonPID.withLock { $0 = process.processIdentifier }
        return (process.processIdentifier, socket)
    }

    /// The daemon's children while a page is asked for, as their command lines by pid.
    private static func workers(of daemon: LockedValue<Int32>) -> [Int32: String] {
        let started = MonotonicClock.seconds
        while daemon.withLock({ $0 }) == 0 && MonotonicClock.seconds < started + 10 { usleep(1_000) }
        return Dictionary(uniqueKeysWithValues: ProcessChildren.of(daemon.withLock { $0 }).map { child in
            (child, ((try? String(contentsOfFile: "/proc/\(child)/cmdline", encoding: .utf8)) ?? "").split(separator: "\0").joined(separator: " "))
        })
    }

    @Test func aRefreshFetchesThroughAWorkerThatEndsAfterIt() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rows = try #require(Self.rows)
        let seen = LockedValue<[String]>([])
        let server = try LoopbackHTTPServer { [daemonPID] _ in
            let workers = Self.workers(of: daemonPID)
            seen.withLock { $0 += workers.values }
            return .body(status: 200, contentType: "text/csv", rows)
        }
        defer { server.stop() }
        let (pid, socket) = try startDaemon(server)
        #expect(DaemonQuestions.waitUntilLoaded(socket, seconds: 30))
        let stats = try #require(DaemonQuestions.ask(socket, #"{"op":"stats"}"#))
        #expect(stats["bySource"]?["district"]?["areas"]?.double == 62)
        #expect(seen.withLock { $0 } .contains { $0.hasSuffix("areasd --fetch-worker") }, "\(seen.withLock { $0 })")
        let deadline = MonotonicClock.seconds + 15
        var left = [Int32(-1)]
        while MonotonicClock.seconds < deadline {
            left = ProcessChildren.of(pid)
            if left.isEmpty { break }
            usleep(50_000)
        }
        #expect(left.isEmpty, "a worker still runs 15 s after the refresh: \(left)")
    }

    @Test func aWorkerKilledMidRefreshCostsTheSourceARetry() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rows = try #require(Self.rows)
        let fetchers = LockedValue<[Int32]>([])
        let server = try LoopbackHTTPServer { [daemonPID] _ in
            let workers = Self.workers(of: daemonPID).keys.sorted()
            let first = fetchers.withLock { seen in
                seen += workers
                return seen.count == workers.count
            }
            guard first, let worker = workers.first else { return .body(status: 200, contentType: "text/csv", rows) }
            // The first request's worker dies while the answer is being made.
            kill(worker, SIGKILL)
            usleep(200_000)
            return .body(status: 200, contentType: "text/csv", rows)
        }
        defer { server.stop() }
        let (_, socket) = try startDaemon(server)
        #expect(DaemonQuestions.waitUntilLoaded(socket, seconds: 30))
        let stats = try #require(DaemonQuestions.ask(socket, #"{"op":"stats"}"#))
        #expect(stats["bySource"]?["district"]?["areas"]?.double == 62, "\(stats["bySource"] ?? .null)")
        #expect(server.requestCount == 2)
        let workers = fetchers.withLock { $0 }
        #expect(workers.count == 2 && Set(workers).count == 2, "a second worker fetched the retry: \(workers)")
    }
}
