import AreasTestSupport
import Foundation
import Glibc
import Testing
import AreasTestTraits

/// areasctl's usage errors through the real binary: one line naming the flag as typed, exit 2,
/// before any connection; and a note naming the provinces the data has when none matched.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct CommandLineErrorsTests {
    @Test(arguments: [
        (["stats", "--kind", "smoking"], "--kind does not apply to stats"),
        (["check", "37.5", "126.9", "--output", "count"], "--output does not apply to check"),
        (["near", "37.5", "126.9", "--force"], "--force does not apply to near"),
        (["near", "37.5", "126.9", "-k", "3", "-k", "4"], "-k is given twice"),
        (["near", "37.5", "126.9", "--province=서울", "--province", "부산"], "--province is given twice"),
        (["near", "126.97", "37.53"], "126.97 is not a latitude: latitude and longitude look swapped (try: areasctl near 37.53 126.97)"),
        (["radius", "126.97", "37.53", "500"], "look swapped (try: areasctl radius 37.53 126.97 500)"),
        (["near", "37.5", "126.9", "--max-meters", "-5"], "--max-meters must be a number of meters from 0 to 20100000, got -5.0"),
        (["near", "37.5", "126.9", "-k", "20000"], "-k must be a whole number from 0 to 10000, got 20000.0"),
        (["along", "--meters", "60000", "37.5,126.9"], "--meters must be at most 50000 for along"),
        (["near", "37.5", "126.9", "--output", "count", "--geojson"], "--output count has no places to draw"),
        (["nera", "37.5", "126.9"], "unknown command 'nera' (did you mean near?)"),
        (["helth"], "unknown command 'helth' (did you mean health?)"),
        (["frobnicate"], "unknown command 'frobnicate'\n"),
    ] as [([String], String)])
    func usageErrorsNameTheFlagAndExit2(arguments: [String], expected: String) throws {
        let run = try Binaries.run("areasctl", ["--socket", "/nonexistent/areasd.sock"] + arguments)
        #expect(run.status == 2)
        #expect(run.stderr.contains(expected), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("run 'areasctl --help' for usage\n"))
        #expect(run.stdout.isEmpty)
    }

    @Test func anUnknownProvinceIsNamedWithTheOnesThereAre() throws {
        let daemon = try SampleDaemon()
        let socket = daemon.socket
        let unknown = try Binaries.run("areasctl", ["--socket", socket, "near", "37.53", "126.97", "--province", "서울툭별시"])
        #expect(unknown.status == 1, "a filter that names nothing the data has is a question not answered")
        #expect(unknown.stderr.contains("note: the data has no province '서울툭별시' (did you mean 서울특별시?); it has: "), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("서울특별시"))
        // A short name of a province the data has: answered, and no note.
        let short = try Binaries.run("areasctl", ["--socket", socket, "near", "37.53", "126.97", "--province", "서울"])
        #expect(short.status == 0 && short.stderr.isEmpty, "\(short.stderr)")
        #expect(!short.stdout.isEmpty)
        // A district typed short or in Latin letters: answered, saying how it was read.
        let latin = try Binaries.run("areasctl", ["--socket", socket, "near", "37.53", "126.97", "--district", "Yongsan", "--output", "ids"])
        let hangul = try Binaries.run("areasctl", ["--socket", socket, "near", "37.53", "126.97", "--district", "용산구", "--output", "ids"])
        #expect(latin.status == 0 && latin.stdout == hangul.stdout && !latin.stdout.isEmpty, "\(latin.stderr)")
        #expect(latin.stderr == "note: district 'Yongsan' read as 용산구\n")
        let romanised = try Binaries.run("areasctl", ["--socket", socket, "near", "37.53", "126.97", "--province", "Seol"])
        #expect(romanised.status == 1 && romanised.stderr.contains("(did you mean 서울특별시?)"), "\(romanised.stderr)")
    }
}
