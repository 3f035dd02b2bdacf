import AreasTestSupport
import Foundation
import Testing
import AreasCore
import AreasTestTraits
@testable import AreasServer
@testable import AreasSystem

/// `areasd --check-config` and start-up, as the real binary runs them.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct CheckConfigTests {
    /// The daemons this test starts, killed when it ends however it ends.
    private let daemons = StartedDaemons()

    /// Runs areasd to its exit, with no key variables set unless `environment` gives them.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (code: Int32, out: String, err: String) {
        let unset = ["NOTIFY_SOCKET": "", "DATA_GO_KR_KEY": "", "KAKAO_REST_KEY": ""]
        let result = try Binaries.run("areasd", arguments, environment: unset.merging(environment) { $1 })
        return (result.status, result.stdout, result.stderr)
    }

    @Test func theBundledConfigIsValid() throws {
        let result = try Self.run(["--check-config", "--config", Fixtures.path("config/areasd.json")])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.contains("valid (\(SampleCounts.sourceNames.count) sources)"))
    }

    /// The config install.sh puts in /etc/areasd works as installed: it needs only the key.
    @Test func theInstalledConfigNeedsOnlyItsKey() throws {
        let live = Fixtures.path("config/areasd.live.json")
        let result = try Self.run(["--check-config", "--config", live])
        #expect(result.code == 78)
        #expect(result.err.contains("serviceKeyEnv: the environment variable DATA_GO_KR_KEY is not set"), "\(result.err)")
        let withKey = try Self.run(["--check-config", "--config", live], environment: ["DATA_GO_KR_KEY": "k"])
        #expect(withKey.code == 0, "\(withKey.err)")
    }

    /// The installed config started without its key, as `systemctl enable --now` before the
    /// key file is filled in: the daemon starts (no exit 78, no restart loop), and `health`,
    /// a query and the log name the variable and the file it is read from.
    @Test func aStartWithoutItsKeyServesAndNamesTheVariable() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let socket = folder + "/areasd.sock"
        let (daemon, log) = try daemons.start(["--config", Fixtures.path("config/areasd.live.json"), "--socket", socket, "--snapshot", folder + "/areas.snapshot"],
                                              environment: ["DATA_GO_KR_KEY": ""])
        let named = DaemonQuestions.waitUntil(seconds: 20) {
            (DaemonQuestions.ask(socket, #"{"op":"health"}"#)?["problem"]?.string ?? "").contains("DATA_GO_KR_KEY")
        }
        #expect(named, "\(String(describing: DaemonQuestions.ask(socket, #"{"op":"health"}"#)))")
        #expect(daemon.isRunning)
        let health = try Binaries.run("areasctl", ["--socket", socket, "health"])
        #expect(health.status == 1, "\(health.stdout)\(health.stderr)")
        #expect(health.stderr.contains("unhealthy: no data loaded: the last refresh failed (") && health.stderr.contains("DATA_GO_KR_KEY is not set")
                && health.stderr.contains("/etc/areasd/areasd.env"), "\(health.stderr)")
        let near = try Binaries.run("areasctl", ["--socket", socket, "near", "37.53", "126.97"])
        #expect(near.status == 1 && near.stderr.contains("unavailable: ") && near.stderr.contains("DATA_GO_KR_KEY"), "\(near.stderr)")
        let said = log.text
        #expect(said.contains("warning") && said.contains("DATA_GO_KR_KEY is not set") && said.contains("/etc/areasd/areasd.env"), "\(said)")
    }

    /// The district example names its geocoder's key and the files an operator downloads.
    @Test func theDistrictExampleNamesWhatItNeeds() throws {
        let districts = Fixtures.path("config/areasd.districts.json")
        let result = try Self.run(["--check-config", "--config", districts])
        #expect(result.code == 78)
        #expect(result.err.contains("serviceKeyEnv: the environment variable DATA_GO_KR_KEY is not set"), "\(result.err)")
        #expect(result.err.contains("geocoder.keyEnv: the environment variable KAKAO_REST_KEY is not set"), "\(result.err)")
        // With the keys set, what is left is the files an operator downloads: warnings, as they
        // are to the daemon, which starts without them.
        let withKeys = try Self.run(["--check-config", "--config", districts], environment: ["DATA_GO_KR_KEY": "k", "KAKAO_REST_KEY": "k"])
        #expect(!withKeys.err.contains("environment variable"), "\(withKeys.err)")
        #expect(withKeys.code == 0, "\(withKeys.err)")
        #expect(withKeys.out.contains("valid (3 sources), 3 warnings"), "\(withKeys.out)")
        #expect(withKeys.err.contains("warning:") && withKeys.err.contains("cannot read") && withKeys.err.contains("no such file"), "\(withKeys.err)")
    }

    /// Recorded pages of the national XML API that leave out columns the format maps by
    /// default (`lnmadr`, `referenceDate`, as a real page leaves out an empty element): the
    /// config names none of them, so the check passes, the daemon starts and serves the zones
    /// with those values empty; a column the config names itself is still checked.
    @Test func aPageWithoutTheFormatsDefaultColumnsStarts() throws {
        let folder = Fixtures.temporaryDirectory()
        let pages = folder + "/pages"
        try FileManager.default.createDirectory(atPath: pages, withIntermediateDirectories: true)
        var page = String(decoding: try Fixtures.xmlPage(1), as: UTF8.self)
        for element in ["lnmadr", "referenceDate"] {
            page = page.replacingOccurrences(of: "<\(element)>[^<]*</\(element)>", with: "", options: .regularExpression)
            page = page.replacingOccurrences(of: "<\(element)/>", with: "")
        }
        #expect(!page.contains("<lnmadr") && !page.contains("<referenceDate"))
        try Data(page.utf8).write(to: URL(fileURLWithPath: pages + "/page-1.xml"))
        let config = folder + "/areasd.json"
        try Data(#"{"snapshot": "areas.snapshot", "sources": [{"name": "zones", "kind": "nonsmoking", "format": "data-go-kr-xml", "pages": "pages"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: config))
        let checked = try Self.run(["--check-config", "--config", config])
        #expect(checked.code == 0, "\(checked.err)")
        let socket = folder + "/areasd.sock"
        _ = try daemons.start(["--config", config, "--socket", socket])
        #expect(DaemonQuestions.waitUntilLoaded(socket), "the daemon never served the page")
        let stats = DaemonQuestions.ask(socket, #"{"op":"stats"}"#)
        #expect((stats?["areas"]?.double ?? 0) > 500, "\(String(describing: stats))")
        // Named by the config, the same column must be there.
        try Data(#"{"snapshot": "areas.snapshot", "sources": [{"name": "zones", "kind": "nonsmoking", "format": "data-go-kr-xml", "pages": "pages", "fields": {"name": "prhsmkNm", "latitude": "latitude", "longitude": "longitude", "referenceDate": "referenceDate"}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: config))
        let named = try Self.run(["--check-config", "--config", config])
        #expect(named.code == 78 && named.err.contains("fields.referenceDate: column 'referenceDate' is not in"), "\(named.err)")
    }

    /// A geocode template that names a column the file does not have is found before any
    /// refresh, by --check-config and by start-up alike, naming the key, the column and the
    /// columns there are.
    @Test func aTemplateColumnTheFileLacks() throws {
        let folder = Fixtures.temporaryDirectory()
        try Data("번호,장소,주소\n1,흡연부스,중앙로 1\n".utf8).write(to: URL(fileURLWithPath: folder + "/rows.csv"))
        let config = """
            {"snapshot": "areas.snapshot", "geocoder": {"provider": "kakao", "recorded": "\(Fixtures.root)/samples/geocoder/kakao-answers.json"},
             "sources": [{"name": "rows", "kind": "smoking", "format": "csv", "file": "rows.csv",
               "fields": {"name": "장소"}, "geocode": {"query": "{시군구명} {주소}"}}]}
            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: folder + "/areasd.json"))
        let check = try Self.run(["--check-config", "--config", folder + "/areasd.json"])
        #expect(check.code == 78)
        #expect(check.err.contains("sources[0].geocode: column '시군구명' is not in \(folder)/rows.csv (its columns: "), "\(check.err)")
        let start = try Self.run(["--config", folder + "/areasd.json", "--socket", folder + "/s"])
        #expect(start.code == 78)
        #expect(start.err.contains("column '시군구명' is not in"), "\(start.err)")
    }

    /// Every problem on a line of its own, in one run: each unknown key, each bad source; a
    /// syntax error with its line and column; a recorded API's field named wrong, found in its
    /// first page (it passed, and the dry run then blamed the data: "missing coordinates 57").
    @Test func everyProblemIsSaidAtOnceWhereItIs() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let several = #"""
            {
              "sorces": [],
              "logLevell": "info",
              "sources": [
                {"name": "a", "kind": "smokin", "format": "csv", "file": "a.csv", "fields": {"name": "n", "latitude": "y", "longitude": "x"}},
                {"name": "b", "kind": "smoking", "format": "cvs", "file": "b.csv"},
                {"name": "yongsan", "kind": "smoking", "format": "odcloud-json", "pages": "\#(Fixtures.root)/samples/yongsan-smoking",
                 "fields": {"name": "서울특별시 용산구 설치 위치", "latitude": "위도(WGS84)", "longitude": "경도"}}
              ]
            }
            """#
        try Data(several.utf8).write(to: URL(fileURLWithPath: folder + "/several.json"))
        let check = try Self.run(["--check-config", "--config", folder + "/several.json"])
        #expect(check.code == 78)
        let lines = check.err.split(separator: "\n").map(String.init)
        for expected in ["sorces: unknown key (did you mean sources?)", "logLevell: unknown key (did you mean logLevel?)",
                         "sources[0].kind: unknown kind 'smokin'", "sources[1].format: unknown format 'cvs'"] {
            #expect(lines.contains { $0.hasPrefix("areasd: \(folder)/several.json: ") && $0.contains(expected) }, "\(expected) in \(check.err)")
        }
        // A recorded API's field, checked against its first page once the file is a config.
        let field = #"""
            {"sources": [{"name": "yongsan", "kind": "smoking", "format": "odcloud-json", "pages": "\#(Fixtures.root)/samples/yongsan-smoking",
                          "fields": {"name": "서울특별시 용산구 설치 위치", "latitude": "위도(WGS84)", "longitude": "경도"}}]}
            """#
        try Data(field.utf8).write(to: URL(fileURLWithPath: folder + "/field.json"))
        let fieldCheck = try Self.run(["--check-config", "--config", folder + "/field.json"])
        #expect(fieldCheck.code == 78)
        #expect(fieldCheck.err.contains("sources[0].fields.latitude: column '위도(WGS84)' is not in \(Fixtures.root)/samples/yongsan-smoking/page-1.json (its columns: "), "\(fieldCheck.err)")

        try Data("{\n  \"sources\": [\n    {\"name\": \"a\",, \"kind\": \"smoking\"}\n  ]\n}\n".utf8).write(to: URL(fileURLWithPath: folder + "/syntax.json"))
        let syntax = try Self.run(["--check-config", "--config", folder + "/syntax.json"])
        #expect(syntax.code == 78)
        #expect(syntax.err.contains("syntax.json: invalid JSON at line 3, column 18: "), "\(syntax.err)")
    }

    @Test func aMissingFileIsNamedByCheckConfig() throws {
        let folder = Fixtures.temporaryDirectory()
        try Data(#"{"sources": [{"name": "rows", "kind": "smoking", "format": "csv", "file": "gone.csv", "fields": {"name": "a", "latitude": "b", "longitude": "c"}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/areasd.json"))
        let check = try Self.run(["--check-config", "--config", folder + "/areasd.json"])
        #expect(check.code == 0)
        #expect(check.err.contains("warning: \(folder)/areasd.json: sources[0].file: cannot read \(folder)/gone.csv: no such file"), "\(check.err)")
        // As the daemon does: it starts, and the source fails until the file is there.
        let socket = folder + "/s.sock"
        let (daemon, log) = try daemons.start(["--config", folder + "/areasd.json", "--socket", socket, "--snapshot", folder + "/a.snapshot"])
        defer { kill(daemon.processIdentifier, SIGTERM); _ = daemon.waitUntilExit(seconds: 20); _ = log.readToEnd() }
        #expect(DaemonQuestions.waitUntil(seconds: 20) {
            DaemonQuestions.ask(socket, #"{"op":"stats"}"#)?["bySource"]?["rows"]?["lastError"]?.string?.contains("gone.csv") == true
        }, "\(log.text)")
    }

    @Test(arguments: ["areasd", "areasctl"])
    func versionAndHelp(binary: String) throws {
        let version = try Binaries.run(binary, ["--version"])
        #expect(version.status == 0 && version.stdout == "\(binary) \(AreasVersion.current)\n")
        let help = try Binaries.run(binary, ["--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: \(binary)") && help.stderr.isEmpty)
        let wrong = try Binaries.run(binary, ["--no-such-flag"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.hasSuffix("run '\(binary) --help' for usage\n"), "\(wrong.stderr)")
        #expect(wrong.stderr.split(separator: "\n").count == 2, "one line and the hint, not the whole usage")
    }

    @Test func helpGoesToStandardOutput() throws {
        let result = try Self.run(["--help"])
        #expect(result.code == 0)
        #expect(result.out.hasPrefix("usage: areasd"))
        #expect(result.err.isEmpty)
    }
}

/// areasd run by hand as root takes the installed service's socket by default: its start line
/// says so, and how to run beside the service; under systemd (`INVOCATION_ID`) or on another
/// socket it says nothing more.
@Suite struct SharedSocketNoteTests {
    @Test func aRootDaemonByHandIsToldItsSocketIsTheServices() {
        #expect(Daemon.sharedSocketNote("/run/areasd/areasd.sock", environment: [:]).contains("the installed service's socket: --socket PATH runs beside it"))
        #expect(Daemon.sharedSocketNote("/run/areasd/areasd.sock", environment: ["INVOCATION_ID": "0f3c"]) == "")
        #expect(Daemon.sharedSocketNote("/tmp/areasd-0/areasd.sock", environment: [:]) == "")
        #expect(DefaultPaths.socket(environment: [:], uid: 0) == "/run/areasd/areasd.sock")
    }
}
