import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// Tests/README.md's "Bad input on the socket" table is what the daemon answers: the benchmark
/// that generates it runs against a real areasd on the samples, and each row it prints must
/// stand in the README (a cell it cuts short with "..." as the start of the README's).
@Suite(.serialized, .tags(.endToEnd), .offThePool, .timeLimit(.minutes(5)))
struct BadInputTableTests {
    /// The rows of a markdown table below `heading`, by their first cell.
    static func rows(_ text: String, after heading: String) -> [String: String] {
        guard let start = text.range(of: heading) else { return [:] }
        var rows: [String: String] = [:]
        for line in text[start.upperBound...].split(separator: "\n") {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("| "), !line.hasPrefix("| ---"), !line.hasPrefix("| input |") else { continue }
            let cells = line.dropFirst(2).components(separatedBy: " | ")
            guard cells.count >= 2 else { continue }
            rows[cells[0]] = cells.dropFirst().joined(separator: " | ")
        }
        return rows
    }

    @Test func theReadmesTableIsWhatTheDaemonAnswers() throws {
        let bench = Binaries.path("areas-bench")
        try #require(FileManager.default.isExecutableFile(atPath: bench), "areas-bench is not built beside areasd")
        let run = try Binaries.run("/bin/sh", ["-c", "cd '\(Fixtures.root)' && '\(bench)' bad-input --markdown"], seconds: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let answered = Self.rows(run.stdout, after: "Bad input on the socket")
        let readme = Self.rows(try String(contentsOfFile: Fixtures.path("Tests/README.md"), encoding: .utf8), after: "## Bad input on the socket")
        #expect(answered.count >= 40, "\(answered.count) rows: \(run.stdout.prefix(500))")
        #expect(Set(answered.keys) == Set(readme.keys), "rows only the daemon answers: \(Set(answered.keys).subtracting(readme.keys)); only in the README: \(Set(readme.keys).subtracting(answered.keys))")
        for (input, answer) in answered {
            guard let written = readme[input] else { continue }
            let cut = answer.hasSuffix("...` |") || answer.hasSuffix("...`")
            let stem = cut ? String(answer.dropLast(answer.hasSuffix("` |") ? 6 : 4)) : answer
            #expect(cut ? written.hasPrefix(stem) : written == answer, "\(input): the daemon answers \(answer); the README says \(written)")
        }
        #expect(run.stdout.contains("answered health: 42/42"), "\(run.stdout.suffix(300))")
    }
}
