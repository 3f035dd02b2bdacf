import Foundation
import Testing
@testable import AreasCore
@testable import AreasIngest
@testable import AreasTestSupport
import AreasTestTraits

@Suite(.offThePool, .timeLimit(.minutes(5)))
final class ConfigTests {
    @Test func bundledConfigsLoad() throws {
        let samples = try AreasConfig.load(path: Fixtures.samplesConfig)
        #expect(samples.sources.map(\.name) == SampleCounts.sourceNames)
        #expect(samples.sources[0].fields == .dataGoKrStandard)
        guard case .recordedPages(let directory) = samples.sources[0].location else { Issue.record(); return }
        #expect(FileManager.default.fileExists(atPath: directory + "/page-1.xml"), Comment(rawValue: directory))
        let live = try AreasConfig.load(path: Fixtures.path("config/areasd.live.json"))
        #expect(live.sources[0].serviceKeyEnv == "DATA_GO_KR_KEY")
        #expect(live.bounds == SyntheticPoints.korea)
        #expect(live.socketMode == 0o660)
        let districts = try AreasConfig.load(path: Fixtures.path("config/areasd.districts.json"))
        #expect(districts.sources.map(\.name) == (["nonsmoking-zones", "seocho", "eunpyeong"]))
        #expect((districts.geocoder?.keyEnv) == "KAKAO_REST_KEY")
    }

    /// The tests' copy of the samples config is the committed `config/areasd.json` (as git
    /// holds it, whatever a person has since edited there), its paths written from its folder.
    @Test func theTestsCopyOfTheSamplesConfigIsTheCommittedOne() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-C", Fixtures.root, "show", "HEAD:config/areasd.json"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let committed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "git cannot show config/areasd.json at HEAD")
        let copy = String(decoding: Data(try Fixtures.bytes(Fixtures.samplesConfigFile)), as: UTF8.self)
        #expect(copy == committed.replacingOccurrences(of: "\"../samples/", with: "\"../../samples/"),
                "\(Fixtures.samplesConfigFile) differs from config/areasd.json as committed: copy it again (paths from Tests/Fixtures)")
    }

    private func error(_ json: String) -> String {
        ConfigRangeTests.error(json, path: "/etc/areasd/areasd.json")
    }

    @Test func badConfigsNameFileKeyAndProblem() {
        let source = #""name":"a","kind":"smoking","format":"odcloud-json","url":"https://x.example/api","fields":{"name":"n","latitude":"y","longitude":"x"}"#
        let cases: [(String, String)] = [
            ("{", "/etc/areasd/areasd.json: invalid JSON"),
            ("{}", "sources: missing"),
            (#"{"sources":[]}"#, "sources: empty"),
            (#"{"sources":[{"name":"a","kind":"smoking","format":"xlsx","url":"https://x"}]}"#, "sources[0].format: unknown format 'xlsx'"),
            (#"{"sources":[{"name":"a","kind":"smoke","format":"odcloud-json"}]}"#, "sources[0].kind: unknown kind 'smoke'"),
            (#"{"sources":[{"name":"a","kind":"smoking","format":"odcloud-json","url":"https://x.example/api"}]}"#, "sources[0].fields: missing"),
            (#"{"sources":[{"name":"a","kind":"smoking","format":"odcloud-json","url":"https://x.example","fields":{"name":"n","latitude":"y"}}]}"#, "sources[0].fields.longitude: missing"),
            ("{\"sources\":[{\(source)},{\(source)}]}", "sources[1].name: duplicate source name 'a'"),
            ("{\"sources\":[{\(source),\"pageSize\":0}]}", "sources[0].pageSize: must be from 1 to 100000"),
            ("{\"sources\":[{\(source),\"pageSize\":\"many\"}]}", "sources[0].pageSize: expected a whole number"),
            ("{\"bounds\":{\"south\":40,\"west\":124,\"north\":39,\"east\":132},\"sources\":[{\(source)}]}", "bounds: south (40.0) must not be above north"),
            ("{\"socketMode\":\"rwx\",\"sources\":[{\(source)}]}", "socketMode: 'rwx' is not an octal mode"),
            ("{\"sources\":[{\(source),\"serviceKeyEnv\":\"KEY-1\"}]}", "serviceKeyEnv: 'KEY-1' is not an environment variable name"),
            (#"{"sources":[{"name":"a","kind":"smoking","format":"data-go-kr-xml","url":"ftp://x"}]}"#, "sources[0].url: 'ftp://x' is not an http(s) URL"),
            ("{\"refreshIntervalSecond\":60,\"sources\":[{\(source)}]}", "refreshIntervalSecond: unknown key (did you mean refreshIntervalSeconds?)"),
            ("{\"sources\":[{\(source),\"pagesize\":5}]}", "sources[0].pagesize: unknown key (did you mean pageSize?)"),
            (#"{"sources":[{"name":"a","kind":"smoking","format":"odcloud-json","url":"https://x.example","fields":{"name":"n","latitude":"y","longitude":"x","adress":"a"}}]}"#, "sources[0].fields.adress: unknown key (did you mean address?)"),
            (#"{"sources":[{"name":"a","kind":"smoking","format":"odcloud-json","url":"https://x.example","fields":{"name":"{설치위치} {상세","latitude":"y","longitude":"x"}}]}"#,
             "sources[0].fields.name: '{설치위치} {상세': '{' without a closing '}' (a name joins columns as \"{column} {column}\")"),
            (#"{"sources":[{"name":"a","kind":"smoking","format":"odcloud-json","url":"https://x.example","fields":{"name":"{} 흡연구역","latitude":"y","longitude":"x"}}]}"#,
             "sources[0].fields.name: '{} 흡연구역': an empty '{}'"),
        ]
        for (json, expected) in cases {
            let message = error(json)
            #expect(message.contains(expected), "\(json)\n got: \(message)\n want: \(expected)")
            #expect(message.hasPrefix("/etc/areasd/areasd.json: "), Comment(rawValue: message))
        }
        #expect((error("{\"sources\":[{\(source)}]}")) == "accepted")
        if let error = #expect(throws: (any Error).self, performing: { try AreasConfig.load(path: "/nonexistent/areasd.json") }) { #expect("\(error)".hasPrefix("/nonexistent/areasd.json: cannot read the file")) }
    }
}
