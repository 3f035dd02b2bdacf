import AreasTestTraits
import Testing

/// The `.endToEnd` tag names every test that runs the package's binaries: running one from a
/// test without it is reported, so a reader (and `swift test --filter`) can trust the name.
@Suite(.offThePool, .timeLimit(.minutes(1))) struct EndToEndTagTests {
    @Test func aTestThatRunsABinaryWithoutTheTagIsReported() throws {
        withKnownIssue("areasctl run from a test not tagged .endToEnd") {
            _ = try Binaries.run("areasctl", ["--version"], seconds: 20)
        }
    }

    @Test(.tags(.endToEnd)) func aTaggedTestRunsIt() throws {
        let version = try Binaries.run("areasctl", ["--version"], seconds: 20)
        #expect(version.status == 0, "\(version.stderr)")
        #expect(currentTestIsEndToEnd() == true)
    }

    @Test func anInProcessTestIsNotEndToEnd() {
        #expect(currentTestIsEndToEnd() == false)
    }
}
