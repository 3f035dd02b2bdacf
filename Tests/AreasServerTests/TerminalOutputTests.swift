import AreasControl
import AreasProtocol
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// What areasctl prints for a terminal, through the real binaries and the sample daemon:
/// tables that fit `COLUMNS`, and `stats` with ages and local dates where the daemon sends
/// epochs. The oracles are the same answers in `--format tsv` and `--json`.
@Suite(.serialized, .tags(.endToEnd), .offThePool, .timeLimit(.minutes(5))) struct TerminalOutputTests {
    let daemon: SampleDaemon
    init() throws { daemon = try SampleDaemon() }

    func areasctl(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        try Binaries.run("areasctl", ["--socket", daemon.socket] + arguments, environment: environment)
    }

    /// Every line fits; an id is whole whenever it can be (else both its ends stay, to be
    /// matched), the address goes before a name is cut to a few syllables.
    @Test(arguments: [60, 80, 120])
    func tablesFitTheColumns(columns: Int) throws {
        defer { daemon.stop() }
        let question = ["near", "37.53", "126.97", "-k", "12"]
        let table = try areasctl(question, environment: ["COLUMNS": String(columns)])
        let tsv = try areasctl(question + ["--format", "tsv"])
        #expect(table.status == 0 && tsv.status == 0)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        let ids = tsv.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        #expect(lines.count == ids.count + 1)
        for (line, id) in zip(lines.dropFirst(), ids) {
            #expect(ResponseFormatter.displayWidth(line) <= columns, "\(line) is wider than \(columns)")
            let shown = String(line.split(separator: " ").last ?? "")
            if columns >= 80 {
                #expect(shown == id, "the id is cut at \(columns) columns: \(line)")
            } else if shown != id {
                let parts = shown.split(separator: "…", omittingEmptySubsequences: false)
                #expect(parts.count == 2 && id.hasPrefix(parts[0]) && id.hasSuffix(parts[1]) && shown.count >= 17, "\(shown) is not \(id) with its middle left out")
            }
        }
        // The name keeps at least ten syllables' room (the address gives way first).
        let header = try #require(lines.first)
        let name = try #require(header.range(of: "NAME")), after = try #require(header.range(of: "ID"))
        #expect(header.distance(from: name.lowerBound, to: after.lowerBound) - 2 >= (columns >= 80 ? 20 : 16), "\(header)")
        // Long names are elided, and only when they do not fit.
        let wide = try areasctl(question, environment: ["COLUMNS": "1000"])
        #expect(!wide.stdout.contains("…"))
        if columns <= 80 { #expect(table.stdout.contains("…")) }
        // Names that share their first words (`서울특별시 용산구 `) lose those, not the part
        // that tells them apart: no two names shown alike unless they are alike.
        let full = try areasctl(question + ["--format", "ndjson"]).stdout.split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8))["name"]?.string }
        let nameCells = lines.dropFirst().map { line -> String in
            let start = line.index(line.startIndex, offsetBy: header.distance(from: header.startIndex, to: name.lowerBound))
            return String(line[start...]).components(separatedBy: "  ").first ?? ""
        }
        #expect(Set(nameCells).count == Set(full).count, "names shown alike at \(columns) columns: \(nameCells)")
        // Piped without COLUMNS: whole lines, for grep and cut.
        let piped = try areasctl(question)
        #expect(piped.stdout == wide.stdout)
    }

    @Test func statsShowsAgesAndLocalDatesNotEpochs() throws {
        defer { daemon.stop() }
        let json = try areasctl(["stats", "--json"])
        let text = try areasctl(["stats"], environment: ["TZ": "Asia/Seoul", "COLUMNS": "200"])
        #expect(text.status == 0 && json.status == 0)
        guard case .object(let members)? = try? JSONParser.parse(Array(json.stdout.utf8)),
              case .object(let sources)? = members.first(where: { $0.0 == "bySource" })?.1 else {
            Issue.record("no bySource in \(json.stdout)")
            return
        }
        #expect(text.stdout.contains("FETCHED (KST)"))
        // The oracle: Foundation's calendar in Seoul's zone (tzdata's), with a fixed locale, so
        // the digits are the ones a Korean terminal shows whatever this machine's locale is.
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "Asia/Seoul")
        try #require(formatter.timeZone.secondsFromGMT() == 9 * 3600, "no Asia/Seoul zone (Tests/run.sh installs tzdata)")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        for (name, value) in sources {
            guard case .object(let fields) = value, case .number(let fetchedAt)? = fields.first(where: { $0.0 == "fetchedAt" })?.1 else {
                Issue.record("\(name) has no fetchedAt")
                continue
            }
            let line = try #require(text.stdout.split(separator: "\n").first { $0.hasPrefix(name + " ") }, "\(name) is not listed")
            #expect(line.contains(formatter.string(from: Date(timeIntervalSince1970: fetchedAt))), "\(line)")
            #expect(line.contains(" ago") && line.hasSuffix("updated"), "\(line)")
        }
        // No epoch (ten digits, as the daemon sends them) is shown to people.
        #expect(text.stdout.range(of: #"\b1[0-9]{9}\b"#, options: .regularExpression) == nil, "\(text.stdout)")
        #expect(json.stdout.range(of: #"\b1[0-9]{9}\b"#, options: .regularExpression) != nil)
    }
}
