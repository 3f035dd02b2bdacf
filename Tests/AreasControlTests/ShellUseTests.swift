import AreasControl
import AreasCore
import AreasProtocol
import AreasSystem
import Testing
import AreasTestTraits

/// areasctl as a shell user meets it: values it can tell are wrong are usage errors (exit 2)
/// with the fix in the message, every format prints what it names for every command, and
/// `check` answers a script with its exit status.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ShellUseTests {
    @Test(arguments: [
        (["bbox", "38", "126", "37", "127"], "SOUTH (38) is north of NORTH (37)"),
        (["bbox", "37", "127", "38", "126"], "WEST (127) is east of EAST (126)"),
        (["bbox", "126.9", "37.5", "127.0", "37.6"], "try: areasctl bbox 37.5 126.9 37.6 127"),
        (["bbox", "37", "126", "38", "200"], "EAST must be between -180 and 180"),
        (["clusters", "38", "126", "37", "127", "--zoom", "10"], "SOUTH (38) is north of NORTH (37)"),
        (["along", "126.97,37.55", "126.98,37.56"], "126.97,37.55: latitude and longitude look swapped (try 37.55,126.97)"),
        (["along", "37.55,126.97", "37.56,190"], "37.56,190 is not a position"),
        (["radius", "37.5", "127", "-5"], "METERS must be from 0 to 20100000, got -5"),
        (["radius", "37.5", "127", "1e9"], "METERS must be from 0 to 20100000"),
        (["near", "37.5", "127", "-k", "0"], "-k 0 asks for no areas: give -k from 1 to 10000"),
        (["near", "37.5", "127", "--limit", "3"], "--limit does not apply to near"),
        (["near", "37.5", "200"], "longitude must be between -180 and 180"),
    ])
    func valuesItCanCheckAreUsageErrors(arguments: [String], message: String) {
        #expect {
            _ = try ControlCommand.parse(arguments)
        } throws: { error in
            (error as? UsageError).map { "\($0)".contains(message) } ?? false
        }
    }

    @Test func aOneLetterOptionTakesItsValueAttached() throws {
        let attached = try ControlCommand.parse(["near", "37.5", "127", "-k2"])
        let apart = try ControlCommand.parse(["near", "37.5", "127", "-k", "2"])
        #expect(attached.request == apart.request)
        let afterSeparator = try ControlCommand.parse(["near", "--", "37.5", "-127"])
        #expect(afterSeparator.request == Request.near(point: GeoPoint(uncheckedLatitude: 37.5, longitude: -127), k: 10, maxMeters: nil, kind: .all, region: Region(), output: .full))
    }

    private func render(_ answer: String, _ arguments: [String]) throws -> ResponseFormatter.Output {
        ResponseFormatter.render(Array(answer.utf8), for: try ControlCommand.parse(arguments))
    }

    @Test(arguments: [
        ([String](), "1 area\n"), (["--format", "tsv"], "1\n"), (["--format", "ndjson"], "{\"count\":1}\n"),
    ])
    func aCountInEveryFormat(format: [String], printed: String) throws {
        let output = try render(#"{"ok":true,"count":1,"truncated":false}"#, ["radius", "37.5", "127", "300", "--output", "count"] + format)
        #expect(output.stdout == printed)
        #expect(output.status == 0)
    }

    @Test func csvHasAHeaderRowAndQuotesWhatNeedsIt() throws {
        let answer = #"{"ok":true,"count":1,"truncated":false,"areas":[{"id":"a:1","kind":"smoking","name":"역 \"광장\", 1번","lat":37.5,"lon":127,"distanceMeters":95.2,"address":"서울"}]}"#
        let output = try render(answer, ["near", "37.5", "127", "--format", "csv"])
        #expect(output.stdout == "id,distanceMeters,kind,lat,lon,name,address\r\na:1,95.2,smoking,37.5,127,\"역 \"\"광장\"\", 1번\",서울\r\n")
        let ids = try render(answer, ["near", "37.5", "127", "--format", "csv", "--output", "ids"])
        #expect(ids.stdout == "id,distanceMeters\r\na:1,95.2\r\n")
    }

    static let getAnswer = #"{"ok":true,"count":1,"areas":[{"id":"yongsan:027a36e0cd0ad58b","kind":"smoking","name":"서울역 광장","lat":37.5546,"lon":126.9706,"address":"서울특별시 용산구 한강대로 405","source":"yongsan","fields":[["위도","37.5546"]]}]}"#

    @Test func getInEveryFormat() throws {
        let tsv = try render(Self.getAnswer, ["get", "yongsan:027a36e0cd0ad58b", "--format", "tsv"])
        #expect(tsv.stdout == "yongsan:027a36e0cd0ad58b\t\tsmoking\t37.5546\t126.9706\t서울역 광장\t서울특별시 용산구 한강대로 405\n")
        let ndjson = try render(Self.getAnswer, ["get", "yongsan:027a36e0cd0ad58b", "--format", "ndjson"])
        let line = try JSONParser.parse(Array(ndjson.stdout.utf8.dropLast()))
        #expect(line["id"]?.string == "yongsan:027a36e0cd0ad58b" && line["fields"] != nil)
        #expect(ndjson.stdout.filter { $0 == "\n" }.count == 1)
    }

    static func checkAnswer(inside: Bool, nearestAddress: String) -> String {
        #"{"ok":true,"inside":\#(inside),"summary":"\#(inside ? "No smoking here: inside 1 non-smoking zone (공원)." : "Not inside any known non-smoking zone.") Nearest smoking area: 30 m N, 부스.","zones":[],"nearestSmoking":{"id":"s:1","name":"부스","distanceMeters":30,"direction":"N","address":"\#(nearestAddress)"}}"#
    }

    @Test(arguments: [(true, Int32(1)), (false, Int32(0))])
    func checkSaysByItsExitStatusWhetherSmokingIsForbidden(inside: Bool, status: Int32) throws {
        let answer = Self.checkAnswer(inside: inside, nearestAddress: "")
        let loud = try render(answer, ["check", "37.5", "127"])
        #expect(loud.status == status)
        // The last line names the nearest area as the summary does (never by its id alone), with
        // its distance and way, its address when it has one, and its id.
        #expect(loud.stdout.hasSuffix("nearest smoking area: 30 m N  부스  s:1\n"), "its distance, way and name, and no empty address: \(loud.stdout)")
        let addressed = try render(Self.checkAnswer(inside: inside, nearestAddress: "용산구 한강대로 405"), ["check", "37.5", "127"])
        #expect(addressed.stdout.hasSuffix("nearest smoking area: 30 m N  부스  용산구 한강대로 405  s:1\n"), "\(addressed.stdout)")
        let quiet = try render(answer, ["check", "-q", "37.5", "127"])
        #expect(quiet.stdout.isEmpty && quiet.status == status)
    }

    @Test func theDaemonsNoteOnAnEmptyAnswerGoesToStandardError() throws {
        let output = try render(#"{"ok":true,"count":0,"truncated":false,"note":"the data has no district '용상' (did you mean 용산구?); it has: 용산구","unknownRegion":true,"areas":[]}"#,
                                ["near", "37.5", "127", "--district", "용상"])
        #expect(output.stdout == "no areas found\n")
        #expect(output.stderr == "note: the data has no district '용상' (did you mean 용산구?); it has: 용산구\n")
        #expect(output.status == 1, "a region the data lacks is a question not answered")
        let read = try render(#"{"ok":true,"count":0,"truncated":false,"note":"district '용산' read as 용산구","areas":[]}"#,
                              ["near", "37.5", "127", "--district", "용산", "--output", "count"])
        #expect(read.status == 0 && read.stderr == "note: district '용산' read as 용산구\n")
    }

    /// `sources` and `get` tables show what `--json` shows: geocoded and overridden counts, the
    /// rejected rows by reason, the overrides file's problems, and why records were merged.
    @Test func tablesShowWhatTheAnswerSays() throws {
        let sources = #"{"ok":true,"sources":[{"name":"gu","kind":"smoking","format":"csv","areas":9,"rows":12,"accepted":10,"duplicates":1,"rejected":{"missing coordinates":1},"geocoded":4,"merged":1,"overridden":2,"referenceDates":null,"lastStatus":"updated","lastError":null}],"districts":[],"problems":["overrides line 3: no area or record has the id 'x' (hide); skipped"]}"#
        let table = try render(sources, ["sources"]).stdout
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("GEOCODED") == true && lines.first?.contains("OVERRIDDEN") == true, "\(table)")
        #expect(lines.count > 1 && lines[1].split(separator: " ").filter { !$0.isEmpty }.prefix(10).map(String.init) == ["gu", "smoking", "9", "12", "10", "1", "1", "4", "1", "2"], "\(table)")
        #expect(table.contains("  gu rejected: missing coordinates 1") && table.contains("overrides file:\n  overrides line 3: no area or record has the id 'x' (hide); skipped"), "\(table)")
        let area = #"{"ok":true,"count":1,"truncated":false,"areas":[{"id":"a:1","kind":"smoking","name":"부스","lat":37.5,"lon":127.0,"source":"a","records":[{"source":"a","id":"a:1","name":"부스","lat":37.5,"lon":127.0},{"mergeReason":{"meters":12.4,"names":"the same name, white space aside"},"source":"b","id":"b:7","name":"부 스","lat":37.5001,"lon":127.0}]}]}"#
        let detail = try render(area, ["get", "a:1"]).stdout
        #expect(detail.contains("merged from:") && detail.contains("the area's first record") && detail.contains("12 m from the first; the same name, white space aside"), "\(detail)")
    }

    @Test func anUnchangedSourceIsARefreshThatSucceeded() throws {
        let answer = #"{"ok":true,"refreshed":true,"report":{"succeeded":true,"sources":[{"name":"a","status":"unchanged","summary":"a: unchanged, 3 areas from 1 page"}]}}"#
        let output = try render(answer, ["refresh"])
        #expect(output.status == 0 && output.stdout == "a: unchanged, 3 areas from 1 page\n" && output.stderr.isEmpty)
    }
}
