import AreasCore
import AreasProtocol
import Foundation
import Synchronization
import Testing
@testable import AreasIngest
@testable import AreasTestSupport
import AreasTestTraits

/// `areasd --discover` and `areasd --dry-run` as an operator runs them: real processes, the
/// bundled files, a real local HTTP server for a URL.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct DiscoverCommandTests {
    @Test func printsOneSourceToPasteAndAReportForAPerson() throws {
        let file = Fixtures.path("samples/discovery/songpa-xy.csv")
        let (status, stdout, stderr) = try Binaries.run("areasd", ["--discover", file, "--name", "songpa"])
        #expect(status == 0, "\(stderr)")
        let block = try JSONParser.parse(Array(stdout.utf8))
        #expect(block["name"]?.string == "songpa")
        #expect(block["file"]?.string == file, "the path as given")
        #expect(block["fields"]?["latitude"]?.string == "Y" && block["fields"]?["longitude"]?.string == "X")
        #expect(stderr.contains("columns chosen:") && stderr.contains("35 with usable positions"), "\(stderr)")

        // Pasted into a config as printed, it is a valid source.
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(#"{"snapshot": "\#(folder)/a.snapshot", "sources": [\#(stdout)]}"#.utf8).write(to: URL(fileURLWithPath: folder + "/areasd.json"))
        let check = try Binaries.run("areasd", ["--check-config", "--config", folder + "/areasd.json"])
        #expect(check.status == 0, "\(check.stderr)")
    }

    /// An address-only district file (Jungnang's real one) served with no geocoder at all: the
    /// positions template lists each row to place; filled in by hand and named in the config,
    /// it places every row, and a row left out is rejected saying it is not in the file.
    @Test func anAddressOnlyFileIsServedOfflineThroughAPositionsFile() throws {
        let file = Fixtures.path("Tests/RealData/seoul-jungnang-smoking-facilities-20260212.csv")
        let block = try Binaries.run("areasd", ["--discover", file, "--name", "jungnang", "--kind", "smoking"])
        #expect(block.status == 0, "\(block.stderr)")
        let template = try Binaries.run("areasd", ["--discover", file, "--name", "jungnang", "--kind", "smoking", "--positions-template"])
        #expect(template.status == 0 && template.stderr.contains("243 rows to place"), "\(template.stderr)")
        var lines = template.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "source,name,query,latitude,longitude")
        let rows = lines.dropFirst()
        #expect(rows.count > 200 && rows.allSatisfy { $0.hasPrefix("jungnang,") && $0.hasSuffix(",,") }, "\(rows.prefix(3))")
        // A person fills in each position (here: a grid over Jungnang), and leaves the last out.
        for i in 1..<lines.count - 1 {
            lines[i] = String(lines[i].dropLast(2)) + ",\(37.58 + Double(i % 20) * 0.002),\(127.08 + Double(i / 20) * 0.002)"
        }
        lines.removeLast()
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/positions.csv"))
        try Data(#"{"snapshot": "\#(folder)/a.snapshot", "positions": "positions.csv", "sources": [\#(block.stdout)]}"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/areasd.json"))
        let dryRun = try Binaries.run("areasd", ["--dry-run", "--config", folder + "/areasd.json"], seconds: 60)
        #expect(dryRun.stdout.contains("\(rows.count - 1) from the positions file"), "\(dryRun.stdout)\(dryRun.stderr)")
        #expect(dryRun.stdout.contains("not in the positions file 1"), "\(dryRun.stdout)")
    }

    /// The same file with a geocoder that cannot place it: the samples' recording (which does
    /// not hold Jungnang's addresses), and one that answers every request with HTTP 503. The
    /// dry run says which, stops asking the failing one after a few questions, and names the
    /// positions file as the way to serve the rows without it (it advised `--discover`, which
    /// had already read the fields right, and asked for every row for a minute).
    @Test func anAddressOnlyFileTheGeocoderCannotPlaceNamesThePositionsFile() throws {
        let file = Fixtures.path("Tests/RealData/seoul-jungnang-smoking-facilities-20260212.csv")
        let block = try Binaries.run("areasd", ["--discover", file, "--name", "jungnang", "--kind", "smoking"])
        try #require(block.status == 0, "\(block.stderr)")
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = Fixtures.path("samples/geocoder/kakao-answers.json")
        try Data(#"{"geocoder": {"provider": "kakao", "recorded": "\#(recording)"}, "sources": [\#(block.stdout)]}"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/recorded.json"))
        let recorded = try Binaries.run("areasd", ["--dry-run", "--config", folder + "/recorded.json"], seconds: 60)
        #expect(recorded.status == 1)
        let saidRecorded = recorded.stdout + recorded.stderr
        #expect(saidRecorded.contains("the geocoder found none of 243 addresses (its recorded answers, \(recording), do not hold these addresses)"), "\(saidRecorded)")
        #expect(saidRecorded.contains("areasd --discover \(file) --positions-template > positions.csv"), "\(saidRecorded)")
        #expect(!saidRecorded.contains("check its fields"), "\(saidRecorded)")

        let requests = Atomic(0)
        let server = try LoopbackHTTPServer { _ in
            requests.add(1, ordering: .relaxed)
            return .body(status: 503, contentType: "text/plain", Array("maintenance".utf8))
        }
        defer { server.stop() }
        try Data(#"{"geocoder": {"provider": "kakao", "url": "\#(server.baseURL)", "keyEnv": "DISCOVER_TEST_KEY", "requestsPerSecond": 1000, "retries": 1, "timeoutSeconds": 2}, "sources": [\#(block.stdout)]}"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/down.json"))
        let down = try Binaries.run("areasd", ["--dry-run", "--config", folder + "/down.json"], environment: ["DISCOVER_TEST_KEY": "k"], seconds: 60)
        #expect(down.status == 1)
        let saidDown = down.stdout + down.stderr
        #expect(saidDown.contains("the geocoder could not be asked for 243: the geocoder did not answer 3 questions in a row (the last: "), "\(saidDown)")
        #expect(saidDown.contains("--positions-template > positions.csv"), "\(saidDown)")
        // The first question alone, then four at a time: the third failure stops those after it,
        // each tried twice (retries 1).
        let made = requests.load(ordering: .relaxed)
        #expect(made >= 6 && made <= 2 * (1 + 4 + 2), "\(made) requests for 243 addresses")
    }

    @Test(arguments: [
        (["--discover", "samples/discovery/mapo-partial-coordinates.csv"], Int32(1), "give --kind smoking or --kind nonsmoking"),
        (["--discover", "samples/discovery/mapo-partial-coordinates.csv", "--kind", "smoking"], Int32(0), "24 to geocode"),
        (["--discover", "samples/no-such-file.csv"], Int32(1), "no such file"),
        (["--discover", "samples/discovery/mapo-partial-coordinates.csv", "--kind", "vaping"], Int32(2), "--kind"),
        (["--kind", "smoking"], Int32(2), "--kind, --name and --positions-template go with --discover"),
        (["--positions-template"], Int32(2), "go with --discover"),
        (["--discover", "samples/discovery/songpa-xy.csv", "--name", "a b"], Int32(2), "--name"),
    ])
    func exitStatus(arguments: [String], status: Int32, says: String) throws {
        let arguments = arguments.map { $0.hasPrefix("samples/") ? Fixtures.path($0) : $0 }
        let result = try Binaries.run("areasd", arguments)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(says), "\(result.stderr)")
        if status != 0 { #expect(result.stdout.isEmpty || status == 1, "nothing to paste on bad usage") }
        // A kind neither the file nor --kind said is not printed as if it were known.
        if says.contains("give --kind") { #expect(!result.stdout.contains("\"kind\""), "\(result.stdout)") }
    }

    /// A URL: one GET; the key in it is not printed, and a redirect is not followed.
    @Test func aURLIsFetchedOnceAndItsKeyStaysOut() throws {
        let csv = try Fixtures.bytes("samples/discovery/seongdong-category.csv")
        let upstream = try LoopbackHTTPServer { request in
            request.path == "/file.csv" ? .body(status: 200, contentType: "text/csv", csv) : .redirect(status: 302, location: "http://127.0.0.1:1/elsewhere")
        }
        defer { upstream.stop() }
        let result = try Binaries.run("areasd", ["--discover", upstream.baseURL + "/file.csv?serviceKey=SECRET", "--name", "seongdong"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("SECRET") && !result.stderr.contains("SECRET"))
        let block = try JSONParser.parse(Array(result.stdout.utf8))
        #expect(block["url"]?.string == upstream.baseURL + "/file.csv")
        #expect(block["serviceKeyEnv"]?.string == "DATA_GO_KR_KEY")
        #expect(upstream.requestCount == 1)

        let redirected = try Binaries.run("areasd", ["--discover", upstream.baseURL + "/moved.csv"])
        #expect(redirected.status == 1)
        #expect(redirected.stderr.contains("a redirect, which is not followed"), "\(redirected.stderr)")
    }

    /// A source whose every row is rejected (its latitude read from the longitude's column, as
    /// a changed API would have it) does not work: the dry run exits 1 naming it, the daemon
    /// marks it failed in `sources` and health names it; the other sources serve. (It passed
    /// as "updated", serving 0 areas, with health ok.)
    @Test func aSourceWhoseEveryRowIsRejectedFails() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = try Fixtures.sampleConfig(in: folder)
        let text = try String(contentsOfFile: config, encoding: .utf8)
        let yongsan = try #require(text.range(of: #""pages": "\#(Fixtures.root)/samples/yongsan-smoking""#))
        let fields = try #require(text.range(of: #""latitude": "위도",\#n        "longitude": "경도","#, range: yongsan.upperBound..<text.endIndex))
        try text.replacingCharacters(in: fields, with: #""latitude": "경도",\#n        "longitude": "경도","#).write(toFile: config, atomically: true, encoding: .utf8)
        let dry = try Binaries.run("areasd", ["--dry-run", "--config", config, "--snapshot", folder + "/dry.snapshot"], seconds: 120)
        #expect(dry.status == 1, "\(dry.stdout)\(dry.stderr)")
        let said = dry.stdout + dry.stderr
        #expect(said.contains("source yongsan: failed") && said.contains("every one of its 57 rows was rejected, so it has nothing to serve"), "\(said)")

        let socket = folder + "/areasd.sock"
        let (process, log) = try Binaries.startDaemon(["--config", config, "--socket", socket])
        defer { kill(process.processIdentifier, SIGTERM); _ = process.waitUntilExit(seconds: 20); _ = log.readToEnd() }
        #expect(DaemonQuestions.waitUntilLoaded(socket))
        let sources = try #require(DaemonQuestions.ask(socket, #"{"op":"sources"}"#)?["sources"]?.array)
        let failed = try #require(sources.first { $0["name"]?.string == "yongsan" })
        #expect(failed["lastStatus"]?.string == "failed" && failed["areas"]?.double == 0, "\(failed)")
        let health = try #require(DaemonQuestions.ask(socket, #"{"op":"health"}"#))
        #expect(health["healthy"]?.bool == false, "\(health)")
        #expect("\(health)".contains("yongsan"), "health names the source: \(health)")
        let stats = try #require(DaemonQuestions.ask(socket, #"{"op":"stats"}"#))
        #expect(stats["areas"]?.double == Double(SampleCounts.total - SampleCounts.yongsan))
    }

    /// A dry run refreshes the sample config and reports; the snapshot and geocoder memory
    /// the config names are neither made nor changed.
    @Test func aDryRunTouchesNothing() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = try Fixtures.sampleConfig(in: folder)
        let snapshot = folder + "/areas.snapshot"
        let memory = SnapshotFolder(snapshot: snapshot).geocoderMemory
        // A daemon's memory of positions is read, never written.
        let remembered = Array(#"{"version": 1, "entries": {}}"#.utf8)
        try Data(remembered).write(to: URL(fileURLWithPath: memory))
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let result = try Binaries.run("areasd", ["--dry-run", "--config", config, "--snapshot", snapshot], seconds: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("nothing is served, written or kept"))
        for name in SampleCounts.sourceNames { #expect(result.stdout.contains("source \(name): updated"), "\(name)\n\(result.stdout)") }
        #expect(result.stdout.contains("would serve \(SampleCounts.total) areas"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: snapshot))
        #expect(FileManager.default.contents(atPath: memory).map([UInt8].init) == remembered)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before)
    }
}
