import AreasIngest
import Testing
import AreasTestTraits

/// The fetch times a leader sends followers in a header come back exactly, names and fractions.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct FetchTimesHeaderTests {
    @Test func timesSurviveTheHeaderWhole() {
        let times = ["yongsan": 1_796_096_241.623_451, "서울 흡연, 구역=1": 1_796_000_000.5, "a": 1_796_096_242]
        #expect(FetchTimes.parse(headerValue: FetchTimes.headerValue(times), now: 1_796_100_000) == times)
    }

    @Test func nonsenseIsLeftOut() {
        let parsed = FetchTimes.parse(headerValue: "a=nan, b=-5, c=1e300, d, =7, e=1796000000", now: 1_796_100_000)
        #expect(parsed == ["e": 1_796_000_000])
    }
}
