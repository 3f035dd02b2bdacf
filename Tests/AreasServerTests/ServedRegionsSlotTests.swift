import Testing
@testable import AreasServer
import AreasTestTraits

/// A refresh started while the administrative map is read waits for it: woken by its install,
/// or let go at its deadline, never by looking again and again.
@Suite(.offThePool, .timeLimit(.minutes(1)))
struct ServedRegionsSlotTests {
    @Test func aWaiterIsWokenByTheInstall() async throws {
        let slot = ServedRegionsSlot(.loading)
        let clock = ContinuousClock()
        let started = clock.now
        async let settled = slot.settled(within: 30)
        try await Task.sleep(for: .milliseconds(100))
        slot.install(.loading)
        slot.install(.unavailable(reason: "no folder"))
        let regions = await settled
        #expect(regions.problem?.contains("no folder") == true)
        #expect(clock.now - started < .seconds(10))
    }

    @Test func aWaiterIsLetGoAtItsDeadline() async {
        let slot = ServedRegionsSlot(.loading)
        let clock = ContinuousClock()
        let started = clock.now
        let regions = await slot.settled(within: 0.3)
        guard case .loading = regions else { Issue.record("\(regions)"); return }
        #expect(clock.now - started >= .milliseconds(250))
        // Its deadline passed, a later install wakes no one twice.
        slot.install(.unavailable(reason: "late"))
    }

    @Test func aMapAlreadyReadIsAnsweredAtOnce() async {
        let slot = ServedRegionsSlot(.unavailable(reason: "read"))
        #expect(await slot.settled(within: 30).problem?.contains("read") == true)
    }
}
