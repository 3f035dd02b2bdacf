import AreasTestTraits
import Dispatch
import Testing

/// The trait every suite takes: its bodies run off the cooperative pool, so a body that blocks
/// holds no thread the other tests need.
@Suite(.offThePool, .timeLimit(.minutes(1))) struct OffThePoolTraitTests {
    @Test func aSynchronousBodyRunsOnTheTestBodyQueue() {
        #expect(TestBodyExecutor.isCurrent)
    }

    @Test func anAsynchronousBodyAndItsChildTasksRunThereToo() async {
        #expect(TestBodyExecutor.isCurrent)
        async let child = TestBodyExecutor.isCurrent
        #expect(await child)
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 { group.addTask { TestBodyExecutor.isCurrent } }
            for await onIt in group { #expect(onIt) }
        }
    }

    /// More bodies blocked at once than the pool has threads: each waits for all the others,
    /// which on the pool's threads (one per core) could never all run.
    @Test func blockedBodiesDoNotStarveEachOther() async {
        let count = 8
        let arrived = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let released = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask {
                    arrived.signal()
                    return release.wait(timeout: .now() + 30) == .success
                }
            }
            var all = true
            for _ in 0..<count where arrived.wait(timeout: .now() + 30) != .success { all = false }
            for _ in 0..<count { release.signal() }
            for await one in group { all = all && one }
            return all
        }
        #expect(released)
    }
}
